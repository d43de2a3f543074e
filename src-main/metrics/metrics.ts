/**
 * Prometheus metrics of a running keeper, for the operator side only (never on /v1): cranks by step and
 * outcome (landed, lost to another keeper, failed), queue, balance, last loop, oracle latency, and the
 * guardian's pauses and resumes of new wagers. With `live` readings (read at each scrape): the RPC's
 * round trip, the oracle requests waiting, whether new wagers are paused, and each fleet member's answer —
 * what monitoring/'s alert rules need beside the events.
 */
import type { EventEmitter } from 'node:events';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GuardianEvents } from '../keeper/guardian';
import type { Keeper } from '../keeper/keeper';
import { scrubSecrets } from '../../src-shared/secret-scrub';

/** What a scrape reads from the running keeper now (null: not known, so the series is left out). */
export interface LiveMetricReading {
  /** Round trip of the last slot read, ms (null: it failed or none yet; every null is exported as NaN). */
  rpcLatencyMs: number | null;
  oracleWait: { waiting: number; oldestWaitSlots: number | null } | null;
  /** The config's paused flag on chain. */
  newWagersPaused: boolean | null;
  /** The fleet members this keeper watches (Settings → Fleet): silent = no answer for 15 s. */
  fleetMembers: { url: string; shard: string | null; silent: boolean }[];
  /** Each RPC endpoint (issue 27): its masked URL, role, whether reads go there now and whether it is healthy. */
  rpcEndpoints?: { label: string; role: string; inUse: boolean; healthy: boolean }[];
}
export type LiveMetricSource = () => Promise<LiveMetricReading>;

/**
 * Metrics from a keeper's events (or any emitter of the same events, such as the console's, which follows
 * cluster switches), and from its guardian's when one runs beside it.
 */
export function createKeeperMetrics(
  keeper: Pick<Keeper, 'events'>,
  guardian?: { events: EventEmitter<GuardianEvents> },
  live?: LiveMetricSource,
): Registry {
  const registry = new Registry();
  // prom-client names its defaults process_* and nodejs_*: with the prefix, wager_keeper_process_cpu_seconds_total etc.
  collectDefaultMetrics({ register: registry, prefix: 'wager_keeper_' });
  const cranks = new Counter({
    name: 'wager_keeper_cranks_total',
    help: 'Crank transactions by step and outcome',
    labelNames: ['step', 'outcome'],
    registers: [registry],
  });
  const earned = new Counter({
    name: 'wager_keeper_fees_received_lamports_total',
    help: 'Crank fees received',
    registers: [registry],
  });
  const spent = new Counter({
    name: 'wager_keeper_fees_paid_lamports_total',
    help: 'Transaction fees paid',
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'wager_keeper_oracle_latency_slots',
    help: 'Slots from request landing to fulfilment seen',
    buckets: [1, 2, 3, 5, 10, 20, 60, 150],
    registers: [registry],
  });
  const queue = new Gauge({ name: 'wager_keeper_queue', help: 'Wagers in progress', registers: [registry] });
  const balance = new Gauge({
    name: 'wager_keeper_balance_lamports',
    help: "The keeper key's balance",
    registers: [registry],
  });
  const lastTick = new Gauge({
    name: 'wager_keeper_last_tick_ms',
    help: 'Unix ms of the last completed loop',
    registers: [registry],
  });
  const rpcUp = new Gauge({
    name: 'wager_keeper_rpc_up',
    help: '1 while the chain can be read',
    registers: [registry],
  });
  const rpcErrors = new Counter({
    name: 'wager_keeper_rpc_errors_total',
    help: 'Loop passes that ended with the chain unreadable (the RPC failed)',
    registers: [registry],
  });
  const overdueFound = new Counter({
    name: 'wager_keeper_overdue_requests_total',
    help: 'Wagers found without a randomness request 10 slots after it could be sent',
    registers: [registry],
  });
  const overdueNow = new Gauge({
    name: 'wager_keeper_overdue_requests',
    help: 'Wagers overdue for their randomness request now',
    registers: [registry],
  });
  const guardianActions = new Counter({
    name: 'wager_keeper_guardian_actions_total',
    help: 'set_paused sent with the guardian key: action pause or resume, by the guardian on its own or by a person',
    labelNames: ['action', 'by'],
    registers: [registry],
  });
  // Zero series from the start, so an alert on the rate sees "no pause yet" rather than no data.
  for (const action of ['pause', 'resume'])
    for (const by of ['guardian', 'person']) guardianActions.inc({ action, by }, 0);

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
    if (health.rpcError) rpcErrors.inc();
    overdueNow.set(health.overdue ?? 0);
  });
  if (live) addLiveMetrics(registry, live);
  return registry;
}

