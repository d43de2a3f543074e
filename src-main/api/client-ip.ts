/**
 * Who is asking, for rate limits and the faucet's per-IP rule: the socket's remote address. The
 * X-Forwarded-For header is ignored unless the operator says which proxies they run in front
 * (`--trust-proxy`, a TrustProxy); then the chain of addresses is walked from the socket leftwards through
 * X-Forwarded-For (or, when a request has none, RFC 7239 `Forwarded: for=`) the way Express's
 * `trust proxy` does:
 * - a hop count N (`true` is 1): the client is the address N entries left of the socket, i.e. the
 *   N-th entry from the right of X-Forwarded-For (the left-most one when there are fewer);
 * - addresses and CIDR ranges: each entry counts while the hop that added it (the socket first) is one of
 *   them; the first address not trusted is the client.
 * An entry that is not an IP address ends the walk: the hop before it is the client.
 *
 * The result is a limit key: an IPv4 address as is (IPv4-mapped IPv6 unwrapped), an IPv6 address as its
 * /64 prefix (one customer line gets a whole /64, so per-address limits would be free to dodge).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** The limit key for requests whose address cannot be known (e.g. `app.request` without a socket). */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * Which proxies in front are trusted to say who the client is: `false` none (the socket address counts),
 * a hop count (`true` = 1), or the proxies' addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`,
 * and the names `loopback`, `linklocal`, `uniquelocal` as in Express).
 */
export type TrustProxy = boolean | number | readonly string[];

/** Express's names for common ranges, allowed in an address list. */
export const TRUST_PROXY_NAMES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The address list as a BlockList (null: an entry is not an address, a range or a name), built once per list. */
const compiled = new WeakMap<readonly string[], BlockList>();

/**
 * A BlockList of `entries`, or the first entry that is not an IP address, a CIDR range or one of
 * TRUST_PROXY_NAMES (for the flag's error).
 */
export function trustedProxyList(entries: readonly string[]): BlockList | { invalid: string } {
  const list = new BlockList();
  for (const raw of entries.flatMap((entry) => TRUST_PROXY_NAMES[entry.trim().toLowerCase()] ?? [entry.trim()])) {
    const [address = '', prefixText, ...rest] = raw.split('/');
    const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (!family || rest.length > 0) return { invalid: raw };
    if (prefixText === undefined) {
      list.addAddress(address, family);
      continue;
    }
    const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (!(prefix >= 0 && prefix <= (family === 'ipv4' ? 32 : 128))) return { invalid: raw };
    list.addSubnet(address, prefix, family);
  }
  return list;
}

function trusts(entries: readonly string[], address: string): boolean {
  let list = compiled.get(entries);
  if (!list) {
    const built = trustedProxyList(entries);
    // The flag parser refuses bad lists; a bad list given in code trusts nothing rather than everything.
    list = built instanceof BlockList ? built : new BlockList();
    compiled.set(entries, list);
  }
  const plain = unmapped(address);
  return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
}

export function clientKey(c: Context, trustProxy: TrustProxy): string {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    address = undefined;
  }
  if (!address) return UNKNOWN_CLIENT;
  if (trustProxy === false || trustProxy === 0) return ipLimitKey(address);
  return ipLimitKey(clientAddress(address, forwardedChain(c.req.header('x-forwarded-for'), c.req.header('forwarded')), trustProxy));
}

/**
 * The client's address: the walk from the socket `peer` leftwards through `chain` (the forwarded
 * addresses, left-most first) described above.
 * @example clientAddress('127.0.0.1', ['6.6.6.6', '203.0.113.7'], 1) // '203.0.113.7'
 */
export function clientAddress(peer: string, chain: readonly (string | null)[], trustProxy: TrustProxy): string {
  if (trustProxy === false || trustProxy === 0) return peer;
  const hops = trustProxy === true ? 1 : trustProxy;
  let client = peer;
  for (let index = chain.length - 1, hop = 0; index >= 0; index--, hop++) {
    const trusted = typeof hops === 'number' ? hop < hops : trusts(hops, client);
    const next = chain[index];
    if (!trusted || !next) break;
    client = next;
  }
  return client;
}

/**
 * The forwarded addresses, left-most (the furthest hop) first: X-Forwarded-For's entries, or without it
 * RFC 7239 Forwarded's `for=` values. An entry that is not an IP address (`unknown`, `_hidden`, garbage)
 * is null, so the walk stops before it.
 */
export function forwardedChain(xForwardedFor: string | undefined, forwarded: string | undefined): (string | null)[] {
  const ip = (text: string): string | null => {
    let value = text.trim();
    if (value.startsWith('[')) value = value.slice(1, value.indexOf(']') < 0 ? undefined : value.indexOf(']'));
    else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
    return isIPv4(value) || isIPv6(value) ? value : null;
  };
  if (xForwardedFor !== undefined) return xForwardedFor.split(',').map(ip);
  if (forwarded === undefined) return [];
  return forwarded.split(',').map((element) => {
    const pair = element.split(';').map((part) => part.trim()).find((part) => part.toLowerCase().startsWith('for='));
    return pair === undefined ? null : ip(pair.slice(4).replace(/^"|"$/g, ''));
  });
}

const unmapped = (address: string): string => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped && isIPv4(mapped[1]!) ? mapped[1]! : address;
};

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
