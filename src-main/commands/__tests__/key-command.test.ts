/**
 * `wager-keeper key show|export|import` and one key per cluster, as an operator meets them, with the real
 * OS keychain (a private D-Bus session with gnome-keyring; HOME in a temp dir): a key exported and imported
 * again is the same key; the backup is 0600 and never overwrites a file; a different stored key is
 * replaced only with --replace; mainnet-beta has its own key and refuses the local/test one, as a key to
 * import and as `keeper --keypair`. mainnet-beta itself is not reachable here: a loopback JSON-RPC
 * stand-in answers getGenesisHash with mainnet-beta's genesis hash (where the code reads the cluster) and
 * refuses every other method, like a node that knows nothing else.
 */
import { getBase58Decoder } from '@solana/kit';
import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatDeployment } from '../../protocol/deployment';
import { KNOWN_GENESIS_HASHES } from '../../../src-shared/cluster-identity';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import {
  cleanUp,
  inSecretServiceSessionAsync,
  isolatedEnv,
  secretServiceMissing,
  secretServiceNote,
} from '../../secrets/__tests__/secret-service-session';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const MAINNET_GENESIS = Object.keys(KNOWN_GENESIS_HASHES).find(
  (hash) => KNOWN_GENESIS_HASHES[hash] === 'mainnet-beta',
)!;