function addLiveMetrics(registry: Registry, live: LiveMetricSource): void {
  // prom-client starts every gauge's collect() at once: they share the reading in flight, one per scrape.
  let inFlight: Promise<LiveMetricReading | null> | null = null;
  const reading = () =>
    (inFlight ??= live()
      // A failed reading gives NaN for this scrape; the scrape itself still answers.
      .catch(() => null)
      .finally(() => (inFlight = null)));
  const gauge = (name: string, help: string, read: (now: LiveMetricReading) => number | null | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        // Not known now: NaN, which no alert rule's comparison matches (a missing series would read as 0 here).
        this.set(read((await reading()) ?? emptyReading) ?? Number.NaN);
      },
    });
  gauge('wager_keeper_rpc_latency_seconds', 'Round trip of the last slot read from the RPC', (now) =>
    now.rpcLatencyMs === null ? null : now.rpcLatencyMs / 1000,
  );
  gauge(
    'wager_keeper_oracle_waiting_requests',
    "This keeper's randomness requests waiting for the oracle",
    (now) => now.oracleWait?.waiting,
  );
  // 0 while nothing waits, so the stall rule sees "no stall" rather than no data.
  gauge(
    'wager_keeper_oracle_oldest_wait_slots',
    'Slots the oldest waiting randomness request has waited (0: none waiting)',
    (now) => (now.oracleWait ? (now.oracleWait.oldestWaitSlots ?? 0) : null),
  );
  gauge(
    'wager_keeper_new_wagers_paused',
    "1 while the deployment's config pauses new wagers (the guardian's flag on chain)",
    (now) => (now.newWagersPaused === null ? null : Number(now.newWagersPaused)),
  );
  new Gauge({
    name: 'wager_keeper_fleet_member_up',
    help: 'Per fleet member this keeper watches: 1 while it answers its /v1/health, 0 once silent for 15 s',
    labelNames: ['member', 'shard'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const member of ((await reading()) ?? emptyReading).fleetMembers)
        this.set({ member: scrubSecrets(member.url), shard: member.shard ?? '' }, member.silent ? 0 : 1);
    },
  });
  const endpointGauge = (name: string, help: string, value: (endpoint: NonNullable<LiveMetricReading['rpcEndpoints']>[number]) => boolean) =>
    new Gauge({
      name,
      help,
      labelNames: ['endpoint', 'role'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const endpoint of ((await reading()) ?? emptyReading).rpcEndpoints ?? []) this.set({ endpoint: scrubSecrets(endpoint.label), role: endpoint.role }, value(endpoint) ? 1 : 0);
      },
    });
  endpointGauge('wager_keeper_rpc_endpoint_in_use', 'Per RPC endpoint (URL masked): 1 while reads go there', (endpoint) => endpoint.inUse);
  endpointGauge('wager_keeper_rpc_endpoint_healthy', 'Per RPC endpoint (URL masked): 1 while healthy, 0 while set aside, of another cluster or not checked yet', (endpoint) => endpoint.healthy);
}

const emptyReading: LiveMetricReading = {
  rpcLatencyMs: null,
  oracleWait: null,
  newWagersPaused: null,
  fleetMembers: [],
};
