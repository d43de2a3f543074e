/**
 * `wager-keeper serve [--port 7300] [--host 127.0.0.1] [--cors-origin ORIGIN ...] [--public-host NAME ...] [--trust-proxy HOPS|ADDRESS,...] [--rpc URL ... [--ws URL ...] [--send-rpc URL ...] [--deployment FILE] | --rpc-port 8899 [--slot-ms 400]]
 *   [--db FILE] [--keypair FILE] [--metrics-port N] [--shard I/N [--shard-takeover-slots 20]] [--no-console]`
 * Everything on one machine: the embedded localnet (unless --rpc), the keeper with the faucet, the /v1 API
 * and the operator console (UI + operator API, loopback only, per-run token); prints one ready line with
 * `api`, `rpcUrl`, the `deployment`, the localnet manifest and the `console` URL. The API binds 127.0.0.1
 * unless --host. With --rpc the deployment is --deployment FILE or found by the cluster's genesis hash;
 * with none known, serve exits 1 saying so.
 */
import { ALERT_THRESHOLD_OPTIONS, alertThresholdFlags } from './alert-threshold-flags';
import { alertWebhookFlags, heartbeatFlags, parseFlags, portFlag, integerFlag, shardFlags, UsageError, keepHistoryFlag } from './cli-flags';
import { shardLabel } from '../keeper/shard';
import { generateKeyPairSigner } from '@solana/kit';
import { deploymentSummary } from '../protocol/deployment';
import { dirname, join } from 'node:path';
import { remoteKeeper } from '../gateway/gateway';
import { serveGateway } from '../gateway/gateway-server';
import { fundLocalGateway } from '../gateway/local-gateway-funding';
import { DEFAULT_API_PORT, defaultDatabasePath } from './command-defaults';
import { runConsoleHost } from './console-host';
import { SWEEP_FLAG_OPTIONS, sweepFlags } from './sweep-flags';
import { FAUCET_FLAG_OPTIONS, faucetFlags } from './faucet-flags';
import { DEFAULT_GATEWAY_PORT, gatewayLimitsFlags } from './gateway-command';
import { clusterOfEndpoints, ENDPOINT_OPTIONS, endpointFlags } from './endpoint-flags';
import { LISTENER_OPTIONS, listenerFlags } from './listener-flags';

