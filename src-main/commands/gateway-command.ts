/**
 * `wager-keeper gateway --rpc URL [--rpc URL ...] [--ws URL ...] [--send-rpc URL ...] [--deployment FILE] [--keeper URL] [--port 7400] [--host 127.0.0.1] [--keypair FILE]
 *   [--public-host NAME ...] [--trust-proxy HOPS|ADDRESS,...]
 *   [--db FILE] [--paytables NAME,...] [--min-amount 0.10] [--max-amount 100.00] [--fee 0.00] [--sol-price USD]`
 * The x402 gateway alone, against any cluster with a deployment (--deployment FILE, or found by the RPC's
 * genesis hash): an HTTP-only caller opens a wager with one paid request (docs/gateway.md). Its key comes
 * from the OS keychain (account "gateway", created on first run) or --keypair, and must hold SOL and USDC
 * (its working capital). Prints one ready line.
 */
import { deploymentSummary } from '../protocol/deployment';
import { resolveDeploymentForRpc } from '../deployment/deployment-resolver';
import { parseUsdcAmount } from '../protocol/usdc-amount';
import { loadKeeperKey } from '../secrets/keeper-key';
import { remoteKeeper } from '../gateway/gateway';
import type { GatewayLimits } from '../gateway/gateway-order';
import { serveGateway } from '../gateway/gateway-server';
import { FeeBelowCostError } from '../gateway/gateway-costs';
import { DEFAULT_API_PORT, DEFAULT_GATEWAY_PORT } from './command-defaults';
import { parseFlags, portFlag, UsageError } from './cli-flags';
import { untilSignal } from './until-signal';
import { ENDPOINT_OPTIONS, endpointFlags } from './endpoint-flags';
import { LISTENER_OPTIONS, listenerFlags } from './listener-flags';

export { DEFAULT_GATEWAY_PORT };
export const GATEWAY_KEYCHAIN_ACCOUNT = 'gateway';

/** The flags of `gateway` (the usage text in cli.ts lists each; a test checks). */
export const GATEWAY_OPTIONS = {
  ...ENDPOINT_OPTIONS,
  deployment: { type: 'string' },
  keeper: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  ...LISTENER_OPTIONS,
  keypair: { type: 'string' },
  db: { type: 'string', default: 'gateway.db' },
  paytables: { type: 'string' },
  'min-amount': { type: 'string', default: '0.10' },
  'max-amount': { type: 'string', default: '100.00' },
  fee: { type: 'string', default: '0.00' },
  'sol-price': { type: 'string' },
} as const;

/** --sol-price: USD per SOL (needed on mainnet-beta, where --fee must cover a wager's SOL cost). */
export function solPriceFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const price = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  if (!(price > 0)) throw new UsageError(`--sol-price must be the USD price of 1 SOL, a number above 0 like 150.25 (got '${text}')`);
  return price;
}

/** --min-amount, --max-amount and --fee as USDC base units, checked together. */
export function gatewayLimitsFlags(values: { 'min-amount': string; 'max-amount': string; fee: string }): GatewayLimits {
  const amount = (flag: string, text: string, zeroAllowed = false) => {
    if (zeroAllowed && /^0+(\.0+)?$/.test(text.trim())) return 0n;
    try {
      return parseUsdcAmount(text);
    } catch (error) {
      throw new UsageError(`--${flag}: ${(error as Error).message}`);
    }
  };
  const limits = { minStake: amount('min-amount', values['min-amount']), maxStake: amount('max-amount', values['max-amount']), fee: amount('fee', values.fee, true) };
  if (limits.minStake > limits.maxStake) throw new UsageError('--min-amount is above --max-amount');
  return limits;
}

export async function gatewayCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, GATEWAY_OPTIONS);
  const endpoints = endpointFlags(values);
  if (!endpoints) throw new UsageError('missing --rpc URL (the cluster the gateway opens wagers on)');
  const rpcUrl = endpoints.reads[0]!.rpcUrl;
  const wsUrl = (values.ws ?? []).length > 0 ? endpoints.reads[0]!.wsUrl : undefined;
  const port = portFlag('port', values.port, DEFAULT_GATEWAY_PORT);
  const limits = gatewayLimitsFlags(values);
  const listeners = listenerFlags(values);
  const solPriceUsd = solPriceFlag(values['sol-price']);
  const keeperUrl = (values.keeper ?? `http://127.0.0.1:${DEFAULT_API_PORT}`).replace(/\/$/, '');
  const { deployment } = await resolveDeploymentForRpc(rpcUrl, { file: values.deployment });
  const paytables = values.paytables ? values.paytables.split(',').map((name) => name.trim()).filter(Boolean) : deployment.paytables.map((p) => p.name);
  const key = await loadKeeperKey({ keypairFile: values.keypair, account: GATEWAY_KEYCHAIN_ACCOUNT });
  const served = await serveGateway({
    ...(solPriceUsd === undefined ? {} : { solPriceUsd }),
    rpcUrl,
    // Confirmations come from a logs subscription here; by default at the RPC's port + 1, as the Solana CLI assumes.
    ...(wsUrl ? { wsUrl } : {}),
    endpoints,
    signer: key.signer,
    dbPath: values.db,
    deployment,
    paytables,
    limits,
    keeper: remoteKeeper(keeperUrl),
    port,
    host: values.host,
    portFlag: '--port',
    ...listeners,
  }).catch((error: unknown) => {
    // A fee below a wager's SOL cost on mainnet-beta is the operator's flag to fix: exit 2, one line.
    throw error instanceof FeeBelowCostError ? new UsageError(error.message) : error;
  });
  console.log(
    JSON.stringify({
      event: 'ready',
      gateway: served.url,
      network: served.gateway.network,
      deployment: deploymentSummary(deployment),
      address: served.gateway.address,
      keySource: key.source,
      keeper: keeperUrl,
      db: values.db,
      paytables,
    }),
  );
  const signal = await untilSignal();
  await served.stop();
  console.log(JSON.stringify({ event: 'stopped', signal }));
  return 0;
}
