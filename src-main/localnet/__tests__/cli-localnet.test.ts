/**
 * `wager-keeper localnet` as a person runs it: it prints one `ready` line with the endpoints, writes the
 * manifest, serves `wager-keeper open`, and stops cleanly on SIGTERM.
 */
import { address, createSolanaRpc, getBase64Encoder } from '@solana/kit';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWagerDecoder, WagerStatus } from '../../protocol/wager';
import type { LocalnetManifest } from '../localnet';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const READY_WITHIN_MS = 10_000;

let dir: string;
let manifestPath: string;
let child: ChildProcessWithoutNullStreams;
let stderr = '';
const lines: string[] = [];
const waiters: (() => void)[] = [];

/** The next stdout line not yet consumed, or an error after `ms`. */
let consumed = 0;
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

let ready: { event: string } & LocalnetManifest;
let readyAfterMs: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wager-keeper-localnet-'));
  manifestPath = join(dir, 'manifest.json');
  const started = Date.now();
  child = spawn(process.execPath, [bin, 'localnet', '--rpc-port', '0', '--manifest', manifestPath], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    waiters.splice(0).forEach((wake) => wake());
  });
  ready = JSON.parse(await nextLine(READY_WITHIN_MS + 20_000)) as typeof ready;
  readyAfterMs = Date.now() - started;
});

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('wager-keeper localnet', () => {
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
    const open = spawnSync(process.execPath, [bin, 'open', '--rpc', ready.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(open.status, open.stderr).toBe(0);
    const { wager } = JSON.parse(open.stdout) as { wager: string };
    const rpc = createSolanaRpc(ready.rpcUrl);
    const { value } = await rpc.getAccountInfo(address(wager), { encoding: 'base64' }).send();
    expect(value?.owner).toBe(ready.programs.wager);
    const record = getWagerDecoder().decode(getBase64Encoder().encode(value!.data[0]));
    expect(record).toMatchObject({ status: WagerStatus.Open, stake: 1_000_000n, integratorAuthority: ready.devKeys.app.address });
  });

  it('prints {"event":"stopped"} and exits 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(JSON.parse(await nextLine(10_000))).toEqual({ event: 'stopped' });
    expect(await exited).toBe(0);
    await expect(fetch(ready.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
