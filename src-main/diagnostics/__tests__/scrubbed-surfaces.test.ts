/**
 * The ways out that are not HTTP answers (issue 33, item 1): a webhook channel, a desktop notification, the
 * tray's tooltip and the metric labels get a secret that slipped into a message, and pass it on masked.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { AlertChannel, AlertMessage } from '../../../src-shared/alert-types';
import { createAlertDispatcher } from '../../alerts/channels/dispatcher';
import { createNotifier } from '../../electron/notifications';
import type { DesktopLog, Electron } from '../../electron/electron-api';
import { keeperState } from '../../electron/tray';
import type { Keeper } from '../../keeper/keeper';
import { createKeeperMetrics } from '../../metrics/metrics';
import type { HealthView, StatusView } from '../../../src-shared/contract/status';

const KEY = 'SurfaceKeyPlanted8Rq';
const quietLog: DesktopLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const rawUrl = `https://user:${KEY}@rpc.example.com/${KEY}?api-key=${KEY}`;

describe('surfaces that are not HTTP answers', () => {
  it('a webhook channel gets the alert message scrubbed, at any depth', async () => {
    const sent: AlertMessage[] = [];
    const channel: AlertChannel = { id: 'json-1', kind: 'json', label: 'https://hooks.example/***', send: async (message) => void sent.push(message) };
    const dispatcher = createAlertDispatcher({ channels: [channel], log: { warn: () => undefined } });
    const message: AlertMessage = {
      alert: 'rpc-failing',
      state: 'firing',
      severity: 'critical',
      summary: `The RPC has not answered for 35 s (${rawUrl}: fetch failed): check the node.`,
      keeper: null,
      cluster: 'custom',
      at: new Date().toISOString(),
    };
    await dispatcher.sendNow(message);
    dispatcher.deliver(message);
    await expect.poll(() => sent.length).toBe(2);
    for (const got of sent) {
      expect(JSON.stringify(got)).not.toContain(KEY);
      expect(got.summary).toContain('https://rpc.example.com/***?api-key=***: fetch failed');
    }
  });

  it('a desktop notification and the tray tooltip show the message masked', () => {
    const shown: { title: string; body: string }[] = [];
    class FakeNotification extends EventEmitter {
      constructor(readonly options: { title: string; body: string }) {
        super();
      }
      static isSupported = () => true;
      show() {
        shown.push(this.options);
      }
    }
    const notify = createNotifier({ Notification: FakeNotification } as unknown as Pick<Electron, 'Notification'>, quietLog);
    notify({ title: `Critical: RPC ${rawUrl}`, body: `The RPC has not answered (${rawUrl}: fetch failed)` });
    expect(JSON.stringify(shown)).not.toContain(KEY);
    expect(shown[0]!.body).toContain('https://rpc.example.com/***?api-key=***');

    const status = { phase: 'running', paused: false } as StatusView;
    const health = { rpcError: `${rawUrl}: fetch failed` } as HealthView;
    const tray = keeperState(status, health);
    expect(tray.state).toBe('needs attention');
    expect(tray.detail).not.toContain(KEY);
    expect(tray.detail).toBe('the RPC does not answer: https://rpc.example.com/***?api-key=***: fetch failed');
  });

  it('metric labels name a fleet member and an endpoint without their tokens', async () => {
    const registry = createKeeperMetrics({ events: new EventEmitter() } as unknown as Keeper, undefined, async () => ({
      rpcLatencyMs: 1,
      oracleWait: null,
      newWagersPaused: null,
      fleetMembers: [{ url: `http://10.0.0.2:7300/member-${KEY}`, shard: null, silent: false }],
      rpcEndpoints: [{ label: rawUrl, role: 'read', inUse: true, healthy: false }],
    }));
    const text = await registry.metrics();
    expect(text).not.toContain(KEY);
    expect(text).toContain('member="http://10.0.0.2:7300/***"');
    expect(text).toContain('endpoint="https://rpc.example.com/***?api-key=***"');
  });
});
