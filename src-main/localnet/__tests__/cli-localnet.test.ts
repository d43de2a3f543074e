/**
 * `wager-keeper localnet` as a person runs it: it prints one `ready` line with the endpoints, writes the
 * manifest, serves `wager-keeper open` (also for another beneficiary) and `wager-keeper oracle`, honours
 * its flags (--slot-ms, --oracle-delay-slots, --oracle-stalled) as seen over RPC, and stops cleanly on
 * SIGTERM and on SIGINT (exit code 0, its ports free again).
 */
import {
  address,
  createSolanaRpc,
  getBase58Decoder,
  getBase64Encoder,
  getU64Decoder,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { findAssociatedTokenPda, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRandomnessV2Decoder } from '../../protocol/oracle';
import { getRequestRandomnessForWager, getWagerDecoder, WagerStatus, type SlotHash, type Wager } from '../../protocol/wager';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import type { LocalnetManifest } from '../localnet';
import { eventually, sendWire, signInstructions } from './localnet-test-helpers';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const READY_WITHIN_MS = 10_000;
const SLOT_HASHES_SYSVAR = address('SysvarS1otHashes111111111111111111111111111');

type Ready = { event: string } & LocalnetManifest;

/** A `wager-keeper localnet ARGS` process, its stdout read line by line. */
function spawnLocalnet(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, 'localnet', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let consumed = 0;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    waiters.splice(0).forEach((wake) => wake());
  });
  /** The next stdout line not yet consumed, or an error after `ms`. */
  async function nextLine(ms: number): Promise<string> {
    const deadline = Date.now() + ms;
    while (consumed >= lines.length) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no stdout line within ${ms} ms; stderr: ${stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return lines[consumed++]!;
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, nextLine, exited, kill: () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL') };
}

/** Runs another wager-keeper command to completion. */
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Whether nothing listens on 127.0.0.1:`port` any more (binding it succeeds). */
async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (free) await new Promise<void>((resolve) => server.close(() => resolve()));
  return free;
}

const portOf = (url: string) => Number(new URL(url).port);

