/**
 * The command line on a machine where litesvm cannot load (Windows, or an install without its platform
 * package): litesvm is made unloadable in the CLI's process by a resolve hook (fixtures/litesvm-unloadable.mjs,
 * passed in NODE_OPTIONS so a re-run child gets it too). The commands on the embedded chain exit 1 with one
 * line naming the cause and --rpc; `serve --rpc` needs no litesvm and serves.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unavailableReason } from '../embedded-availability';
import { startLocalnet, type Localnet } from '../localnet';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin', 'wager-keeper.js');
const hook = join(root, 'src-main', '__tests__', 'fixtures', 'litesvm-unloadable.mjs');

let localnet: Localnet;
let dir: string;

beforeAll(async () => {
  // The chain `serve --rpc` runs against, started normally here (this process can load litesvm).
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  dir = await mkdtemp(join(tmpdir(), 'wk-no-litesvm-'));
}, 60_000);

afterAll(async () => {
  await localnet?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `wager-keeper ARGS` with litesvm unloadable; resolves on its ready line (then stops it) or its exit. */
async function runWithoutLitesvm(
  args: string[],
): Promise<{ code: number | null; ready: Record<string, unknown> | null; stderr: string }> {
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${hook}`.trim(),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    WAGER_KEEPER_LOG: 'warn',
  };
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    exited.then(() => null),
  ]);
  lines.on('line', () => {}); // keep draining stdout
  const ready = first && first.includes('"ready"') ? (JSON.parse(first) as Record<string, unknown>) : null;
  if (ready) child.kill('SIGTERM');
  const [code] = await exited;
  return { code, ready, stderr };
}

/** The lines a person reads (logs are JSON lines): exactly one, starting with the command's name. */
const errorLinesOf = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('wager-keeper'));

const UNAVAILABLE = new RegExp(
  `^the embedded localnet is unavailable on this platform \\(${process.platform}-${process.arch}\\): .*litesvm.* \\(Cannot find native binding\\)(, so \`npm install\` again may fetch it)?; run against a cluster over RPC instead: \`wager-keeper serve --rpc URL\``,
);

describe('the CLI without a loadable litesvm', () => {
  it.each([
    ['localnet', ['localnet', '--rpc-port', '0']],
    ['serve', ['serve', '--rpc-port', '0', '--port', '0', '--gateway-port', '0']],
  ])(
    '`%s` on the embedded chain exits 1 with one line naming the cause and --rpc, no stack',
    async (command, args) => {
      const { code, ready, stderr } = await runWithoutLitesvm(args);
      expect(ready).toBeNull();
      expect(code, stderr).toBe(1);
      const lines = errorLinesOf(stderr);
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]!.slice(`wager-keeper ${command}: `.length)).toMatch(UNAVAILABLE);
      expect(stderr).not.toMatch(/^\s+at /m);
    },
    60_000,
  );

  it('`serve --rpc URL` needs no litesvm: it serves and prints its ready line', async () => {
    const { code, ready, stderr } = await runWithoutLitesvm([
      'serve',
      '--rpc',
      localnet.rpcUrl,
      '--port',
      '0',
      '--gateway-port',
      '0',
      '--no-console',
    ]);
    expect(ready, stderr).toMatchObject({
      event: 'ready',
      rpcUrl: localnet.rpcUrl,
      genesisHash: localnet.manifest.genesisHash,
      keeper: expect.any(String),
    });
    expect(code).toBe(0); // stopped by SIGTERM, cleanly
  }, 60_000);
});

describe('the sentence for each platform', () => {
  const cause = new Error('Cannot find native binding. npm has a bug\nsecond line');
  it('names Windows, platforms litesvm builds for, and the others; with the first line of the cause', () => {
    expect(unavailableReason(cause, 'win32', 'x64')).toBe(
      'the embedded localnet is unavailable on this platform (win32-x64): litesvm publishes no Windows build (Cannot find native binding)',
    );
    expect(unavailableReason(cause, 'darwin', 'arm64')).toBe(
      "the embedded localnet is unavailable on this platform (darwin-arm64): litesvm's native build for it did not load (Cannot find native binding), so `npm install` again may fetch it",
    );
    expect(unavailableReason(cause, 'freebsd', 'x64')).toBe(
      'the embedded localnet is unavailable on this platform (freebsd-x64): litesvm has no native build for it (Cannot find native binding)',
    );
  });
});
