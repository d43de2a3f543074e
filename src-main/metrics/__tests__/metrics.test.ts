/**
 * The keeper's Prometheus metrics as a scraper reads them: every name starts with wager_keeper_ once
 * (prom-client's default process and Node.js metrics included), and the keeper's own series move with
 * its events.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { GuardianEvents } from '../../keeper/guardian';
import type { Keeper } from '../../keeper/keeper';
import { createKeeperMetrics, type LiveMetricReading } from '../metrics';

const metricNames = (text: string) =>
  new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!));

describe('keeper metrics', () => {
  it('prefixes every metric with wager_keeper_ exactly once', async () => {
    const events = new EventEmitter();
    const registry = createKeeperMetrics({ events } as unknown as Keeper);
    events.emit('step', { step: 'settle', outcome: 'landed' });
    events.emit('health', { queue: 3, lamports: 5_000n, lastTick: 1_700_000_000_000, rpcError: null });
    const text = await registry.metrics();
    const names = metricNames(text);

    expect(names).toContain('wager_keeper_process_cpu_seconds_total');
    expect(names).toContain('wager_keeper_process_resident_memory_bytes');
    expect(names).toContain('wager_keeper_nodejs_heap_size_used_bytes');
    for (const name of [
      'wager_keeper_cranks_total',
      'wager_keeper_fees_received_lamports_total',
      'wager_keeper_fees_paid_lamports_total',
      'wager_keeper_oracle_latency_slots',
      'wager_keeper_queue',
      'wager_keeper_balance_lamports',
      'wager_keeper_last_tick_ms',
      'wager_keeper_rpc_up',
    ])
      expect(names).toContain(name);
    for (const name of names) {
      expect(name).toMatch(/^wager_keeper_/);
      expect(name).not.toMatch(/process_process|wager_keeper_wager_keeper|nodejs_nodejs/);
    }
    expect(text).toMatch(/^wager_keeper_cranks_total\{step="settle",outcome="landed"\} 1$/m);
    expect(text).toMatch(/^wager_keeper_queue 3$/m);
  });

  it("counts the guardian's pauses and resumes by who asked, from zero", async () => {
    const guardian = new EventEmitter<GuardianEvents>();
    const registry = createKeeperMetrics({ events: new EventEmitter() } as unknown as Keeper, {
      events: guardian,
    });
    expect(await registry.metrics()).toMatch(
      /^wager_keeper_guardian_actions_total\{action="pause",by="guardian"\} 0$/m,
    );
    const action = {
      at: 0,
      slot: 100,
      reason: 'oracle stalled: request of wager W waited 61 slots',
      signature: 'S',
    };
    guardian.emit('action', { ...action, action: 'pause', by: 'guardian' });
    guardian.emit('action', { ...action, action: 'resume', by: 'guardian' });
    guardian.emit('action', { ...action, action: 'pause', by: 'person' });
    const text = await registry.metrics();
    expect(text).toMatch(/^wager_keeper_guardian_actions_total\{action="pause",by="guardian"\} 1$/m);
    expect(text).toMatch(/^wager_keeper_guardian_actions_total\{action="resume",by="guardian"\} 1$/m);
    expect(text).toMatch(/^wager_keeper_guardian_actions_total\{action="pause",by="person"\} 1$/m);
    expect(text).toMatch(/^wager_keeper_guardian_actions_total\{action="resume",by="person"\} 0$/m);
  });
});

describe('live keeper metrics (read at each scrape, for the alert rules)', () => {
  it('exports the RPC round trip, oracle wait, pause flag and fleet members; NaN for what is not known', async () => {
    const events = new EventEmitter();
    let reading: LiveMetricReading = {
      rpcLatencyMs: 120,
      oracleWait: { waiting: 2, oldestWaitSlots: 75 },
      newWagersPaused: true,
      fleetMembers: [
        { url: 'http://10.0.0.2:7300', shard: '2/2', silent: true },
        { url: 'http://10.0.0.3:7300', shard: null, silent: false },
      ],
    };
    const registry = createKeeperMetrics({ events } as unknown as Keeper, undefined, () =>
      Promise.resolve(reading),
    );
    events.emit('health', { queue: 0, lamports: 5_000n, lastTick: 1, rpcError: 'fetch failed' });
    let text = await registry.metrics();
    expect(text).toMatch(/^wager_keeper_rpc_latency_seconds 0\.12$/m);
    expect(text).toMatch(/^wager_keeper_oracle_waiting_requests 2$/m);
    expect(text).toMatch(/^wager_keeper_oracle_oldest_wait_slots 75$/m);
    expect(text).toMatch(/^wager_keeper_new_wagers_paused 1$/m);
    expect(text).toMatch(
      /^wager_keeper_fleet_member_up\{member="http:\/\/10\.0\.0\.2:7300",shard="2\/2"\} 0$/m,
    );
    expect(text).toMatch(/^wager_keeper_fleet_member_up\{member="http:\/\/10\.0\.0\.3:7300",shard=""\} 1$/m);
    expect(text).toMatch(/^wager_keeper_rpc_errors_total 1$/m);

    reading = {
      rpcLatencyMs: null,
      oracleWait: { waiting: 0, oldestWaitSlots: null },
      newWagersPaused: null,
      fleetMembers: [],
    };
    text = await registry.metrics();
    // prom-client writes NaN as "Nan", which Prometheus's parser (Go's ParseFloat) reads as NaN.
    expect(text).toMatch(/^wager_keeper_rpc_latency_seconds Nan$/m);
    expect(text).toMatch(/^wager_keeper_oracle_oldest_wait_slots 0$/m);
    expect(text).toMatch(/^wager_keeper_new_wagers_paused Nan$/m);
    expect(text).not.toMatch(/^wager_keeper_fleet_member_up\{/m);
  });
});
