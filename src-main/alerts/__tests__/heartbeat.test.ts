/**
 * The dead man's switch against a real HTTP receiver on loopback, with a readiness the test flips: pings
 * while ready, none while not, pings again after; a monitor that fails or hangs is shown failing and
 * logged without its secret. Periods of 50 ms; the test waits for beats (onBeat), never for time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Readiness } from '../../../src-shared/alert-types';
import { startMonitorReceiver, type MonitorReceiver } from './monitor-receiver';
import { createHeartbeat, type Heartbeat, type HeartbeatBeat, type HeartbeatView } from '../heartbeat';

const SECRET = '0f8a3c2e-1d4b-4e7a-9c1f-2b3d4e5f6a7b';

let receiver: MonitorReceiver;
let base: string;
let pings: string[];
beforeAll(async () => {
  receiver = await startMonitorReceiver();
  ({ base, pings } = receiver);
});
afterAll(async () => {
  await receiver.close();
});

let heartbeat: Heartbeat | undefined;
afterEach(() => heartbeat?.stop());

/** A heartbeat at `url` every 50 ms whose readiness is `state.readiness`, recording logs and beats. */
function startHeartbeat(url: string, timeoutMs?: number) {
  const state = { readiness: { ready: true, reasons: [] } as Readiness };
  const logs: { level: string; fields: object; message: string }[] = [];
  const waiters: { beat: HeartbeatBeat; left: number; resolve: (view: HeartbeatView | null) => void }[] = [];
  const log = {
    info: (fields: object, message: string) => logs.push({ level: 'info', fields, message }),
    warn: (fields: object, message: string) => logs.push({ level: 'warn', fields, message }),
  };
  heartbeat = createHeartbeat({
    config: () => ({ url, everySeconds: 0.05 }),
    readiness: () => state.readiness,
    log: log as never,
    timeoutMs,
    onBeat(beat, view) {
      for (const waiter of [...waiters])
        if (waiter.beat === beat && --waiter.left === 0) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(view);
        }
    },
  });
  heartbeat.start();
  /** Resolves after `count` more beats of kind `beat`. */
  const beats = (beat: HeartbeatBeat, count: number) =>
    new Promise<HeartbeatView | null>((resolve) => waiters.push({ beat, left: count, resolve }));
  return { state, logs, beats };
}

describe('heartbeat', () => {
  it('pings while ready, none while not ready, and pings again once ready', async () => {
    const path = `/ping/${SECRET}`;
    const { state, beats } = startHeartbeat(`${base}${path}`);
    const sent = pings.filter((ping) => ping === `GET ${path}`).length;
    const whileReady = await beats('sent', 3);
    expect(pings.filter((ping) => ping === `GET ${path}`).length).toBeGreaterThanOrEqual(sent + 3);
    expect(whileReady).toMatchObject({ state: 'pinging', lastError: null, label: `${base}/ping/***` });

    state.readiness = { ready: false, reasons: ['rpc-failing: the RPC has failed for 42 s (fetch failed)'] };
    // Beats run one after another: after the first notReady beat no ping is in flight any more.
    await beats('notReady', 1);
    const before = pings.length;
    const whileNotReady = await beats('notReady', 4);
    expect(pings.length).toBe(before);
    expect(whileNotReady).toMatchObject({
      state: 'notReady',
      notReadyReasons: ['rpc-failing: the RPC has failed for 42 s (fetch failed)'],
    });
    expect(heartbeat!.view()?.state).toBe('notReady');

    state.readiness = { ready: true, reasons: [] };
    const resumed = await beats('sent', 2);
    expect(pings.length).toBeGreaterThanOrEqual(before + 2);
    expect(resumed).toMatchObject({ state: 'pinging', notReadyReasons: [] });
  });

  it('shows a monitor that answers an error or does not answer as failing, and logs it once without the secret', async () => {
    const failing = startHeartbeat(`${base}/fail/${SECRET}`);
    const view = await failing.beats('failed', 3);
    expect(view).toMatchObject({ state: 'failing', lastPingAt: null });
    expect(view?.lastError).toMatch(/HTTP 500: check the heartbeat URL/);
    const warnings = failing.logs.filter((entry) => entry.message === 'heartbeat ping failed');
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(failing.logs)).not.toContain(SECRET);
    heartbeat!.stop();

    const hanging = startHeartbeat(`${base}/hang/${SECRET}`, 30);
    const timedOut = await hanging.beats('failed', 1);
    expect(timedOut?.lastError).toMatch(/no answer within 0.03 s/);
    expect(JSON.stringify(hanging.logs)).not.toContain(SECRET);
  });

  it('starts pinging within a second of a URL being saved, and a new URL replaces a long period at once', async () => {
    const config: { current: { url: string; everySeconds: number } | null } = { current: null };
    const sent: HeartbeatView[] = [];
    let offBeats = 0;
    let nextSent: (() => void) | undefined;
    heartbeat = createHeartbeat({
      config: () => config.current,
      readiness: () => ({ ready: true, reasons: [] }),
      log: { info: () => {}, warn: () => {} } as never,
      onBeat(beat, view) {
        if (beat === 'off') offBeats++;
        if (beat !== 'sent') return;
        sent.push({ ...view! });
        nextSent?.();
      },
    });
    const sentBeat = () => new Promise<void>((resolve) => (nextSent = resolve));
    heartbeat.start();
    await expect.poll(() => offBeats).toBe(1);
    // Saved while it waits out the no-URL period (30 s): pinged within a second, not after it.
    config.current = { url: `${base}/ping/first`, everySeconds: 3_600 };
    await sentBeat();
    expect(pings).toContain('GET /ping/first');
    // A new URL while waiting out an hour's period: pinged at once too.
    config.current = { url: `${base}/ping/second`, everySeconds: 3_600 };
    await sentBeat();
    expect(pings).toContain('GET /ping/second');
    expect(sent.map((view) => view.state)).toEqual(['pinging', 'pinging']);
  }, 5_000);
});