/** The flags of `serve` (the usage text in cli.ts lists each; a test checks). */
export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  'cors-origin': { type: 'string', multiple: true },
  ...LISTENER_OPTIONS,
  ...ENDPOINT_OPTIONS,
  deployment: { type: 'string' },
  'rpc-port': { type: 'string' },
  'slot-ms': { type: 'string' },
  db: { type: 'string' },
  keypair: { type: 'string' },
  'metrics-port': { type: 'string' },
  'gateway-port': { type: 'string' },
  shard: { type: 'string' },
  'shard-takeover-slots': { type: 'string' },
  'heartbeat-url': { type: 'string' },
  'heartbeat-every': { type: 'string' },
  'alert-webhook': { type: 'string', multiple: true },
  ...ALERT_THRESHOLD_OPTIONS,
  ...SWEEP_FLAG_OPTIONS,
  ...FAUCET_FLAG_OPTIONS,
  'keep-history': { type: 'string' },
  'no-console': { type: 'boolean' },
  'log-file': { type: 'string' },
} as const;

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, SERVE_OPTIONS);
  const endpoints = endpointFlags(values);
  // --rpc means "use that cluster", --rpc-port and --slot-ms shape the embedded one: never both.
  const EMBEDDED_ONLY = { 'rpc-port': 'sets the port of the embedded localnet', 'slot-ms': 'sets the slot time of the embedded localnet' } as const;
  for (const [name, what] of Object.entries(EMBEDDED_ONLY))
    if (values.rpc !== undefined && values[name as keyof typeof EMBEDDED_ONLY] !== undefined)
      throw new UsageError(`--rpc and --${name} are alternatives: --rpc uses that cluster instead of the embedded localnet, --${name} ${what}`);
  if (values.deployment !== undefined && values.rpc === undefined)
    throw new UsageError('--deployment needs --rpc: the embedded localnet brings its own deployment');
  // Every flag is checked before anything starts.
  const apiPort = portFlag('port', values.port, DEFAULT_API_PORT);
  const rpcPort = portFlag('rpc-port', values['rpc-port'], 8899);
  const metricsPort = portFlag('metrics-port', values['metrics-port']);
  const slotMs = integerFlag('slot-ms', values['slot-ms'], 10, 400);
  const gatewayPort = portFlag('gateway-port', values['gateway-port'], DEFAULT_GATEWAY_PORT);
  const shard = shardFlags(values);
  const alertWebhooks = alertWebhookFlags(values);
  const heartbeat = heartbeatFlags(values);
  const alertThresholds = alertThresholdFlags(values);
  const sweep = sweepFlags(values);
  const faucetLimits = faucetFlags(values);
  const keepHistoryMs = keepHistoryFlag(values['keep-history']);
  const listeners = listenerFlags(values);
  return runConsoleHost({
    console: !values['no-console'],
    ...(values['log-file'] ? { logFile: values['log-file'] } : {}),
    devKeyOnLocalnet: true,
    flags: {
      ...(endpoints ? { cluster: clusterOfEndpoints(endpoints, (values.ws ?? []).length > 0), endpoints } : {}),
      embeddedRpcPort: rpcPort,
      embeddedSlotMs: slotMs,
      ...(values.deployment ? { deploymentFile: values.deployment } : {}),
      dbPath: values.db,
      keypairFile: values.keypair || undefined,
      apiPort,
      apiHost: values.host,
      corsOrigins: values['cors-origin'],
      metricsPort,
      ...listeners,
      ...(shard ? { shard } : {}),
      ...(alertWebhooks ? { alertWebhooks } : {}),
      ...heartbeat,
      ...(alertThresholds ? { alertThresholds } : {}),
      ...(sweep ? { sweep } : {}),
      ...faucetLimits,
      ...(keepHistoryMs ? { keepHistoryMs } : {}),
    },
    // On a wager-keeper localnet: the x402 gateway with a fresh, funded key, handing wagers to this keeper.
    companion: async (described) => {
      const { manifest, deployment } = described;
      if (!manifest || !deployment || !described.rpcUrl) return { readyLine: { gateway: null }, stop: async () => undefined };
      const signer = await generateKeyPairSigner();
      await fundLocalGateway(described.rpcUrl, manifest, signer);
      const served = await serveGateway({
        rpcUrl: described.rpcUrl,
        wsUrl: manifest.wsUrl,
        signer,
        dbPath: join(dirname(described.db ?? defaultDatabasePath()), 'gateway.db'),
        deployment,
        paytables: deployment.paytables.map((p) => p.name),
        limits: gatewayLimitsFlags({ 'min-amount': '0.10', 'max-amount': '100.00', fee: '0.00' }),
        keeper: remoteKeeper(described.apiUrl),
        port: gatewayPort,
        host: values.host,
        portFlag: '--gateway-port',
        ...listeners,
      });
      return { readyLine: { gateway: served.url, gatewayAddress: served.gateway.address }, stop: () => served.stop() };
    },
    readyLine: (described) => {
      const manifest = described.manifest;
      return {
        api: described.apiUrl,
        rpcUrl: described.rpcUrl,
        keeper: described.keeper,
        db: described.db,
        corsOrigins: described.corsOrigins,
        genesisHash: described.genesisHash,
        network: described.network,
        deployment: described.deployment ? deploymentSummary(described.deployment) : null,
        ...(described.metricsUrl ? { metrics: `${described.metricsUrl}/metrics` } : {}),
        ...(shard ? { shard: shardLabel(shard), shardTakeoverSlots: shard.takeoverSlots } : {}),
        // A public subset: its keeper cranks with the dev keeper key, which it does not print; no mint authority.
        manifest: manifest
          ? { programs: manifest.programs, usdcMint: manifest.usdcMint, paytables: manifest.paytables, wsUrl: manifest.wsUrl, devKeys: { app: manifest.devKeys.app } }
          : null,
      };
    },
  });
}