/** Sends the signal, then expects {"event":"stopped"}, exit code 0, and both ports free again. */
async function expectCleanStop(process: ReturnType<typeof spawnLocalnet>, ready: Ready, signal: 'SIGINT' | 'SIGTERM') {
  process.child.kill(signal);
  expect(JSON.parse(await process.nextLine(10_000))).toEqual({ event: 'stopped' });
  expect(await process.exited).toBe(0);
  await expect(fetch(ready.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  expect(await portIsFree(portOf(ready.rpcUrl))).toBe(true);
  expect(await portIsFree(portOf(ready.wsUrl))).toBe(true);
}

// What a keeper does to request randomness, done by hand so the oracle's behaviour shows over RPC.
async function readWager(rpc: ReturnType<typeof createSolanaRpc>, wager: Address): Promise<Wager> {
  const { value } = await rpc.getAccountInfo(wager, { encoding: 'base64' }).send();
  if (!value) throw new Error(`no wager at ${wager}`);
  return getWagerDecoder().decode(getBase64Encoder().encode(value.data[0]));
}

async function readSlotHashes(rpc: ReturnType<typeof createSolanaRpc>): Promise<SlotHash[]> {
  const { value } = await rpc.getAccountInfo(SLOT_HASHES_SYSVAR, { encoding: 'base64' }).send();
  const data = getBase64Encoder().encode(value!.data[0]);
  const u64 = getU64Decoder();
  return Array.from({ length: Number(u64.decode(data, 0)) }, (_, i) => {
    const offset = 8 + i * 40;
    return { slot: u64.decode(data, offset), hash: getBase58Decoder().decode(data.subarray(offset + 8, offset + 40)) };
  });
}

/** Opens a wager with `wager-keeper open` and requests its randomness as `caller`, from open + 2. */
async function openAndRequest(ready: Ready, caller: KeyPairSigner) {
  const rpc = createSolanaRpc(ready.rpcUrl);
  const open = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00');
  expect(open.code, open.stderr).toBe(0);
  const wager = address((JSON.parse(open.stdout) as { wager: string }).wager);
  const opened = await readWager(rpc, wager);
  await eventually(async () => ((await rpc.getSlot().send()) >= opened.openSlot + 2n ? true : undefined), 30_000, 'open + 2');
  const { instruction, oracleRequest } = await getRequestRandomnessForWager({
    caller,
    wagerAddress: wager,
    wager: opened,
    oracle: { programAddress: address(ready.programs.oracle), networkState: address(ready.oracle.networkState), treasury: address(ready.oracle.treasury) },
    slotHashes: await readSlotHashes(rpc),
    programAddress: address(ready.programs.wager),
  });
  const { wire } = await signInstructions(rpc, caller, [instruction]);
  const requestSignature = await sendWire(rpc, wire);
  const requestSlot = (await rpc.getSignatureStatuses([requestSignature]).send()).value[0]!.slot;
  return { wager, oracleRequest, requestSignature, requestSlot };
}

async function requestState(ready: Ready, oracleRequest: Address) {
  const { value } = await createSolanaRpc(ready.rpcUrl).getAccountInfo(oracleRequest, { encoding: 'base64' }).send();
  return getRandomnessV2Decoder().decode(getBase64Encoder().encode(value!.data[0])).request.__kind;
}

describe('wager-keeper localnet', () => {
  let dir: string;
  let manifestPath: string;
  let localnet: ReturnType<typeof spawnLocalnet>;
  let ready: Ready;
  let readyAfterMs: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wager-keeper-localnet-'));
    manifestPath = join(dir, 'manifest.json');
    const started = Date.now();
    localnet = spawnLocalnet(['--rpc-port', '0', '--manifest', manifestPath]);
    ready = JSON.parse(await localnet.nextLine(READY_WITHIN_MS + 20_000)) as Ready;
    readyAfterMs = Date.now() - started;
  });

  afterAll(() => {
    localnet?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`prints {"event":"ready"} with its endpoints and programs as its first line, within ${READY_WITHIN_MS / 1000} s`, () => {
    expect(readyAfterMs).toBeLessThan(READY_WITHIN_MS);
    expect(ready.event).toBe('ready');
    expect(ready.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    // --rpc-port 0: both ports are free ones picked at start, not 8899/8900.
    expect(ready.rpcUrl).not.toMatch(/:8899$/);
    expect(ready.wsUrl).not.toBe(ready.rpcUrl.replace('http', 'ws'));
    expect(Object.keys(ready.programs).sort()).toEqual(['oracle', 'wager']);
    expect(ready.paytables.map((p) => p.name)).toEqual(['coin-flip', 'dice', 'wheel']);
  });

  it('writes the same manifest to --manifest, readable by its owner only', () => {
    const { event, ...manifest } = ready;
    expect(event).toBe('ready');
    expect(JSON.parse(readFileSync(manifestPath, 'utf8'))).toEqual(manifest);
    expect(statSync(manifestPath).mode & 0o777).toBe(0o600);
  });

  it('serves JSON-RPC on the printed URL', async () => {
    const rpc = createSolanaRpc(ready.rpcUrl);
    expect(await rpc.getHealth().send()).toBe('ok');
    const { value } = await rpc.getAccountInfo(address(ready.programs.wager), { encoding: 'base64' }).send();
    expect(value?.executable).toBe(true);
  });

  it('opens a wager with `wager-keeper open` that then exists on chain', async () => {
    const open = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00');
    expect(open.code, open.stderr).toBe(0);
    const { wager } = JSON.parse(open.stdout) as { wager: string };
    const rpc = createSolanaRpc(ready.rpcUrl);
    const { value } = await rpc.getAccountInfo(address(wager), { encoding: 'base64' }).send();
    expect(value?.owner).toBe(ready.programs.wager);
    const record = getWagerDecoder().decode(getBase64Encoder().encode(value!.data[0]));
    expect(record).toMatchObject({ status: WagerStatus.Open, stake: 1_000_000n, integratorAuthority: ready.devKeys.app.address });
  });

  it('`open --beneficiary WALLET` pays out to the wallet’s USDC account, created in the same transaction; a USDC token account is used as is', async () => {
    const rpc = createSolanaRpc(ready.rpcUrl);
    const usdcMint = address(ready.usdcMint);
    // A wallet nothing was ever sent to: no account at all yet.
    const wallet = address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
    const [walletUsdc] = await findAssociatedTokenPda({ mint: usdcMint, owner: wallet, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect((await rpc.getAccountInfo(walletUsdc, { encoding: 'base64' }).send()).value).toBeNull();

    const toWallet = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'dice', '--amount', '1.00', '--beneficiary', wallet);
    expect(toWallet.code, toWallet.stderr).toBe(0);
    const first = JSON.parse(toWallet.stdout) as { wager: string; beneficiary: string };
    expect(first.beneficiary).toBe(walletUsdc);
    expect((await readWager(rpc, address(first.wager))).beneficiary).toBe(walletUsdc);
    const created = (await rpc.getAccountInfo(walletUsdc, { encoding: 'base64' }).send()).value!;
    expect(created.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(getTokenDecoder().decode(getBase64Encoder().encode(created.data[0]))).toMatchObject({ mint: usdcMint, owner: wallet });

    // The same wallet again (its account exists now: creation is idempotent), and the token account itself.
    for (const beneficiary of [wallet, walletUsdc]) {
      const again = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'dice', '--amount', '1.00', '--beneficiary', beneficiary);
      expect(again.code, again.stderr).toBe(0);
      const { wager, beneficiary: used } = JSON.parse(again.stdout) as { wager: string; beneficiary: string };
      expect(used).toBe(walletUsdc);
      expect((await readWager(rpc, address(wager))).beneficiary).toBe(walletUsdc);
    }
  });

  it('`open --beneficiary` refuses an account that is neither a wallet nor a USDC token account (exit 1, says why)', () => {
    const mint = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'dice', '--amount', '1.00', '--beneficiary', ready.usdcMint);
    expect(mint.code).toBe(1);
    expect(mint.stderr).toMatch(/not a token account/);
    const program = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'dice', '--amount', '1.00', '--beneficiary', ready.paytables[0]!.address);
    expect(program.code).toBe(1);
    expect(program.stderr).toMatch(/is an account of program .*: give a wallet or a USDC token account/);
  });

  it('`open` with a stake the pool cannot back says why: the program refuses it with perWagerCap (exit 1)', () => {
    const tooBig = cli('open', '--rpc', ready.rpcUrl, '--paytable', 'coin-flip', '--amount', '99999');
    expect(tooBig.code).toBe(1);
    // The code for scripts, then the sentence with the next step for people, on one line.
    expect(tooBig.stderr).toMatch(/the wager was not opened: perWagerCap\. The wager's largest payout is more than the pool may risk on one wager now: try a smaller stake/);
  });

  it('`wager-keeper oracle stall|status|resume` stalls and resumes the running oracle, printing one JSON line each', () => {
    const oracle = (action: string) => {
      const result = cli('oracle', action, '--rpc', ready.rpcUrl);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      return JSON.parse(result.stdout) as { stalled: boolean; pending: number };
    };
    expect(oracle('status')).toEqual({ stalled: false, pending: 0 });
    expect(oracle('stall')).toEqual({ stalled: true, pending: 0 });
    expect(oracle('status')).toEqual({ stalled: true, pending: 0 });
    expect(oracle('resume')).toEqual({ stalled: false, pending: 0 });
  });

  it('`wager-keeper oracle` against something that is not a localnet fails with exit 1 and says so', () => {
    const result = cli('oracle', 'status', '--rpc', 'http://127.0.0.1:1');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a reachable wager-keeper localnet/);
  });

  it('prints {"event":"stopped"}, exits 0 and frees its ports on SIGTERM', async () => {
    await expectCleanStop(localnet, ready, 'SIGTERM');
  });
});

describe('wager-keeper localnet --slot-ms 50 --oracle-delay-slots 8 --oracle-stalled', () => {
  const SLOT_MS = 50;
  const DELAY = 8;
  let localnet: ReturnType<typeof spawnLocalnet>;
  let ready: Ready;
  let keeper: KeyPairSigner;

  beforeAll(async () => {
    localnet = spawnLocalnet(['--rpc-port', '0', '--slot-ms', String(SLOT_MS), '--oracle-delay-slots', String(DELAY), '--oracle-stalled']);
    ready = JSON.parse(await localnet.nextLine(READY_WITHIN_MS + 20_000)) as Ready;
    keeper = await keypairFromBytes(ready.devKeys.keeper.keypair);
  });

  afterAll(() => localnet?.kill());

  it('runs its slot clock at --slot-ms: many more slots a second than the default 400 ms would give', async () => {
    expect(ready.slotMs).toBe(SLOT_MS);
    const rpc = createSolanaRpc(ready.rpcUrl);
    const [slot0, t0] = [await rpc.getSlot().send(), Date.now()];
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const [slot1, t1] = [await rpc.getSlot().send(), Date.now()];
    // 400 ms slots would give at most elapsed / 400 + 1; 50 ms slots about eight times that.
    expect(Number(slot1 - slot0)).toBeGreaterThan(3 * ((t1 - t0) / 400 + 1));
  });

  it('starts with the oracle stalled: a request stays pending over many slots, until `wager-keeper oracle resume`', async () => {
    const rpc = createSolanaRpc(ready.rpcUrl);
    const { oracleRequest, requestSlot } = await openAndRequest(ready, keeper);
    await eventually(async () => ((await rpc.getSlot().send()) >= requestSlot + BigInt(3 * DELAY) ? true : undefined), 30_000, 'slots to pass');
    expect(await requestState(ready, oracleRequest)).toBe('Pending');
    const status = cli('oracle', 'status', '--rpc', ready.rpcUrl);
    expect(JSON.parse(status.stdout)).toEqual({ stalled: true, pending: 1 });

    const resumed = cli('oracle', 'resume', '--rpc', ready.rpcUrl);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ stalled: false });
    await eventually(async () => ((await requestState(ready, oracleRequest)) === 'Fulfilled' ? true : undefined), 30_000, 'the fulfilment after resume');
  });

  // The oracle runs again since the previous test resumed it.
  it('fulfils a request --oracle-delay-slots slots after it landed, not the default 1', async () => {
    const rpc = createSolanaRpc(ready.rpcUrl);
    const { oracleRequest, requestSignature, requestSlot } = await openAndRequest(ready, keeper);
    await eventually(async () => ((await requestState(ready, oracleRequest)) === 'Fulfilled' ? true : undefined), 30_000, 'the fulfilment');
    const signatures = await rpc.getSignaturesForAddress(oracleRequest).send();
    const fulfilment = signatures.find((entry) => entry.signature !== requestSignature);
    expect(fulfilment, signatures.map((entry) => `${entry.signature}@${entry.slot}`).join(', ')).toBeDefined();
    expect(fulfilment!.slot - requestSlot).toBeGreaterThanOrEqual(BigInt(DELAY));
  });

  it('prints {"event":"stopped"}, exits 0 and frees its ports on SIGINT (Ctrl-C)', async () => {
    await expectCleanStop(localnet, ready, 'SIGINT');
  });
});
