/**
 * `--rpc URL` (repeatable, the first preferred), `--ws URL` (once for every endpoint, or once per --rpc)
 * and `--send-rpc URL` (repeatable): the flags of keeper, serve and gateway that name RPC endpoints
 * (issue 27), turned into ChainEndpoints and the cluster setting the operator starts on.
 */
import { endpointsFromFlags, type ChainEndpoints } from '../chain/rpc-endpoints';
import { hasProtocol, WS_URL_PROTOCOLS } from '../../src-shared/settings/rpc-endpoints';
import { UsageError } from './cli-flags';

export const ENDPOINT_OPTIONS = {
  rpc: { type: 'string', multiple: true },
  ws: { type: 'string', multiple: true },
  'send-rpc': { type: 'string', multiple: true },
} as const;

/** The endpoints the flags name, or undefined without --rpc; a bad combination is a UsageError (one sentence). */
export function endpointFlags(values: { rpc?: string[]; ws?: string[]; 'send-rpc'?: string[] }): ChainEndpoints | undefined {
  const rpc = values.rpc ?? [];
  const ws = values.ws ?? [];
  const sends = values['send-rpc'] ?? [];
  if (rpc.length === 0) {
    if (ws.length > 0 || sends.length > 0) throw new UsageError('--ws and --send-rpc go with --rpc URL (the cluster to read from)');
    return undefined;
  }
  for (const url of ws) if (!hasProtocol(url, WS_URL_PROTOCOLS)) throw new UsageError(`--ws must be a ws:// or wss:// URL (got '${url}')`);
  try {
    return endpointsFromFlags(rpc, ws, sends);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The RPC cluster setting for these endpoints (the first read endpoint, the other reads as fallbacks). */
export function clusterOfEndpoints(endpoints: ChainEndpoints, explicitWs: boolean) {
  const [preferred, ...fallbacks] = endpoints.reads;
  return {
    kind: 'rpc' as const,
    rpcUrl: preferred!.rpcUrl,
    wsUrl: explicitWs ? preferred!.wsUrl : null,
    ...(fallbacks.length > 0 ? { fallbackRpcUrls: fallbacks.map((r) => r.rpcUrl) } : {}),
    ...(endpoints.sends.length > 0 ? { sendRpcUrls: endpoints.sends } : {}),
  };
}
