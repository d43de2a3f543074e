/**
 * The console's core as the UI meets it, over the headless transport (real HTTP and SSE on loopback,
 * the embedded localnet, the keeper, SQLite, conf settings in a temp directory): the token guards every
 * call, live events arrive, pause is saved and survives a restart, a bad RPC is refused while the keeper
 * keeps running, the steps the keeper booked are read back once each, and a switch to a second localnet
 * restarts the keeper without restarting the host.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { openHeadlessSettings } from '../../runtime/console-settings';
import { createOperatorService, type OperatorService } from '../operator-service';
import type { OperatorFlags } from '../../runtime/operator-options';
import type { OperatorEvent } from '../../../src-shared/contract/events';
import type { StatusView } from '../../../src-shared/contract/status';
import type { StepView } from '../../../src-shared/contract/activity';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

let settingsDir: string;
let uiDirectory: string;
let service: OperatorService;
let base: string;
let token: string;

const startService = async (flags: OperatorFlags = {}, settingsFolder = settingsDir) => {
  const started = createOperatorService({
    host: 'headless',
    settings: openHeadlessSettings(settingsFolder),
    dataDir: tempDir('wk-data-'),
    flags: { embeddedRpcPort: 0, apiPort: 0, embeddedSlotMs: 100, ...flags },
    console: { uiDirectory },
    failFast: true,
  });
  await started.start();
  return started;
};

const call = async (method: string, body: unknown = {}, auth = `Bearer ${token}`) =>
  fetch(`${base}/operator/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  settingsDir = tempDir('wk-settings-');
  uiDirectory = tempDir('wk-ui-');
  writeFileSync(join(uiDirectory, 'index.html'), '<!doctype html><title>Wager Keeper</title><!--first-paint:glance--><code><!--first-paint:keeper--></code>');
  service = await startService();
  const consoleUrl = new URL(service.describe().consoleUrl!);
  base = consoleUrl.origin;
  token = new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!;
}, 120_000);

afterAll(async () => {
  await service?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the operator API of a headless console', () => {
  it('serves the UI with a strict CSP and prints a console URL that carries the token', async () => {
    const page = await fetch(`${base}/console/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Wager Keeper');
    // The first paint: the keeper's address in the page itself (console-first-paint.ts), no token needed for it.
    expect(html).toContain(`<code>${service.describe().keeper}</code>`);
    expect(html).toContain('"cluster":{"name":"localnet","embedded":true}');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(token.length).toBeGreaterThanOrEqual(32);
  });

  it('answers 401 JSON without the token or with a wrong one, and never sends CORS headers', async () => {
    for (const auth of ['', 'Bearer nope', `Basic ${token}`]) {
      const response = await call('status', {}, auth);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: string }).error).toMatch(/token/);
    }
    const withOrigin = await fetch(`${base}/operator/api/status`, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' } });
    expect(withOrigin.status).toBe(200);
    expect(withOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${base}/operator/events`)).status).toBe(401);
  });

  it('reports the embedded localnet, its funded dev keeper key, and names bad calls', async () => {
    const status = (await (await call('status')).json()) as StatusView;
    expect(status).toMatchObject({ phase: 'running', host: 'headless', paused: false, faucet: true });
    expect(status.cluster).toMatchObject({ name: 'localnet', embedded: true, wagerKeeperLocalnet: true });
    expect(status.keeper).toMatchObject({ address: service.describe().keeper, keySource: 'localnet dev key' });
    expect(status.demo).toMatchObject({ available: true, enabled: true });

    const unknown = await call('deleteEverything');
    expect(unknown.status).toBe(404);
    const bad = await call('saveSettings', { changes: { maxInFlight: 0 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/maxInFlight must be .*from 1/);
  });

  it('pushes live events over SSE: status first, then wager records as the demo app opens wagers', async () => {
    const abort = new AbortController();
    const response = await fetch(`${base}/operator/events?token=${token}`, { signal: abort.signal });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const seen: OperatorEvent['type'][] = [];
    let buffer = '';
    while (!seen.includes('records')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      for (const match of buffer.matchAll(/^data: (.+)$/gm)) seen.push((JSON.parse(match[1]!) as OperatorEvent).type);
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    }
    abort.abort();
    expect(seen[0]).toBe('status');
    expect(seen).toContain('records');
  });

  it('reads the steps the keeper booked itself: each pushed step once in recentSteps, and counted in cranks today', async () => {
    const pushed: StepView[] = [];
    const unsubscribe = service.onEvent((event) => event.type === 'steps' && pushed.push(...event.steps));
    try {
      const landed = (steps: StepView[]) => steps.filter((step) => step.outcome === 'landed' && step.signature !== null);
      for (let i = 0; i < 600 && landed(pushed).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(landed(pushed).length, 'the demo app\'s wagers cranked').toBeGreaterThanOrEqual(2);
      const read = await service.api.recentSteps({ limit: 1_000 });
      for (const step of landed(pushed)) {
        const rows = read.filter((row) => row.signature === step.signature);
        expect(rows.map(({ wager, step: name, outcome }) => ({ wager, step: name, outcome })), `${step.step} ${step.signature}`).toEqual([{ wager: step.wager, step: step.step, outcome: 'landed' }]);
      }
      const { cranksToday } = await service.api.overview({ dayStartMs: 0 });
      expect(cranksToday.landed).toBe(landed(read).length);
    } finally {
      unsubscribe();
    }
  });

  it('refuses to switch to an RPC it cannot reach, and the keeper keeps running', async () => {
    const before = (await (await call('status')).json()) as StatusView;
    const response = await call('saveSettings', { changes: { cluster: { kind: 'rpc', rpcUrl: 'http://127.0.0.1:1', wsUrl: null } } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/cannot reach the RPC at http:\/\/127\.0\.0\.1:1.*Nothing was changed/);
    const after = (await (await call('status')).json()) as StatusView;
    expect(after.phase).toBe('running');
    expect(after.cluster?.rpcUrl).toBe(before.cluster?.rpcUrl);
    const test = (await (await call('testConnection', { rpcUrl: 'not a url' })).json()) as { ok: boolean; error: string };
    expect(test).toMatchObject({ ok: false, error: expect.stringMatching(/is not a URL/) });
  });

  it('saves a pause, and a restarted console starts paused', async () => {
    const paused = (await (await call('setPaused', { paused: true })).json()) as StatusView;
    expect(paused.paused).toBe(true);
    expect(openHeadlessSettings(settingsDir).store.paused).toBe(true);
    await service.stop();
    service = await startService();
    const consoleUrl = new URL(service.describe().consoleUrl!);
    base = consoleUrl.origin;
    token = new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!;
    expect(((await (await call('status')).json()) as StatusView).paused).toBe(true);
    await call('setPaused', { paused: false });
    expect(openHeadlessSettings(settingsDir).store.paused).toBe(false);
  });

  it("a --shard flag wins over Settings → Fleet's shard for the run, also when the keeper restarts", async () => {
    const folder = tempDir('wk-settings-');
    openHeadlessSettings(folder).set({ shard: '0/2' });
    const flagged = await startService({ shard: { index: 1, count: 3, takeoverSlots: 30 } }, folder);
    try {
      expect((await flagged.api.status()).keeper?.shard).toBe('1/3');
      // A loop option saved: the keeper restarts, with the flag's shard still.
      expect((await flagged.api.saveSettings({ changes: { maxInFlight: 3 } })).restarted).toBe(true);
      expect((await flagged.api.status()).phase).toBe('running');
      expect((await flagged.api.status()).keeper?.shard).toBe('1/3');
    } finally {
      await flagged.stop();
    }
    const unflagged = await startService({}, folder);
    try {
      expect((await unflagged.api.status()).keeper?.shard).toBe('0/2');
    } finally {
      await unflagged.stop();
    }
  });

  it('switches to a second localnet without restarting the host: new cluster, its keeper, same /v1 listener', async () => {
    let second: Localnet | undefined;
    try {
      second = await startLocalnet({ rpcPort: 0 });
      const statuses: StatusView[] = [];
      const unsubscribe = service.onEvent((event) => event.type === 'status' && statuses.push(event.status));
      const response = await call('saveSettings', { changes: { cluster: { kind: 'rpc', rpcUrl: second.rpcUrl, wsUrl: second.wsUrl } } });
      unsubscribe();
      expect(response.status).toBe(200);
      expect(((await response.json()) as { restarted: boolean }).restarted).toBe(true);
      const status = (await (await call('status')).json()) as StatusView;
      expect(status).toMatchObject({ phase: 'running', cluster: { rpcUrl: second.rpcUrl, name: 'localnet', embedded: false } });
      expect(status.keeper?.address).toBe(second.manifest.devKeys.keeper.address);
      expect(statuses.map((s) => s.phase)).toContain('starting');
      const health = (await (await fetch(`${base}/v1/health`)).json()) as { keeper: string };
      expect(health.keeper).toBe(second.manifest.devKeys.keeper.address);
    } finally {
      await service.stop();
      await second?.stop();
      service = await startService();
    }
  });
});
