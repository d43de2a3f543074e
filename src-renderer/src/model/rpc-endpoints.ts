/**
 * How the console words the keeper's RPC endpoints and its priority fee, as pure functions (tested in
 * __tests__): Settings → RPC's table cells, the status line's failover notice, the Overview's fee line, and
 * the checks on a fallback or send endpoint typed into Settings → RPC.
 */
import type { ClusterSetting } from '@shared/contract/cluster';
import type { RpcEndpointStatus, StatusView } from '@shared/contract/status';
import { hasProtocol, MAX_EXTRA_ENDPOINTS, RPC_URL_PROTOCOLS, trimEndpointUrl } from '@shared/settings/rpc-endpoints';
import { formatDuration, groupDigits } from './format';

/** What the status carries about the endpoints: their health, and whether reads left the preferred one. */
export type RpcView = NonNullable<StatusView['rpc']>;

/** The fee the keeper's cranks carry now and why. */
export type PriorityFeeView = NonNullable<StatusView['priorityFee']>;

/** The cap on saved fallback and send lists: Settings → RPC's table (src-shared/settings/rpc-endpoints.ts). */
export { MAX_EXTRA_ENDPOINTS };

/** "read, preferred" / "read, fallback" / "send only". */
export const roleText = (endpoint: Pick<RpcEndpointStatus, 'role' | 'preferred'>): string =>
  endpoint.role === 'send' ? 'send only' : endpoint.preferred ? 'read, preferred' : 'read, fallback';

/** The state in words, with the reason when there is one. */
export function stateText(endpoint: Pick<RpcEndpointStatus, 'state' | 'reason'>): string {
  const why = endpoint.reason ? `: ${endpoint.reason}` : '';
  switch (endpoint.state) {
    case 'healthy':
      return 'healthy';
    case 'set-aside':
      return `set aside${why}`;
    case 'other-cluster':
      return `refused, another cluster${why}`;
    case 'unchecked':
      return 'not checked yet';
  }
}

/** 42 → "42 ms"; unknown → "—". */
export const latencyText = (latencyMs: number | null): string =>
  latencyMs === null ? '—' : `${groupDigits(Math.round(latencyMs))} ms`;

/** 0 → "0 %", 0.004 → "< 1 %", 0.256 → "26 %". */
export function errorRateText(rate: number): string {
  if (rate <= 0) return '0 %';
  if (rate < 0.01) return '< 1 %';
  return `${Math.min(100, Math.round(rate * 100))} %`;
}

/** "312,345" / "312,300 (45 slots behind)" / "—". */
export function slotText(endpoint: Pick<RpcEndpointStatus, 'slot' | 'slotsBehind'>): string {
  if (endpoint.slot === null) return '—';
  const behind = endpoint.slotsBehind ?? 0;
  return behind > 0
    ? `${groupDigits(endpoint.slot)} (${groupDigits(behind)} ${behind === 1 ? 'slot' : 'slots'} behind)`
    : groupDigits(endpoint.slot);
}

/** When a set-aside endpoint is tried again: "in 12 s", "now", or "—" when it is not set aside. */
export function retryText(retryAt: string | null, nowMs: number): string {
  if (retryAt === null) return '—';
  const waitMs = Date.parse(retryAt) - nowMs;
  return Number.isNaN(waitMs) ? '—' : waitMs <= 500 ? 'now' : `in ${formatDuration(waitMs)}`;
}

/**
 * The status line's notice when reads left the preferred endpoint, or null: "RPC: failed over to <label>",
 * and on hover why the preferred one was set aside and since when.
 */
export function failoverNotice(rpc: RpcView | null | undefined): { text: string; title: string } | null {
  if (!rpc?.failedOver) return null;
  const inUse = rpc.endpoints.find((endpoint) => endpoint.inUse);
  const preferred = rpc.endpoints.find((endpoint) => endpoint.preferred);
  if (!inUse) return null;
  const why = preferred
    ? `${preferred.label} was set aside${preferred.reason ? `: ${preferred.reason}` : ''}`
    : 'the preferred endpoint was set aside';
  const since = rpc.since ? ` (since ${rpc.since.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')})` : '';
  return {
    text: `RPC: failed over to ${inUse.label}`,
    title: `${why}${since}. Reads go back to it once it answers again; Settings → RPC shows every endpoint.`,
  };
}

/** The Overview's fee line: "Priority fee 1,200 µL/CU — p75 of recent fees × 1.2". */
export const priorityFeeText = (fee: PriorityFeeView): string =>
  `Priority fee ${groupDigits(fee.microLamports)} µL/CU — ${fee.why}`;

/**
 * Checks an endpoint URL typed into Settings → RPC before it joins `list`: an http(s) URL, not the
 * preferred RPC, not listed already, and room left. Returns the list with it, or the sentence to show.
 */
export function addEndpoint(
  list: readonly string[],
  typed: string,
  preferredRpcUrl: string,
  what: 'fallback' | 'send',
): { list: string[] } | { error: string } {
  const url = trimEndpointUrl(typed);
  if (!hasProtocol(url, RPC_URL_PROTOCOLS))
    return {
      error: `Enter an http:// or https:// URL, like https://rpc.example.com${what === 'fallback' ? ' (an RPC of the same cluster)' : ' (a staked connection or a sender service)'}.`,
    };
  if (what === 'fallback' && url === preferredRpcUrl.replace(/\/+$/, ''))
    return {
      error: 'That is the preferred RPC already: a fallback is another endpoint of the same cluster.',
    };
  if (list.includes(url)) return { error: 'That endpoint is listed already.' };
  if (list.length >= MAX_EXTRA_ENDPOINTS)
    return { error: `At most ${MAX_EXTRA_ENDPOINTS} ${what} endpoints: remove one first.` };
  return { list: [...list, url] };
}

const endpoints = (count: number) => `${count} ${count === 1 ? 'endpoint' : 'endpoints'}`;

/** After Settings → RPC saved: "Saved: the keeper restarted on 2 read endpoints and 1 send endpoint." */
export function savedEndpointsText(cluster: ClusterSetting, restarted: boolean): string {
  const reads = 1 + (cluster.kind === 'rpc' ? (cluster.fallbackRpcUrls?.length ?? 0) : 0);
  const sends = cluster.kind === 'rpc' ? (cluster.sendRpcUrls?.length ?? 0) : 0;
  const lists = `${endpoints(reads).replace('endpoint', 'read endpoint')}${sends > 0 ? ` and ${endpoints(sends).replace('endpoint', 'send endpoint')}` : ''}`;
  return restarted
    ? `Saved: the keeper restarted on ${lists}.`
    : `Saved: nothing changed, the keeper keeps ${lists}.`;
}
