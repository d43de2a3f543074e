import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');
const run = promisify(execFile);

interface Ready {
  event: 'ready';
  api: string;
  rpcUrl: string;
  keeper: string;
  manifest: { paytables: { name: string }[]; programs: { wager: string; oracle: string } };
}

let child: ChildProcess;
let ready: Ready;

beforeAll(async () => {
  child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rpc-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  if (!first) throw new Error('serve exited before it was ready');
  ready = JSON.parse(first) as Ready;
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

const post = (path: string, body: unknown) =>
  fetch(`${ready.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('wager-keeper serve: the whole service on one machine', () => {
  it('prints one ready line with the API, the RPC and the localnet manifest', () => {
    expect(ready).toMatchObject({ event: 'ready', api: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), rpcUrl: expect.stringMatching(/^http:\/\//) });
    expect(ready.manifest.paytables.map((p) => p.name)).toEqual(['coin-flip', 'dice', 'wheel']);
  });

  it('takes a wager opened by an app, settles it, and reports it through /v1', async () => {
    const { stdout } = await run(process.execPath, [bin, 'open', '--rpc', ready.rpcUrl, '--paytable', 'coin-flip', '--amount', '1.00']);
    const { wager } = JSON.parse(stdout) as { wager: string };
    const posted = await post('/v1/wagers', { wager });
    expect([posted.status, await posted.json()]).toEqual([202, { status: 'queued' }]);

    let record: { state: string; bucket?: number; payout?: string; settleSignature?: string } = { state: 'queued' };
    for (let i = 0; i < 100 && record.state !== 'settled'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      record = (await (await fetch(`${ready.api}/v1/wagers/${wager}`)).json()) as typeof record;
    }
    expect(record.state).toBe('settled');
    expect([0, 1]).toContain(record.bucket);
    expect(record.payout).toBe(record.bucket === 1 ? '1960000' : '0');
    expect(record.settleSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

    const health = (await (await fetch(`${ready.api}/v1/health`)).json()) as { keeper: string; queue: number; lastTick: number };
    expect(health.keeper).toBe(ready.keeper);
    expect(Date.now() - health.lastTick).toBeLessThan(5_000);
  });

  it('serves the faucet on its own localnet', async () => {
    const status = (await (await fetch(`${ready.api}/v1/faucet`)).json()) as { usdc: string; perDay: number };
    expect(status.usdc).toBe('1000000000');
    const claim = await post('/v1/faucet', { owner: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' });
    expect(claim.status).toBe(200);
    expect(await claim.json()).toMatchObject({ usdc: '1000000000', sol: '10000000' });
  });

  it('stops cleanly on SIGTERM', async () => {
    const lines = createInterface({ input: child.stdout! });
    const stopped = once(lines, 'line');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    expect(JSON.parse(((await stopped) as [string])[0])).toMatchObject({ event: 'stopped', signal: 'SIGTERM' });
  });
});
