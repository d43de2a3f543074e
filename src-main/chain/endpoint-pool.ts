/**
 * The health of several RPC endpoints and which one reads go to (issue 27). Reads go to the first
 * healthy endpoint in order of preference; an endpoint that fails (an error, a timeout, a refused
 * connection) or lags (its slot more than `maxSlotsBehind` behind the highest seen) is set aside and
 * tried again later, with a backoff; the preferred one is used again once it has been healthy for
 * `steadyMs` (not on its first good answer: an endpoint coming back often flaps).
 *
 * With several read endpoints a light probe (getSlot, short timeout) runs on each about once a second,
 * so slots and latency stay fresh and lag is seen before a read is served from a lagging node. Every
 * endpoint's genesis hash is checked against the first reachable read endpoint's (or the deployment's
 * cluster): one of another cluster is never used. With one read endpoint nothing is probed or checked
 * (nothing to compare with; the deployment resolver already checks its genesis): it behaves as before.
 */
import type { RpcTransport } from '@solana/kit';
import { createResilientTransport, type ResilientTransportOptions } from './resilient-transport';
import { endpointLabel, type ChainEndpoints, type RpcEndpointStatus } from './rpc-endpoints';

export interface EndpointPoolOptions {
  endpoints: ChainEndpoints;
  /** The deployment's cluster, when known: an endpoint with another genesis hash is never used. */
  expectedGenesisHash?: string;
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
  /** An endpoint further behind the highest slot seen than this is set aside (default 8). */
  maxSlotsBehind?: number;
  /** How long the preferred endpoint must stay healthy before reads go back to it (default 3 s). */
  steadyMs?: number;
  /** First and longest wait before a set-aside endpoint is tried again (doubling; default 1 s to 10 s). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Per-endpoint transport options (tests; the one-endpoint case keeps the resilient defaults). */
  transport?: Omit<ResilientTransportOptions, 'url'>;
  /** Told of an endpoint of another cluster (one line naming it, masked). */
  onOtherCluster?: (label: string, genesisHash: string, expected: string) => void;
}

/** One endpoint and what the pool knows of it. */
export interface PoolEndpoint {
  url: string;
  wsUrl: string | null;
  label: string;
  role: 'read' | 'send';
  preferred: boolean;
  transport: RpcTransport;
  state: RpcEndpointStatus['state'];
  reason: string | null;
  /** Set aside for lag: no read goes there even as a last resort. */
  lagging: boolean;
  retryAt: number | null;
  failuresInRow: number;
  healthySince: number | null;
  genesis: 'unknown' | 'ok' | 'other';
  slot: number | null;
  slotAt: number;
  samples: { ok: boolean; ms: number | null }[];
  probing: boolean;
}

const WINDOW = 50;
/** Slots older than this do not count toward the highest seen (an endpoint probed long ago). */
const SLOT_FRESH_MS = 5_000;
/** How often a send endpoint whose genesis hash is not known yet is asked for it again. */
const SEND_CHECK_EVERY_MS = 30_000;

export type SwitchListener = (from: string, to: string, why: string) => void;

export interface EndpointPool {
  readonly reads: readonly PoolEndpoint[];
  readonly sends: readonly PoolEndpoint[];
  /** Resolves once the first check of every endpoint is done (at most a few seconds). */
  readonly ready: Promise<void>;
  /** The endpoints a read tries, in order: the one in use, the other healthy ones, then any not refused for good. */
  candidates(): PoolEndpoint[];
  /** Whether `endpoint` may be used now (its genesis is checked first when it never was). */
  usable(endpoint: PoolEndpoint): Promise<boolean>;
  succeeded(endpoint: PoolEndpoint, ms: number, method: string, result: unknown): void;
  failed(endpoint: PoolEndpoint, reason: string): void;
  inUse(): PoolEndpoint;
  /** When reads left the preferred endpoint (null while on it). */
  failedOverSince(): Date | null;
  statuses(): RpcEndpointStatus[];
  onSwitch(listener: SwitchListener): () => void;
  close(): void;
}

