/**
 * The other members of an operator's fleet, seen through their public `/v1/health`: each member's keeper
 * key, balance, last pass, queue and shard, polled every few seconds, and which one stopped answering.
 * The console's Overview lists them (Settings holds their URLs). Only the public API is read, so a member
 * exposes nothing more than it already does to anyone.
 */
import { scrubSecrets } from '../../src-shared/secret-scrub';
import type { FleetMemberView } from '../../src-shared/contract/fleet';

export type { FleetMemberView };

export interface FleetWatchOptions {
  urls: readonly string[];
  intervalMs?: number;
  timeoutMs?: number;
  staleAfterMs?: number;
  now?: () => number;
  onChange?: (members: FleetMemberView[]) => void;
}

const DEFAULT_INTERVAL_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 3_000;
/** Three polls missed. */
const DEFAULT_STALE_AFTER_MS = 15_000;

/** `http://host:7300`, `http://host:7300/`, `http://host:7300/v1` → `http://host:7300/v1/health`. Throws a sentence for anything else. */
export function fleetHealthUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error(`fleet member '${url}' is not a URL: give its keeper API, e.g. http://10.0.0.2:7300`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`fleet member '${url}' must be an http(s) URL of its keeper API`);
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${parsed.origin}${path}/v1/health`;
}

const shardText = (shard: unknown): string | null => {
  if (typeof shard === 'string') return shard;
  if (shard && typeof shard === 'object' && 'index' in shard && 'count' in shard)
    return `${String(shard.index)}/${String(shard.count)}`;
  return null;
};

export function createFleetWatch(options: FleetWatchOptions): {
  members(): FleetMemberView[];
  pollNow(): Promise<void>;
  stop(): void;
} {
  const now = options.now ?? Date.now;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const startedAt = now();
  const members: FleetMemberView[] = options.urls.map((url) => ({
    url,
    keeper: null,
    lamports: null,
    lastTick: null,
    queue: null,
    shard: null,
    overdue: null,
    rpcError: null,
    answeredAtMs: null,
    error: null,
    stale: false,
  }));

  const poll = async (member: FleetMemberView) => {
    try {
      const response = await fetch(fleetHealthUrl(member.url), {
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
      const health = (await response.json()) as Record<string, unknown>;
      if (typeof health.keeper !== 'string' || typeof health.lastTick !== 'number')
        throw new Error('answered something that is not a keeper health record');
      Object.assign(member, {
        keeper: health.keeper,
        lamports: typeof health.lamports === 'string' ? health.lamports : null,
        lastTick: health.lastTick,
        queue: typeof health.queue === 'number' ? health.queue : null,
        shard: shardText(health.shard),
        overdue: typeof health.overdue === 'number' ? health.overdue : null,
        // A member of an older version may still send its raw RPC URL: it is not shown or passed on as is.
        rpcError: typeof health.rpcError === 'string' ? scrubSecrets(health.rpcError) : null,
        answeredAtMs: now(),
        error: null,
      });
    } catch (error) {
      const reason =
        error instanceof Error
          ? error.name === 'TimeoutError'
            ? 'no answer in time'
            : error.message
          : String(error);
      member.error = reason === 'fetch failed' ? 'unreachable (connection refused or no route)' : scrubSecrets(reason);
    }
    member.stale = now() - (member.answeredAtMs ?? startedAt) >= staleAfterMs;
  };

  const pollNow = async () => {
    await Promise.all(members.map(poll));
    options.onChange?.(members.map((member) => ({ ...member })));
  };
  const timer =
    members.length > 0
      ? setInterval(() => void pollNow(), options.intervalMs ?? DEFAULT_INTERVAL_MS)
      : undefined;
  timer?.unref();
  if (members.length > 0) void pollNow();
  return {
    members: () => members.map((member) => ({ ...member })),
    pollNow,
    stop: () => clearInterval(timer),
  };
}
