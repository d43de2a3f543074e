/**
 * Who is asking, for rate limits and the faucet's per-IP rule: the socket's remote address. The
 * X-Forwarded-For header is ignored unless the operator says a proxy they trust sits in front
 * (`trustProxy`); then its right-most valid entry (the address that proxy saw) counts.
 *
 * The result is a limit key: an IPv4 address as is (IPv4-mapped IPv6 unwrapped), an IPv6 address as its
 * /64 prefix (one customer line gets a whole /64, so per-address limits would be free to dodge).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { isIPv4, isIPv6 } from 'node:net';

/** The limit key for requests whose address cannot be known (e.g. `app.request` without a socket). */
export const UNKNOWN_CLIENT = 'unknown';

export function clientKey(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => isIPv4(part) || isIPv6(part));
    const last = forwarded.at(-1);
    if (last) return ipLimitKey(last);
  }
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    address = undefined;
  }
  return address ? ipLimitKey(address) : UNKNOWN_CLIENT;
}

/** `1.2.3.4` → `1.2.3.4`; `::ffff:1.2.3.4` → `1.2.3.4`; `2001:db8:1:2:3:4:5:6` → `2001:db8:1:2::/64`. */
export function ipLimitKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(address)) return address;
  const zoneless = address.split('%')[0]!;
  if (!isIPv6(zoneless)) return address;
  const groups = expandIPv6(zoneless);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The 8 groups of an IPv6 address, lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  const toGroups = (part: string): string[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  };
  const [head = '', tail] = address.split('::');
  const headGroups = toGroups(head);
  const tailGroups = tail === undefined ? [] : toGroups(tail);
  const zeros = Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => '0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16).toString(16));
}
