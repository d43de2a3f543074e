/** Settings → RPC as saved: fallback and send endpoints of an RPC cluster are checked, and become the keeper's read and send endpoints. */
import { describe, expect, it } from 'vitest';
import { clusterEndpoints } from '../../runtime/chain-side';
import { validateSettingsChanges } from '../../runtime/console-settings';

const rpc = { kind: 'rpc' as const, rpcUrl: 'https://rpc-a.example', wsUrl: null };

describe('RPC endpoint settings', () => {
  it('saves fallbacks and send endpoints trimmed, each once, without the preferred URL among the fallbacks', () => {
    const { cluster } = validateSettingsChanges({
      cluster: {
        ...rpc,
        fallbackRpcUrls: [' https://rpc-b.example/ ', 'https://rpc-b.example', 'https://rpc-a.example'],
        sendRpcUrls: ['https://sender.example/?api-key=k'],
      },
    });
    expect(cluster).toEqual({
      ...rpc,
      fallbackRpcUrls: ['https://rpc-b.example'],
      sendRpcUrls: ['https://sender.example/?api-key=k'],
    });
  });

  it('leaves empty lists out, so a cluster without extras is saved as before', () => {
    expect(
      validateSettingsChanges({ cluster: { ...rpc, fallbackRpcUrls: [], sendRpcUrls: [] } }).cluster,
    ).toEqual(rpc);
  });

  it('refuses an endpoint that is not an http(s) URL, and more than 8, saying what to do', () => {
    expect(() =>
      validateSettingsChanges({ cluster: { ...rpc, fallbackRpcUrls: ['rpc-b.example:8899'] } }),
    ).toThrow(/fallback read endpoint must be an http:\/\/ or https:\/\/ URL/);
    expect(() => validateSettingsChanges({ cluster: { ...rpc, sendRpcUrls: ['wss://x.example'] } })).toThrow(
      /send endpoint must be/,
    );
    const nine = Array.from({ length: 9 }, (_, index) => `https://rpc-${index}.example`);
    expect(() => validateSettingsChanges({ cluster: { ...rpc, fallbackRpcUrls: nine } })).toThrow(
      /at most 8 .*remove some first/,
    );
  });

  it('reads from the preferred RPC first, then each fallback with its own WebSocket; sends also to the send endpoints', () => {
    const endpoints = clusterEndpoints(
      { ...rpc, fallbackRpcUrls: ['http://127.0.0.1:9000'], sendRpcUrls: ['https://sender.example'] },
      'wss://ws-a.example',
    );
    expect(endpoints).toEqual({
      reads: [
        { rpcUrl: 'https://rpc-a.example', wsUrl: 'wss://ws-a.example' },
        { rpcUrl: 'http://127.0.0.1:9000', wsUrl: 'ws://127.0.0.1:9001' },
      ],
      sends: ['https://sender.example'],
    });
  });
});
