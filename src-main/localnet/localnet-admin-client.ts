/** Calls the localnet's own `localnet_*` JSON-RPC methods (kit's RPC client only knows Solana's). */
import { createLogger } from '../logging';
import type { AnyLocalnetManifest } from './localnet';
import { assertManifestChain, assertManifestEndpoint, ManifestNotTrusted } from './manifest-trust';

/** The RPC answered, and what it said was a refusal (e.g. -32601: not a wager-keeper localnet). */
export class LocalnetMethodRefused extends Error {}

const ATTEMPTS = 4;
/**
 * One call; a transport fault (connection cut, HTTP 429/5xx) is tried again a few times, so that a flaky
 * RPC is not taken for "not a localnet". Only an answer (a JSON-RPC result or error) is believed.
 */
async function call<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(15_000),
      });
      if (response.status === 429 || response.status >= 500) throw new Error(`${method}: HTTP ${response.status} ${response.statusText}`);
      if (!response.ok) throw new LocalnetMethodRefused(`${method}: HTTP ${response.status} ${response.statusText}`);
      const body = (await response.json()) as { result?: T; error?: { message: string } };
      if (body.error) throw new LocalnetMethodRefused(`${method}: ${body.error.message}`);
      return body.result as T;
    } catch (error) {
      if (error instanceof LocalnetMethodRefused || attempt >= ATTEMPTS) throw error;
      const retryAfter = (error as Error).message.includes('HTTP 429') ? 1_000 : 200 * attempt;
      await new Promise((resolve) => setTimeout(resolve, retryAfter));
    }
  }
}

/**
 * The manifest of the localnet at `rpcUrl`, full or bare (check `bare` before using its programs of ours):
 * the one way the project reads a manifest, so its trust rule (manifest-trust.ts) is never skipped. An
 * endpoint off this machine is not asked at all (ManifestNotTrusted); one on it is asked its genesis
 * hash first, and a public cluster's, or a manifest of another chain, is refused with a warning logged.
 */
export async function fetchLocalnetManifest(rpcUrl: string): Promise<AnyLocalnetManifest> {
  assertManifestEndpoint(rpcUrl);
  const genesisHash = await call<string>(rpcUrl, 'getGenesisHash');
  const manifest = await call<AnyLocalnetManifest>(rpcUrl, 'localnet_manifest');
  try {
    assertManifestChain(rpcUrl, genesisHash, manifest);
  } catch (error) {
    // Never on a localnet of ours: something on this machine answers as one while serving another chain.
    if (error instanceof ManifestNotTrusted) createLogger('localnet-manifest').warn({ reason: error.message }, 'ignored a localnet manifest');
    throw error;
  }
  return manifest;
}
export const stallLocalOracle = (rpcUrl: string) => call<boolean>(rpcUrl, 'localnet_stallOracle');
export const resumeLocalOracle = (rpcUrl: string) => call<boolean>(rpcUrl, 'localnet_resumeOracle');
export const localOracleStatus = (rpcUrl: string) => call<{ stalled: boolean; pending: number }>(rpcUrl, 'localnet_oracleStatus');
export const advanceLocalSlots = (rpcUrl: string, slots = 1) => call<number>(rpcUrl, 'localnet_advanceSlots', [slots]);
