/**
 * Prometheus metrics of a running keeper, for the operator side only (never on /v1): cranks by step and
 * outcome (landed, lost to another keeper, failed), queue, balance, last loop, oracle latency, and the
 * guardian's pauses and resumes of new wagers.
 */
import type { EventEmitter } from 'node:events';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GuardianEvents } from '../keeper/guardian';
import type { Keeper } from '../keeper/keeper';

/**
 * Metrics from a keeper's events (or any emitter of the same events, such as the console's, which follows
 * cluster switches), and from its guardian's when one runs beside it.
 */
export function createKeeperMetrics(keeper: Pick<Keeper, 'events'>, guardian?: { events: EventEmitter<GuardianEvents> }): Registry {
  const registry = new Registry();
  // prom-client names its defaults process_* and nodejs_*: with the prefix, wager_keeper_process_cpu_seconds_total etc.
  collectDefaultMetrics({ register: registry, prefix: 'wager_keeper_' });
  const cranks = new Counter({ name: 'wager_keeper_cranks_total', help: 'Crank transactions by step and outcome', labelNames: ['step', 'outcome'], registers: [registry] });
  const earned = new Counter({ name: 'wager_keeper_fees_received_lamports_total', help: 'Crank fees received', registers: [registry] });
  const spent = new Counter({ name: 'wager_keeper_fees_paid_lamports_total', help: 'Transaction fees paid', registers: [registry] });
  const latency = new Histogram({ name: 'wager_keeper_oracle_latency_slots', help: 'Slots from request landing to fulfilment seen', buckets: [1, 2, 3, 5, 10, 20, 60, 150], registers: [registry] });
  const queue = new Gauge({ name: 'wager_keeper_queue', help: 'Wagers in progress', registers: [registry] });
  const balance = new Gauge({ name: 'wager_keeper_balance_lamports', help: "The keeper key's balance", registers: [registry] });
  const lastTick = new Gauge({ name: 'wager_keeper_last_tick_ms', help: 'Unix ms of the last completed loop', registers: [registry] });
  const rpcUp = new Gauge({ name: 'wager_keeper_rpc_up', help: '1 while the chain can be read', registers: [registry] });
  const overdueFound = new Counter({ name: 'wager_keeper_overdue_requests_total', help: 'Wagers found without a randomness request 10 slots after it could be sent', registers: [registry] });
  const overdueNow = new Gauge({ name: 'wager_keeper_overdue_requests', help: 'Wagers overdue for their randomness request now', registers: [registry] });
  const guardianActions = new Counter({
    name: 'wager_keeper_guardian_actions_total',
    help: 'set_paused sent with the guardian key: action pause or resume, by the guardian on its own or by a person',
    labelNames: ['action', 'by'],
    registers: [registry],
  });
  // Zero series from the start, so an alert on the rate sees "no pause yet" rather than no data.
  for (const action of ['pause', 'resume']) for (const by of ['guardian', 'person']) guardianActions.inc({ action, by }, 0);

  keeper.events.on('step', (event) => cranks.inc({ step: event.step, outcome: event.outcome }));
  keeper.events.on('earnings', (entry) => {
    earned.inc(entry.receivedLamports);
    spent.inc(entry.feeLamports);
  });
  keeper.events.on('latency', (entry) => latency.observe(entry.slots));
  keeper.events.on('overdue', () => overdueFound.inc());
  guardian?.events.on('action', (event) => guardianActions.inc({ action: event.action, by: event.by }));
  keeper.events.on('health', (health) => {
    queue.set(health.queue);
    balance.set(Number(health.lamports));
    lastTick.set(health.lastTick);
    rpcUp.set(health.rpcError ? 0 : 1);
    overdueNow.set(health.overdue ?? 0);
  });
  return registry;
}