export function createEndpointPool(options: EndpointPoolOptions): EndpointPool {
  const { reads: readEndpoints, sends: sendUrls } = options.endpoints;
  if (readEndpoints.length === 0) throw new Error('no read endpoint: give at least one --rpc URL');
  const several = readEndpoints.length > 1;
  const probeIntervalMs = options.probeIntervalMs ?? 1_000;
  const probeTimeoutMs = options.probeTimeoutMs ?? 1_000;
  const maxSlotsBehind = options.maxSlotsBehind ?? 8;
  const steadyMs = options.steadyMs ?? 3_000;
  const retryMinMs = options.retryMinMs ?? 1_000;
  const retryMaxMs = options.retryMaxMs ?? 10_000;
  // Several endpoints: one short try each, so a failing call moves to the next within 2 s (not 4 tries with backoff).
  const readTransportOptions: Omit<ResilientTransportOptions, 'url'> = several
    ? { attempts: 1, readTimeoutMs: 1_500, timeoutMs: 10_000, ...options.transport }
    : { ...options.transport };
  const sendTransportOptions: Omit<ResilientTransportOptions, 'url'> = {
    attempts: 1,
    timeoutMs: 10_000,
    ...options.transport,
  };

  const make = (
    url: string,
    wsUrl: string | null,
    role: 'read' | 'send',
    preferred: boolean,
  ): PoolEndpoint => ({
    url,
    wsUrl,
    label: endpointLabel(url),
    role,
    preferred,
    transport: createResilientTransport({
      url,
      ...(role === 'read' ? readTransportOptions : sendTransportOptions),
    }),
    state: 'unchecked',
    reason: null,
    lagging: false,
    retryAt: null,
    failuresInRow: 0,
    healthySince: null,
    // Nothing to compare one endpoint with, unless the deployment's cluster is known.
    genesis: !several && sendUrls.length === 0 && !options.expectedGenesisHash ? 'ok' : 'unknown',
    slot: null,
    slotAt: 0,
    samples: [],
    probing: false,
  });
  const reads = readEndpoints.map((e, i) => make(e.rpcUrl, e.wsUrl, 'read', i === 0));
  const readUrls = new Set(reads.map((e) => e.url));
  const sends = sendUrls.filter((url) => !readUrls.has(url)).map((url) => make(url, null, 'send', false));
  let current = reads[0]!;
  let leftPreferredAt: number | null = null;
  let referenceGenesis: string | null = options.expectedGenesisHash ?? null;
  const listeners = new Set<SwitchListener>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const sample = (e: PoolEndpoint, ok: boolean, ms: number | null) => {
    e.samples.push({ ok, ms });
    if (e.samples.length > WINDOW) e.samples.shift();
  };
  const markHealthy = (e: PoolEndpoint) => {
    if (e.state === 'healthy' || e.genesis === 'other') return;
    Object.assign(e, {
      state: 'healthy',
      reason: null,
      lagging: false,
      retryAt: null,
      failuresInRow: 0,
      healthySince: Date.now(),
    });
    choose();
  };
  const setAside = (e: PoolEndpoint, reason: string, lagging = false) => {
    if (e.genesis === 'other') return;
    e.failuresInRow += 1;
    Object.assign(e, {
      state: 'set-aside',
      reason,
      lagging,
      healthySince: null,
      retryAt: Date.now() + Math.min(retryMaxMs, retryMinMs * 2 ** (e.failuresInRow - 1)),
    });
    if (!lagging) e.slotAt = 0; // its last slot says nothing now: only a new probe brings it back
    choose();
  };

  /** The endpoint reads go to now; tells the listeners when it changes. */
  const choose = () => {
    const now = Date.now();
    const healthy = reads.filter((e) => e.state === 'healthy');
    const next =
      healthy.find((e) => e === current || now - (e.healthySince ?? now) >= steadyMs) ?? healthy[0];
    if (!next || next === current) return;
    const from = current;
    current = next;
    leftPreferredAt = next.preferred ? null : (leftPreferredAt ?? now);
    const why =
      from.state === 'healthy'
        ? `${next.preferred ? 'the preferred endpoint' : 'an endpoint preferred to it'} is healthy again`
        : (from.reason ?? (from.state === 'unchecked' ? 'not checked yet' : from.state));
    for (const listener of listeners) listener(from.label, next.label, why);
  };

  const highestSlot = () => {
    const now = Date.now();
    let highest: number | null = null;
    for (const e of reads)
      if (e.slot !== null && e.genesis !== 'other' && now - e.slotAt <= SLOT_FRESH_MS)
        highest = Math.max(highest ?? 0, e.slot);
    return highest;
  };

  const call = async (e: PoolEndpoint, method: string, params: unknown[] = []) => {
    const body = (await e.transport({
      payload: { jsonrpc: '2.0', id: 0, method, params },
      signal: AbortSignal.timeout(probeTimeoutMs),
    })) as { result?: unknown; error?: { message?: string } };
    if (body.error) throw new Error(body.error.message ?? `${method} failed`);
    return body.result;
  };

  /** Checks `e`'s genesis hash; false when it cannot be reached (it stays unknown). */
  const checkGenesis = async (e: PoolEndpoint): Promise<boolean> => {
    if (e.genesis !== 'unknown') return true;
    let hash: string;
    try {
      hash = String(await call(e, 'getGenesisHash'));
    } catch (error) {
      sample(e, false, null);
      setAside(e, reasonOf(error)); // a send endpoint is still sent to (see usable); the state tells the operator
      return false;
    }
    if (referenceGenesis === null) referenceGenesis = hash;
    if (hash === referenceGenesis) {
      e.genesis = 'ok';
      return true;
    }
    e.genesis = 'other';
    Object.assign(e, {
      state: 'other-cluster',
      reason: `genesis ${hash} is not this cluster's (${referenceGenesis})`,
      retryAt: null,
      healthySince: null,
    });
    options.onOtherCluster?.(e.label, hash, referenceGenesis);
    choose();
    return false;
  };

  /** getSlot on `e`: slot and latency fresh, lag seen. */
  const probe = async (e: PoolEndpoint) => {
    if (e.probing || closed) return;
    e.probing = true;
    try {
      if (!(await checkGenesis(e))) return;
      const started = Date.now();
      let slot: number;
      try {
        slot = Number(await call(e, 'getSlot', [{ commitment: 'confirmed' }]));
      } catch (error) {
        sample(e, false, null);
        setAside(e, reasonOf(error));
        return;
      }
      sample(e, true, Date.now() - started);
      e.slot = slot;
      e.slotAt = Date.now();
      judgeLag();
    } finally {
      e.probing = false;
    }
  };

  /** Sets aside every endpoint too far behind the highest slot seen; one that caught up is healthy again. */
  const judgeLag = () => {
    const highest = highestSlot();
    for (const e of reads) {
      if (e.slot === null || e.genesis !== 'ok' || Date.now() - e.slotAt > SLOT_FRESH_MS) continue;
      const behind = highest === null ? 0 : highest - e.slot;
      if (behind > maxSlotsBehind) {
        if (!(e.state === 'set-aside' && e.lagging)) setAside(e, `${behind} slots behind`, true);
        else e.reason = `${behind} slots behind`;
      } else if (e.state !== 'healthy' && (e.retryAt === null || Date.now() >= e.retryAt || e.lagging))
        markHealthy(e);
    }
  };

  const tick = () => {
    const now = Date.now();
    for (const e of reads)
      if (e.genesis !== 'other' && (e.state === 'healthy' || e.retryAt === null || now >= e.retryAt))
        void probe(e);
    choose(); // the preferred may have been steady long enough
  };

  const firstCheck = async () => {
    if (!several && sends.length === 0) return;
    // The genesis of every endpoint in order: the first reachable read endpoint is the reference.
    const hashes = await Promise.all(
      [...reads, ...sends].map((e) => call(e, 'getGenesisHash').then(String, () => null)),
    );
    if (referenceGenesis === null)
      referenceGenesis = hashes.slice(0, reads.length).find((h) => h !== null) ?? null;
    [...reads, ...sends].forEach((e, i) => {
      const hash = hashes[i];
      if (hash === null || hash === undefined || referenceGenesis === null) return;
      if (hash === referenceGenesis) e.genesis = 'ok';
      else {
        e.genesis = 'other';
        Object.assign(e, {
          state: 'other-cluster',
          reason: `genesis ${hash} is not this cluster's (${referenceGenesis})`,
        });
        options.onOtherCluster?.(e.label, hash, referenceGenesis);
      }
    });
    await Promise.all(reads.map((e) => probe(e)));
    choose();
  };

  const ready = firstCheck().catch(() => undefined);
  if (several) {
    void ready.then(() => {
      if (closed) return;
      timer = setInterval(tick, probeIntervalMs);
      timer.unref?.();
    });
  }

  return {
    reads,
    sends,
    ready,
    candidates() {
      const healthy = reads.filter((e) => e.state === 'healthy');
      const ordered =
        current.state === 'healthy' ? [current, ...healthy.filter((e) => e !== current)] : healthy;
      // Nothing healthy: better one more try on an endpoint that failed than no answer (never a lagging one or another cluster's).
      const lastResort = reads.filter((e) => !ordered.includes(e) && e.genesis !== 'other' && !e.lagging);
      return [...ordered, ...lastResort];
    },
    async usable(e) {
      if (e.genesis === 'other') return false;
      if (e.genesis === 'ok') return true;
      if (e.role === 'read') return checkGenesis(e);
      // A send endpoint (a sender service may answer sendTransaction only) is checked when it answers, and
      // used meanwhile: a transaction's blockhash ties it to its cluster, so another cluster could not land it.
      if (Date.now() - e.slotAt >= SEND_CHECK_EVERY_MS) {
        e.slotAt = Date.now();
        await checkGenesis(e);
      }
      return (e.genesis as PoolEndpoint['genesis']) !== 'other'; // checkGenesis may have changed it
    },
    succeeded(e, ms, method, result) {
      sample(e, true, ms);
      if (!several && method === 'getSlot' && typeof result === 'object' && result !== null) {
        const slot = Number((result as { result?: unknown }).result);
        if (Number.isFinite(slot)) Object.assign(e, { slot, slotAt: Date.now() });
      }
      if (e.role === 'send' || !e.lagging) {
        if (e.state !== 'healthy' && e.genesis === 'ok') markHealthy(e);
        else if (e.role === 'send' && e.state === 'unchecked')
          Object.assign(e, { state: 'healthy', reason: null, retryAt: null });
      }
    },
    failed(e, reason) {
      sample(e, false, null);
      setAside(e, reason);
    },
    inUse: () => current,
    failedOverSince: () => (leftPreferredAt === null ? null : new Date(leftPreferredAt)),
    statuses() {
      const highest = highestSlot();
      return [...reads, ...sends].map((e) => {
        const times = e.samples.flatMap((s) => (s.ok && s.ms !== null ? [s.ms] : [])).sort((a, b) => a - b);
        return {
          label: e.label,
          role: e.role,
          preferred: e.preferred,
          inUse: e === current,
          state: e.state,
          reason: e.reason,
          retryAt: e.state === 'set-aside' && e.retryAt !== null ? new Date(e.retryAt).toISOString() : null,
          latencyMs: times.length ? times[Math.floor(times.length / 2)]! : null,
          errorRate: e.samples.length ? e.samples.filter((s) => !s.ok).length / e.samples.length : 0,
          slot: e.slot,
          slotsBehind: e.slot !== null && highest !== null ? Math.max(0, highest - e.slot) : null,
        };
      });
    },
    onSwitch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}

/** Why a call failed, in a few words a log line or Settings → RPC can show. */
export function reasonOf(error: unknown): string {
  const err = error as Error & { cause?: { code?: string }; context?: { statusCode?: number } };
  const code = err?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection cut';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'no answer in time';
  if (typeof err?.context?.statusCode === 'number') return `HTTP ${err.context.statusCode}`;
  // fetch's own failure: its cause says more than "fetch failed" (a bad port, a TLS error, ...).
  const causeMessage = (err?.cause as { message?: string } | undefined)?.message;
  if (err instanceof TypeError && causeMessage) return `connection failed (${causeMessage})`;
  return err?.message ?? String(error);
}
