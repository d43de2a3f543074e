/**
 * The alert service in the operator service: a muted alert is recorded and delivered to no channel, yet the
 * console still gets its `alert` event (marked muted, so the desktop host shows no notification), so the
 * Alerts screen's history and active list refresh at once. Real alerts.db in a temporary folder; the
 * keeper and its health are stand-ins; time is an injected clock.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS, type AlertMessage } from '../../../src-shared/alert-types';
import type { KeeperEvents } from '../../keeper/keeper-events';
import { createAlertService, emptyAlertChannels, type AlertService } from '../alerts-service';
import type { KeeperControl } from '../../runtime/keeper-control';
import type { ConsoleSettings } from '../../../src-shared/contract/settings';
import type { FleetMemberView } from '../../../src-shared/contract/fleet';
import type { HealthView } from '../../../src-shared/contract/status';
import type { OperatorEvent } from '../../../src-shared/contract/events';
import type { ResolvedOperatorOptions } from '../../runtime/operator-options';

let dir: string | undefined;
let service: AlertService | undefined;
afterEach(async () => {
  service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The service over a stand-in keeper whose balance and fleet the test sets, on a real alerts.db, with `now` as its clock. */
async function startService(stand: {
  now: () => number;
  lamports: () => bigint;
  fleet?: () => FleetMemberView[];
  debounceSeconds?: number;
}) {
  dir = await mkdtemp(join(tmpdir(), 'alert-service-'));
  const { now } = stand;
  const health = async (): Promise<HealthView> => ({
    lamports: String(stand.lamports()),
    lastTick: now(),
    queue: 0,
    rpcError: null,
    slot: 1_000,
    rpcLatencyMs: 5,
    checkedAt: now(),
    runway: { lamportsPerCrank: 5_000, cranks: Number(stand.lamports() / 5_000n), low: false },
    oracleWait: { waiting: 0, oldestWaitSlots: null },
    overdue: [],
  });
  const control = {
    chain: undefined,
    keeperSide: {
      core: {
        keeper: { address: 'Keeper1111111111111111111111111111111111111', records: { byState: () => [] } },
      },
    },
    health,
    status: () => ({ startedAt: now() }),
  } as unknown as KeeperControl;
  const settings = {
    store: {
      alertThresholds: { ...DEFAULT_ALERT_THRESHOLDS, debounceSeconds: stand.debounceSeconds ?? 0 },
    } as ConsoleSettings,
    set: () => undefined,
  };
  const delivered: AlertMessage[] = [];
  const events: OperatorEvent[] = [];
  service = createAlertService(
    control,
    {
      flags: {},
      settings,
      dataDir: dir,
      log: { warn: vi.fn(), info: vi.fn() } as unknown as ResolvedOperatorOptions['log'],
    },
    {
      emit: (event) => events.push(event),
      keeperEvents: new EventEmitter<KeeperEvents>(),
      fleet: async () => stand.fleet?.() ?? [],
      liquidity: () => Promise.reject(new Error('no pool here')),
      channels: { ...emptyAlertChannels(), deliver: (message) => delivered.push(message) },
      clock: now,
      everyMs: 20,
    },
  );
  return { service, events, delivered };
}

describe('alert service', () => {
  it('a muted alert still sends the console its refetch event (marked muted) but reaches no channel; unmuted, the resolution goes everywhere', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    let lamports = 50_000_000n; // 0.05 SOL: below the critical 0.1
    const { service, events, delivered } = await startService({ now: () => now, lamports: () => lamports });
    await service.api.muteAlert({ alert: 'balance-low', minutes: 60 });
    service.start();

    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({
      type: 'alert',
      muted: true,
      message: { alert: 'balance-low', state: 'firing', severity: 'critical' },
    });
    expect(delivered).toEqual([]);
    const view = await service.api.alerts();
    expect(view.history.map((entry) => [entry.alert, entry.state, entry.muted])).toEqual([
      ['balance-low', 'firing', true],
    ]);
    expect(view.active[0]).toMatchObject({ alert: 'balance-low', mutedUntil: '2026-01-01T01:00:00.000Z' });

    await service.api.muteAlert({ alert: 'balance-low', minutes: 0 });
    lamports = 10n * 1_000_000_000n;
    now += 1_000;
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[1]).toEqual({
      type: 'alert',
      message: expect.objectContaining({ alert: 'balance-low', state: 'resolved' }),
    });
    expect(delivered.map((message) => [message.alert, message.state])).toEqual([['balance-low', 'resolved']]);
  });

  it('a fleet member the fleet watch calls silent fires at the next evaluation, not up to 10 s later; answering again resolves as promptly', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const member: FleetMemberView = {
      url: 'http://10.0.0.2:7300',
      keeper: 'Peer1111111111111111111111111111111111111111',
      lamports: '5000000000',
      lastTick: now,
      queue: 0,
      shard: '1/2',
      overdue: 0,
      rpcError: null,
      answeredAtMs: now,
      error: null,
      stale: false,
    };
    const { service, delivered } = await startService({
      now: () => now,
      lamports: () => 10n * 1_000_000_000n,
      fleet: () => [{ ...member }], // a copy, as the fleet watch gives
    });
    service.start();
    const said = () => delivered.map((message) => `${message.alert} ${message.state}`);
    // The first evaluation (ready once it has one) saw the member answering.
    await vi.waitFor(() => expect(service.readiness().ready).toBe(true));

    Object.assign(member, { stale: true, error: 'unreachable (connection refused or no route)' });
    now += 2_000;
    await vi.waitFor(() => expect(said()).toEqual(['fleet-member-silent firing']));
    Object.assign(member, { stale: false, error: null });
    now += 1_000;
    await vi.waitFor(() =>
      expect(said()).toEqual(['fleet-member-silent firing', 'fleet-member-silent resolved']),
    );
  });
});
