/**
 * `--public-host` and `--trust-proxy` (issue 33): what each value means, and the walk through
 * X-Forwarded-For / Forwarded that decides who the client is (api/client-ip.ts), as Express's `trust proxy`.
 */
import { describe, expect, it } from 'vitest';
import { clientAddress, forwardedChain } from '../../api/client-ip';
import { isAllowedHost, misdirectedHostError } from '../../api/host-check';
import { UsageError } from '../cli-flags';
import { listenerFlags } from '../listener-flags';

describe('listenerFlags', () => {
  it('reads names, a hop count, and address lists (comma-separated or repeated)', () => {
    expect(listenerFlags({})).toEqual({});
    expect(listenerFlags({ 'public-host': ['Keeper.Example.com.', '*.fleet.example'], 'trust-proxy': ['1'] })).toEqual({
      publicHosts: ['keeper.example.com', '*.fleet.example'],
      trustProxy: 1,
    });
    expect(listenerFlags({ 'trust-proxy': ['127.0.0.1,::1', '10.0.0.0/8', 'loopback'] })).toEqual({ trustProxy: ['127.0.0.1', '::1', '10.0.0.0/8', 'loopback'] });
  });

  it.each([
    [{ 'public-host': ['http://keeper.example.com'] }, /--public-host must be a host name/],
    [{ 'public-host': ['keeper.example.com:7300'] }, /--public-host must be a host name/],
    [{ 'public-host': ['keeper.example.com/v1'] }, /--public-host must be a host name/],
    [{ 'public-host': [''] }, /--public-host must be a host name/],
    [{ 'trust-proxy': ['0'] }, /a count is one integer from 1 to 16/],
    [{ 'trust-proxy': ['1,127.0.0.1'] }, /a count is one integer/],
    [{ 'trust-proxy': ['yes'] }, /got 'yes'/],
    [{ 'trust-proxy': ['10.0.0.0/33'] }, /got '10.0.0.0\/33'/],
    [{ 'trust-proxy': [','] }, /--trust-proxy takes the number of proxies/],
  ])('refuses %j in one line', (values, message) => {
    expect(() => listenerFlags(values)).toThrow(UsageError);
    expect(() => listenerFlags(values)).toThrow(message);
  });
});

describe('who the client is behind proxies', () => {
  const chain = forwardedChain('6.6.6.6, 203.0.113.7, 10.0.0.2', undefined);

  it('with a hop count, takes the entry that many hops left of the socket (the left-most when there are fewer)', () => {
    expect(clientAddress('127.0.0.1', chain, false)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', chain, true)).toBe('10.0.0.2');
    expect(clientAddress('127.0.0.1', chain, 2)).toBe('203.0.113.7');
    expect(clientAddress('127.0.0.1', chain, 9)).toBe('6.6.6.6');
    expect(clientAddress('127.0.0.1', [], 1)).toBe('127.0.0.1');
  });

  it('with addresses, walks left while the hop that added an entry is trusted (CIDR, IPv4-mapped, names)', () => {
    expect(clientAddress('::ffff:127.0.0.1', chain, ['127.0.0.1'])).toBe('10.0.0.2');
    expect(clientAddress('127.0.0.1', chain, ['127.0.0.1', '10.0.0.0/8'])).toBe('203.0.113.7');
    expect(clientAddress('127.0.0.1', chain, ['loopback', 'uniquelocal'])).toBe('203.0.113.7');
    // Not from a trusted proxy: the header is the caller's own words.
    expect(clientAddress('198.51.100.4', chain, ['127.0.0.1'])).toBe('198.51.100.4');
  });

  it('stops at an entry that is not an address, and reads Forwarded only without X-Forwarded-For', () => {
    expect(clientAddress('127.0.0.1', forwardedChain('1.2.3.4, garbage', undefined), 2)).toBe('127.0.0.1');
    expect(forwardedChain(undefined, 'for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711", for=unknown, for=192.0.2.9:80')).toEqual([
      '192.0.2.60',
      '2001:db8:cafe::17',
      null,
      '192.0.2.9',
    ]);
    expect(forwardedChain('203.0.113.1', 'for=6.6.6.6')).toEqual(['203.0.113.1']);
  });
});

describe('the Host check', () => {
  it('allows loopback names, IP literals and the given names; refuses the rest, naming the next step', () => {
    for (const host of ['localhost:7300', 'app.localhost', '127.0.0.1:7300', '[::1]:7300', '192.168.1.5', 'keeper.example.com', 'a.fleet.example', undefined])
      expect(isAllowedHost(host, ['keeper.example.com', '*.fleet.example'])).toBe(true);
    for (const host of ['evil.example', 'localhost.evil.example', 'fleet.example', 'keeper.example.com.evil.example', '', 'a b'])
      expect(isAllowedHost(host, ['keeper.example.com', '*.fleet.example'])).toBe(false);
    expect(misdirectedHostError('evil.example:7300')).toBe(
      'this server does not answer to the name "evil.example": reach it by 127.0.0.1 or localhost, or start it with --public-host evil.example if that name is yours',
    );
  });
});