/** The stand-in for a mainnet-beta RPC: its genesis hash, nothing else. */
const standIn = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    const call = JSON.parse(body || '{}') as { id?: unknown; method?: string };
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify(
        call.method === 'getGenesisHash'
          ? { jsonrpc: '2.0', id: call.id ?? null, result: MAINNET_GENESIS }
          : { jsonrpc: '2.0', id: call.id ?? null, error: { code: -32601, message: 'Method not found' } },
      ),
    );
  });
});
let mainnetRpc = '';
beforeAll(async () => {
  standIn.listen(0, '127.0.0.1');
  await once(standIn, 'listening');
  mainnetRpc = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(() => standIn.close());
const dirs: string[] = [];
afterEach(() => cleanUp(dirs));

/** A deployment file for mainnet-beta (addresses made up: the keeper stops before it reads the chain). */
async function mainnetDeploymentFile(dir: string): Promise<string> {
  const a = async () => (await generateKeypairWithBytes()).signer.address;
  const path = join(dir, 'mainnet-deployment.json');
  writeFileSync(
    path,
    formatDeployment({
      version: 1,
      cluster: { genesisHash: MAINNET_GENESIS, name: 'mainnet-beta' },
      programs: { wager: await a(), oracle: await a() },
      programData: await a(),
      upgradeAuthority: await a(),
      config: await a(),
      pool: await a(),
      usdcMint: await a(),
      paytables: [],
      guardian: await a(),
      deployedSlot: 1,
      programSha256: '0'.repeat(64),
    }),
  );
  return path;
}

describe('wager-keeper key', () => {
  it.skipIf(secretServiceMissing)(
    `backs up and restores the key, and keeps mainnet-beta's apart${secretServiceNote}`,
    async () => {
      const { home, env } = isolatedEnv(dirs);
      const [local, other, mainnet] = await Promise.all([
        generateKeypairWithBytes(),
        generateKeypairWithBytes(),
        generateKeypairWithBytes(),
      ]);
      const file = (name: string, text: string) => {
        writeFileSync(join(home, name), text, { mode: 0o600 });
        return join(home, name);
      };
      const localFile = file('local.json', JSON.stringify(Array.from(local.secretKey)));
      const otherFile = file('other.json', JSON.stringify(Array.from(other.secretKey)));
      const localBase58 = file('local.b58', getBase58Decoder().decode(local.secretKey));
      const mainnetBase58 = file('mainnet.b58', getBase58Decoder().decode(mainnet.secretKey));
      const backup = join(home, 'backup.json');
      const deployment = await mainnetDeploymentFile(home);
      const steps: [string, string][] = [
        ['import local', `key import ${localFile} --cluster devnet`],
        ['export', `key export --out ${backup} --cluster testnet`],
        ['export again', `key export --out ${backup} --cluster devnet`],
        ['import other unconfirmed', `key import ${otherFile} --cluster localnet`],
        ['import other', `key import ${otherFile} --cluster localnet --replace`],
        ['restore backup', `key import ${backup} --cluster devnet --replace`],
        ['show local', `key show --cluster devnet`],
        ['local key to mainnet', `key import - --cluster mainnet-beta < ${localBase58}`],
        ['mainnet key', `key import - --cluster mainnet-beta < ${mainnetBase58}`],
        ['show by genesis', `key show --rpc ${mainnetRpc}`],
        [
          'keeper with the local key',
          `keeper --rpc ${mainnetRpc} --deployment ${deployment} --keypair ${localFile} --port 0 --no-console --db ${join(home, 'k.db')}`,
        ],
        ['show local after', `key show --cluster localnet`],
        // Both replacements kept the old key (issue 33): listed, and the first exported by its account.
        ['show replaced', `key show --replaced --cluster devnet`],
      ];
      const replacedBackup = join(home, 'replaced.json');
      const listed = steps.length - 1;
      steps.push([
        'export replaced',
        `key export --out ${replacedBackup} --cluster devnet --account "$(head -n1 '${home}/${listed}.out' | sed 's/.*"account":"\\([^"]*\\)".*/\\1/')"`,
      ]);
      // Each step's stdout, stderr and exit code in files named by its index.
      await inSecretServiceSessionAsync(
        env,
        // `timeout`: a keeper that wrongly starts would run on; it must exit at once, refusing the key.
        steps.map(
          ([, args], i) =>
            `timeout 60 '${process.execPath}' '${bin}' ${args} >'${home}/${i}.out' 2>'${home}/${i}.err'; echo $? >'${home}/${i}.code'`,
        ),
      );
      const result = Object.fromEntries(
        steps.map(([name], i) => {
          const read = (ext: string) => readFileSync(join(home, `${i}.${ext}`), 'utf8').trim();
          const out = read('out');
          return [
            name,
            {
              code: Number(read('code')),
              // `key show` prints the address alone; the others one JSON line.
              json: out.startsWith('{') ? (JSON.parse(out.split('\n').at(-1)!) as Record<string, unknown>) : null,
              out,
              err: read('err'),
            },
          ];
        }),
      );
      const ok = (name: string) => {
        expect(result[name], name).toMatchObject({ code: 0 });
        return result[name]!.json!;
      };
      const failed = (name: string, message: RegExp) =>
        expect(result[name], name).toMatchObject({ code: 1, err: expect.stringMatching(message) });

      expect(ok('import local')).toEqual({
        address: local.signer.address,
        keyClass: 'local',
        account: 'keeper',
        replaced: null,
      });
      expect(ok('export')).toEqual({
        path: backup,
        address: local.signer.address,
        keyClass: 'local',
        account: 'keeper',
      });
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(backup, 'utf8'))).toEqual(Array.from(local.secretKey));
      failed('export again', /already exists: the key is never written over a file/);
      failed(
        'import other unconfirmed',
        new RegExp(
          `already holds a local/test keeper key \\(${local.signer.address}\\).*confirm the replacement with --replace`,
        ),
      );
      expect(ok('import other')).toMatchObject({
        address: other.signer.address,
        replaced: local.signer.address,
      });
      // Export then import gives the same address.
      expect(ok('restore backup')).toMatchObject({
        address: local.signer.address,
        replaced: other.signer.address,
      });
      const shown = (name: string) => {
        ok(name);
        return result[name]!.out;
      };
      expect(shown('show local')).toBe(local.signer.address);
      failed(
        'local key to mainnet',
        /is the key that cranks local and test clusters, and mainnet-beta never uses that key/,
      );
      expect(ok('mainnet key')).toEqual({
        address: mainnet.signer.address,
        keyClass: 'mainnet-beta',
        account: 'keeper-mainnet-beta',
        replaced: null,
      });
      expect(shown('show by genesis')).toBe(mainnet.signer.address);
      failed(
        'keeper with the local key',
        new RegExp(
          `--keypair ${localFile} \\(${local.signer.address}\\) is the key that cranks local and test clusters, and mainnet-beta never uses that key`,
        ),
      );
      expect(shown('show local after')).toBe(local.signer.address);
      const replacedLines = shown('show replaced').split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(replacedLines).toEqual([
        { account: expect.stringMatching(/^keeper-replaced-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/), address: local.signer.address, replacedAt: expect.any(String), keyClass: 'local' },
        { account: expect.stringMatching(/^keeper-replaced-/), address: other.signer.address, replacedAt: expect.any(String), keyClass: 'local' },
      ]);
      expect(ok('export replaced')).toEqual({ path: replacedBackup, address: local.signer.address, keyClass: 'local', account: replacedLines[0]!.account });
      expect(JSON.parse(readFileSync(replacedBackup, 'utf8'))).toEqual(Array.from(local.secretKey));
      // Only addresses on stdout: no step printed key bytes or a base58 secret.
      const printed = steps.map((_, i) => readFileSync(join(home, `${i}.out`), 'utf8')).join('\n');
      for (const secret of [
        getBase58Decoder().decode(local.secretKey),
        getBase58Decoder().decode(mainnet.secretKey),
      ])
        expect(printed).not.toContain(secret);
      expect(printed).not.toMatch(/\[\s*\d+\s*,\s*\d+/);
    },
    180_000,
  );
});
