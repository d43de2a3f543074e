/**
 * OpenSSH's known_hosts, read the way `ssh` reads it: plain host patterns (`*`, `?`, `!negation`, comma
 * lists), `[host]:port` for a port other than 22, hashed `|1|salt|hash` entries (HMAC-SHA1 of the looked-up
 * name), the `@revoked` marker (that key is refused, whatever host presents it) and `@cert-authority`
 * lines (skipped: the app does not take host certificates). And a key's fingerprint as `ssh` prints it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** One usable known_hosts line. */
export interface KnownHostLine {
  marker: 'revoked' | null;
  /** The comma list of patterns, or one hashed entry, as written. */
  hosts: string;
  keyType: string;
  key: Buffer;
  /** Which file it came from (said to the operator when a key changed). */
  file: string;
}

/** What known_hosts says of the key a server presents. */
export type HostKeyVerdict =
  | { kind: 'known' }
  | { kind: 'unknown' }
  | { kind: 'changed'; knownFingerprint: string; file: string }
  | { kind: 'revoked'; file: string };

/** `SHA256:` and the unpadded base64 of the key blob's SHA-256, as `ssh` and `ssh-keygen -l` print it. */
export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The algorithm named at the start of an SSH public key blob (`ssh-ed25519`, `ssh-rsa`, …). */
export function keyTypeOf(key: Buffer): string {
  if (key.length < 4) return 'unknown';
  const length = key.readUInt32BE(0);
  return key.subarray(4, 4 + length).toString('latin1');
}

/** The name ssh looks a host up by: `host` on port 22, `[host]:port` elsewhere. */
export function lookupName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** The usable lines of a known_hosts text; comments, blank, malformed and `@cert-authority` lines are skipped. */
export function parseKnownHosts(text: string, file: string): KnownHostLine[] {
  const lines: KnownHostLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === '' || fields[0]!.startsWith('#')) continue;
    let marker: KnownHostLine['marker'] = null;
    if (fields[0]!.startsWith('@')) {
      if (fields[0] !== '@revoked') continue; // @cert-authority, or a marker ssh does not know
      marker = 'revoked';
      fields.shift();
    }
    const [hosts, keyType, base64] = fields;
    if (!hosts || !keyType || !base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) continue;
    const key = Buffer.from(base64, 'base64');
    if (keyTypeOf(key) !== keyType) continue; // a damaged line: its blob does not say the type it claims
    lines.push({ marker, hosts, keyType, key, file });
  }
  return lines;
}

const wildcard = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');

/** Whether a line's host field names `host:port` (a hashed entry, or patterns with negation winning). */
export function hostsFieldMatches(hosts: string, host: string, port: number): boolean {
  const name = lookupName(host, port);
  if (hosts.startsWith('|1|')) {
    const [, , salt, hash] = hosts.split('|');
    if (!salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64');
    const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  let matched = false;
  for (const pattern of hosts.split(',')) {
    const negated = pattern.startsWith('!');
    if (!wildcard(negated ? pattern.slice(1) : pattern).test(name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

/**
 * What `lines` say of `key` presented by `host:port`: revoked (anywhere), known (a line for this host with
 * this very key), changed (a line for this host with another key of the same type), else unknown (a host
 * known only by keys of other types is unknown for this one, as for ssh).
 */
export function verifyHostKey(lines: readonly KnownHostLine[], host: string, port: number, key: Buffer): HostKeyVerdict {
  const revoked = lines.find((line) => line.marker === 'revoked' && line.key.equals(key));
  if (revoked) return { kind: 'revoked', file: revoked.file };
  const type = keyTypeOf(key);
  const forHost = lines.filter((line) => line.marker === null && line.keyType === type && hostsFieldMatches(line.hosts, host, port));
  if (forHost.some((line) => line.key.equals(key))) return { kind: 'known' };
  const other = forHost[0];
  return other ? { kind: 'changed', knownFingerprint: fingerprintOf(other.key), file: other.file } : { kind: 'unknown' };
}

/**
 * The host key algorithms to ask the server for first: those of the keys known for `host:port` (as ssh
 * does), so a server known by its ECDSA or RSA key is not asked for an ed25519 one it has never shown.
 */
export function preferredHostKeyAlgorithms(lines: readonly KnownHostLine[], host: string, port: number): string[] {
  const types = new Set(lines.filter((line) => line.marker === null && hostsFieldMatches(line.hosts, host, port)).map((line) => line.keyType));
  return [...types].flatMap((type) => (type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type]));
}

/** The line the app appends for an accepted key: plain `[host]:port type base64` (readable, like ssh's own). */
export function knownHostLine(host: string, port: number, key: Buffer): string {
  return `${lookupName(host, port)} ${keyTypeOf(key)} ${key.toString('base64')}`;
}
