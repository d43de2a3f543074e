/** Settings → RPC's one table: a wrong scheme and one endpoint too many are refused by the core, the flags and the forms alike. */
import { describe, expect, it } from 'vitest';
import { MAX_EXTRA_ENDPOINTS } from '../../src-shared/settings/rpc-endpoints';
import { validateSettingsChanges } from '../runtime/console-settings';
import { endpointFlags } from '../commands/endpoint-flags';
import { clusterFromForm } from '../../src-renderer/src/model/settings-form';
import { addEndpoint } from '../../src-renderer/src/model/rpc-endpoints';

const cluster = (fields: Record<string, unknown>) => ({ cluster: { kind: 'rpc', rpcUrl: 'https://a.example', wsUrl: null, ...fields } }) as never;

describe('the RPC endpoints table', () => {
  it('refuses an RPC URL of another scheme in the core, the flags and the forms', () => {
    expect(() => validateSettingsChanges(cluster({ rpcUrl: 'ftp://a' }))).toThrow(/the RPC URL must be an http:\/\/ or https:\/\/ URL/);
    expect(() => validateSettingsChanges(cluster({ fallbackRpcUrls: ['ftp://b'] }))).toThrow(/must be an http:\/\/ or https:\/\/ URL/);
    expect(() => endpointFlags({ rpc: ['ftp://a'] })).toThrow(/^--rpc .* must be an http\(s\):\/\/ URL/);
    expect(() => endpointFlags({ rpc: ['https://a'], 'send-rpc': ['ftp://b'] })).toThrow(/--send-rpc/);
    expect(clusterFromForm('custom', 'ftp://a', '').errors.rpcUrl).toMatch(/must start with http:\/\/ or https:\/\//);
    expect(addEndpoint([], 'ftp://b', 'https://a', 'fallback')).toMatchObject({ error: expect.stringMatching(/^Enter an http:\/\/ or https:\/\/ URL/) });
  });

  it('refuses a WebSocket URL of another scheme in the core, the flags and the form', () => {
    expect(() => validateSettingsChanges(cluster({ wsUrl: 'https://a' }))).toThrow(/the WebSocket URL must be a ws:\/\/ or wss:\/\/ URL/);
    expect(() => endpointFlags({ rpc: ['https://a'], ws: ['https://a'] })).toThrow(/--ws must be a ws:\/\/ or wss:\/\/ URL/);
    expect(endpointFlags({ rpc: ['https://a'], ws: ['wss://a'] })?.reads[0]?.wsUrl).toBe('wss://a');
    expect(clusterFromForm('custom', 'https://a', 'https://a').errors.wsUrl).toMatch(/must start with ws:\/\/ or wss:\/\//);
  });

  it(`keeps at most ${MAX_EXTRA_ENDPOINTS} fallback and send endpoints, in the core and the form`, () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://rpc${i}.example`);
    expect(validateSettingsChanges(cluster({ fallbackRpcUrls: urls(MAX_EXTRA_ENDPOINTS) }))).toBeTruthy();
    expect(() => validateSettingsChanges(cluster({ sendRpcUrls: urls(MAX_EXTRA_ENDPOINTS + 1) }))).toThrow(`at most ${MAX_EXTRA_ENDPOINTS} send endpoints`);
    expect(addEndpoint(urls(MAX_EXTRA_ENDPOINTS - 1), 'https://last.example', 'https://a', 'send')).toHaveProperty('list');
    expect(addEndpoint(urls(MAX_EXTRA_ENDPOINTS), 'https://more.example', 'https://a', 'send')).toEqual({ error: `At most ${MAX_EXTRA_ENDPOINTS} send endpoints: remove one first.` });
  });
});
