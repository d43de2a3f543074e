/**
 * `wager-keeper sweep` as a user runs it (the built CLI) on a localnet: --dry-run prints the plan and sends
 * nothing; a sweep prints one JSON line with the signature and leaves the keeper exactly --keep; the
 * keeper's own address is refused with one line and exit code 1.
 */
import { createSolanaRpc, generateKeyPairSigner, lamports, type Address } from '@solana/kit';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type BareLocalnet } from '../../localnet/localnet';
import { eventually } from '../../localnet/__tests__/localnet-test-helpers';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { openDatabase } from '../../store/database';
import { createSweepLedger } from '../../store/sweep-ledger';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const SOL = 1_000_000_000n;

/** Runs the CLI; answers its exit code and output lines. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) =>
      resolve({ code, stdout: out.split('\n').filter(Boolean), stderr: err.split('\n').filter(Boolean) }),
    );
  });
}

let localnet: BareLocalnet;
let folder: string;
let keeper: Address;
let keypairFile: string;
let wallet: Address;
const balanceOf = async (of: Address) =>
  (await createSolanaRpc(localnet.rpcUrl).getBalance(of, { commitment: 'confirmed' }).send()).value;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, bare: true });
  folder = await mkdtemp(join(tmpdir(), 'sweep-cli-'));
  const key = await generateKeypairWithBytes();
  keeper = key.signer.address;
  keypairFile = join(folder, 'keeper.json');
  await writeFile(keypairFile, JSON.stringify(Array.from(key.secretKey)), { mode: 0o600 });
  wallet = (await generateKeyPairSigner()).address;
  await createSolanaRpc(localnet.rpcUrl)
    .requestAirdrop(keeper, lamports(3n * SOL))
    .send();
  await eventually(
    async () => ((await balanceOf(keeper)) === 3n * SOL ? true : undefined),
    10_000,
    'the keeper funded',
  );
});
afterAll(async () => {
  await localnet?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('wager-keeper sweep', () => {
  it('--dry-run prints the plan; the sweep sends it, prints the signature, keeps exactly --keep and books it; its own address is refused', async () => {
    const db = join(folder, 'keeper.db');
    const common = ['--rpc', localnet.rpcUrl, '--keypair', keypairFile, '--keep', '0.25', '--db', db];
    const dry = await cli(['sweep', ...common, '--to', wallet, '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stderr: [] });
    expect(dry.stdout).toHaveLength(1);
    expect(JSON.parse(dry.stdout[0]!)).toEqual({
      to: wallet,
      sentLamports: Number(3n * SOL - SOL / 4n - 5_000n),
      feeLamports: 5_000,
      keptLamports: Number(SOL / 4n),
    });
    expect(await balanceOf(keeper)).toBe(3n * SOL);

    const sent = await cli(['sweep', ...common, '--to', wallet]);
    expect(sent.code).toBe(0);
    const line = JSON.parse(sent.stdout[0]!) as Record<string, unknown>;
    expect(line).toEqual({
      to: wallet,
      sentLamports: Number(3n * SOL - SOL / 4n - 5_000n),
      feeLamports: 5_000,
      keptLamports: Number(SOL / 4n),
      signature: expect.any(String),
    });
    expect(await balanceOf(keeper)).toBe(SOL / 4n);
    expect(await balanceOf(wallet)).toBe(3n * SOL - SOL / 4n - 5_000n);
    const booked = openDatabase(db);
    expect(createSweepLedger(booked).recent(5)).toMatchObject([
      { signature: line.signature, trigger: 'command', destination: wallet },
    ]);
    booked.close();

    const own = await cli(['sweep', ...common, '--to', keeper]);
    expect(own.code).toBe(1);
    expect(own.stdout).toEqual([]);
    expect(own.stderr).toEqual([
      `wager-keeper sweep: ${keeper} is the keeper's own address: a sweep sends earnings away from it; enter your own wallet's address instead`,
    ]);
  });
});
