/** Settings → RPC's cells, the status line's failover notice, the Overview's fee line and the endpoint form's checks, as an operator reads them. */
import { describe, expect, it } from 'vitest';
import type { RpcEndpointStatus } from '@shared/contract/status';
import {
  addEndpoint,
  errorRateText,
  failoverNotice,
  latencyText,
  priorityFeeText,
  retryText,
  savedEndpointsText,
  roleText,
  slotText,
  stateText,
} from '../rpc-endpoints';

const endpoint = (overrides: Partial<RpcEndpointStatus>): RpcEndpointStatus => ({
  label: 'https://a.example',
  role: 'read',
  preferred: false,
  inUse: false,
  state: 'healthy',
  reason: null,
  retryAt: null,
  latencyMs: 40,
  errorRate: 0,
  slot: 1000,
  slotsBehind: 0,
  ...overrides,
});

describe('an endpoint in Settings → RPC', () => {
  it('says its role, its state with the reason, and each figure with its unit', () => {
    expect(roleText(endpoint({ preferred: true }))).toBe('read, preferred');
    expect(roleText(endpoint({}))).toBe('read, fallback');
    expect(roleText(endpoint({ role: 'send' }))).toBe('send only');
    expect(stateText(endpoint({ state: 'set-aside', reason: 'connection refused' }))).toBe(
      'set aside: connection refused',
    );
    expect(stateText(endpoint({ state: 'unchecked' }))).toBe('not checked yet');
    expect(latencyText(1234.4)).toBe('1,234 ms');
    expect(latencyText(null)).toBe('—');
    expect([0, 0.004, 0.256, 1].map(errorRateText)).toEqual(['0 %', '< 1 %', '26 %', '100 %']);
    expect(slotText(endpoint({ slot: 312_300, slotsBehind: 45 }))).toBe('312,300 (45 slots behind)');
    expect(slotText(endpoint({ slot: null, slotsBehind: null }))).toBe('—');
    expect(retryText('2026-11-27T10:00:12.000Z', Date.parse('2026-11-27T10:00:00Z'))).toBe('in 12 s');
    expect(retryText(null, 0)).toBe('—');
  });
});

describe('the status line', () => {
  const preferred = endpoint({
    label: 'https://a.example/***',
    preferred: true,
    state: 'set-aside',
    reason: 'connection refused',
  });
  const fallback = endpoint({ label: 'https://b.example', inUse: true });
  it('names the endpoint it failed over to, and on hover why the preferred one was set aside', () => {
    const notice = failoverNotice({
      endpoints: [preferred, fallback],
      failedOver: true,
      since: '2026-11-27T10:00:00.000Z',
    });
    expect(notice?.text).toBe('RPC: failed over to https://b.example');
    expect(notice?.title).toContain(
      'https://a.example/*** was set aside: connection refused (since 2026-11-27 10:00:00 UTC)',
    );
  });
  it('says nothing while reads go to the preferred endpoint', () => {
    expect(
      failoverNotice({
        endpoints: [{ ...preferred, inUse: true, state: 'healthy' }, fallback],
        failedOver: false,
        since: null,
      }),
    ).toBeNull();
    expect(failoverNotice(undefined)).toBeNull();
  });
});

describe('the fee line', () => {
  it('says the fee in micro-lamports per CU and why', () => {
    expect(
      priorityFeeText({ mode: 'auto', microLamports: 1200, why: 'p75 of recent fees × 1.2', at: null }),
    ).toBe('Priority fee 1,200 µL/CU — p75 of recent fees × 1.2');
    expect(
      priorityFeeText({ mode: 'fixed', microLamports: 0, why: 'none set (--priority-fee 0)', at: null }),
    ).toBe('Priority fee 0 µL/CU — none set (--priority-fee 0)');
  });
});

describe('adding an endpoint in Settings → RPC', () => {
  it('takes an http(s) URL (trimmed) and refuses the preferred RPC, a duplicate, a ninth and anything else with what to do', () => {
    expect(addEndpoint([], ' https://b.example/ ', 'https://a.example', 'fallback')).toEqual({
      list: ['https://b.example'],
    });
    expect(addEndpoint([], 'b.example:8899', 'https://a.example', 'fallback')).toEqual({
      error: expect.stringMatching(/^Enter an http:\/\/ or https:\/\/ URL/),
    });
    expect(addEndpoint([], 'https://a.example/', 'https://a.example', 'fallback')).toEqual({
      error: expect.stringMatching(/preferred RPC already/),
    });
    expect(addEndpoint(['https://b.example'], 'https://b.example', 'https://a.example', 'send')).toEqual({
      error: 'That endpoint is listed already.',
    });
    const eight = Array.from({ length: 8 }, (_, index) => `https://s${index}.example`);
    expect(addEndpoint(eight, 'https://s9.example', 'https://a.example', 'send')).toEqual({
      error: 'At most 8 send endpoints: remove one first.',
    });
  });
});

describe('after saving Settings → RPC', () => {
  it('counts the read and send endpoints the keeper restarted on', () => {
    const cluster = { kind: 'rpc' as const, rpcUrl: 'https://a.example', wsUrl: null };
    expect(savedEndpointsText({ ...cluster, fallbackRpcUrls: ['https://b.example'] }, true)).toBe(
      'Saved: the keeper restarted on 2 read endpoints.',
    );
    expect(savedEndpointsText({ ...cluster, sendRpcUrls: ['https://s.example'] }, true)).toBe(
      'Saved: the keeper restarted on 1 read endpoint and 1 send endpoint.',
    );
  });
});
