/** Calls the localnet's own `localnet_*` JSON-RPC methods (kit's RPC client only knows Solana's). */
import type { AnyLocalnetManifest } from './localnet';

async function call<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${response.statusText}`);
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** The manifest of the localnet at `rpcUrl`, full or bare (check `bare` before using its programs of ours). */
export const fetchLocalnetManifest = (rpcUrl: string) => call<AnyLocalnetManifest>(rpcUrl, 'localnet_manifest');
export const stallLocalOracle = (rpcUrl: string) => call<boolean>(rpcUrl, 'localnet_stallOracle');
export const resumeLocalOracle = (rpcUrl: string) => call<boolean>(rpcUrl, 'localnet_resumeOracle');
export const localOracleStatus = (rpcUrl: string) => call<{ stalled: boolean; pending: number }>(rpcUrl, 'localnet_oracleStatus');
export const advanceLocalSlots = (rpcUrl: string, slots = 1) => call<number>(rpcUrl, 'localnet_advanceSlots', [slots]);
