/**
 * `--public-host NAME` and `--trust-proxy HOPS|ADDRESS,...` of `keeper`, `serve` and `gateway` (issue 33):
 * the names the listeners answer to beyond loopback names and IP literals (every other Host gets 421,
 * api/host-check.ts), and which proxies in front may say who the client is (api/client-ip.ts).
 */
import { trustedProxyList, type TrustProxy } from '../api/client-ip';
import { isValidPublicHost } from '../api/host-check';
import { UsageError } from './cli-flags';

export const LISTENER_OPTIONS = {
  'public-host': { type: 'string', multiple: true },
  'trust-proxy': { type: 'string', multiple: true },
} as const;

/**
 * The listener settings the flags give; a bad value is a UsageError of one line.
 * @example listenerFlags({ 'public-host': ['keeper.example.com'], 'trust-proxy': ['1'] })
 * // { publicHosts: ['keeper.example.com'], trustProxy: 1 }
 */
export function listenerFlags(values: { 'public-host'?: string[]; 'trust-proxy'?: string[] }): { publicHosts?: string[]; trustProxy?: TrustProxy } {
  const publicHosts = (values['public-host'] ?? []).map((name) => name.trim().toLowerCase().replace(/\.$/, ''));
  for (const name of publicHosts)
    if (!isValidPublicHost(name))
      throw new UsageError(`--public-host must be a host name such as keeper.example.com or *.example.com, without scheme, port or path (got '${name}')`);
  const trustProxy = trustProxyFlag(values['trust-proxy']);
  return {
    ...(publicHosts.length > 0 ? { publicHosts } : {}),
    ...(trustProxy === undefined ? {} : { trustProxy }),
  };
}

/** `--trust-proxy 1` (hops) or `--trust-proxy 127.0.0.1,::1 [--trust-proxy 10.0.0.0/8]` (the proxies' addresses). */
function trustProxyFlag(given: string[] | undefined): TrustProxy | undefined {
  if (!given?.length) return undefined;
  const entries = given.flatMap((value) => value.split(',')).map((entry) => entry.trim()).filter(Boolean);
  const usage = "--trust-proxy takes the number of proxies in front (1 for one Caddy or nginx) or their addresses (127.0.0.1,::1 or a CIDR range such as 10.0.0.0/8)";
  if (entries.length === 0) throw new UsageError(`${usage} (got '${given.join(' ')}')`);
  if (entries.some((entry) => /^\d+$/.test(entry))) {
    const hops = entries.length === 1 ? Number(entries[0]) : NaN;
    if (!Number.isSafeInteger(hops) || hops < 1 || hops > 16) throw new UsageError(`${usage}: a count is one integer from 1 to 16 (got '${given.join(' ')}')`);
    return hops;
  }
  const list = trustedProxyList(entries);
  if ('invalid' in list) throw new UsageError(`${usage} (got '${list.invalid}')`);
  return entries;
}
