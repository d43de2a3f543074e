/**
 * `wager-keeper keeper --rpc URL [--rpc URL ...] [--ws URL ...] [--send-rpc URL ...] [--deployment FILE] [--port 7300] [--host 127.0.0.1] [--db FILE] [--keypair FILE]
 *   [--priority-fee auto|MICROLAMPORTS [--priority-fee-percentile 75] [--priority-fee-multiplier 1] [--min-priority-fee N] [--max-priority-fee N]] [--metrics-port N] [--max-in-flight 128] [--cors-origin ORIGIN ...]
 *   [--public-host NAME ...] [--trust-proxy HOPS|ADDRESS,...]
 *   [--faucet-mint MINT --faucet-authority FILE]
 *   [--guardian-keypair FILE [--guardian-pause-after-slots 60] [--guardian-resume-after-slots 20]]
 *   [--shard I/N [--shard-takeover-slots 20]]`
 * Runs the crank loop and the /v1 API against any cluster with a deployment: --deployment FILE, or one
 * found by the cluster's genesis hash (with none known it exits 1 saying so). The faucet is served only on a test network:
 * a wager-keeper localnet (its manifest names the test USDC mint authority), or a cluster other than
 * mainnet-beta given `--faucet-mint MINT --faucet-authority FILE` (the test USDC's mint authority).
 * With `--guardian-keypair FILE` the guardian runs beside the keeper and pauses new wagers when the oracle
 * stalls (src-main/keeper/guardian.ts); a key that is not the config's guardian on chain exits 1.
 */
import { address, isAddress } from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { deploymentSummary } from '../protocol/deployment';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { readKeypairFile } from '../secrets/keypair-bytes';
import { shardLabel } from '../keeper/shard';
import { ALERT_THRESHOLD_OPTIONS, alertThresholdFlags } from './alert-threshold-flags';
import { alertWebhookFlags, heartbeatFlags, integerFlag, parseFlags, portFlag, shardFlags, UsageError, keepHistoryFlag } from './cli-flags';
import { runConsoleHost } from './console-host';
import { SWEEP_FLAG_OPTIONS, sweepFlags } from './sweep-flags';
import { FAUCET_FLAG_OPTIONS, faucetFlags } from './faucet-flags';
import { PRIORITY_FEE_OPTIONS, priorityFeeFlags } from './priority-fee-flags';
import { DEFAULT_API_PORT } from './command-defaults';
import { clusterOfEndpoints, ENDPOINT_OPTIONS, endpointFlags } from './endpoint-flags';
import { LISTENER_OPTIONS, listenerFlags } from './listener-flags';
import { MAINNET_BETA_GENESIS_HASH } from '../../src-shared/cluster-identity';

/** mainnet-beta's genesis hash: the faucet never runs there, whatever the flags say. */

async function configuredFaucet(rpcUrl: string, mint: string | undefined, authorityFile: string | undefined) {
  if (mint === undefined && authorityFile === undefined) return undefined;
  if (!mint || !authorityFile) throw new UsageError('--faucet-mint and --faucet-authority go together');
  if (!isAddress(mint)) throw new UsageError('--faucet-mint must be a base58 address');
  const genesis = await createChainRpc(rpcUrl).getGenesisHash().send();
  if (genesis === MAINNET_BETA_GENESIS_HASH) throw new Error('the faucet only runs on a test network, and this RPC is mainnet-beta');
  return { mint: address(mint), mintAuthority: await readKeypairFile(authorityFile) };
}

/** The flags of `keeper` (the usage text in cli.ts lists each; a test checks). */
export const KEEPER_OPTIONS = {
  ...ENDPOINT_OPTIONS,
  deployment: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  db: { type: 'string' },
  keypair: { type: 'string' },
  ...PRIORITY_FEE_OPTIONS,
  'metrics-port': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  ...LISTENER_OPTIONS,
  'faucet-mint': { type: 'string' },
  'max-in-flight': { type: 'string' },
  'faucet-authority': { type: 'string' },
  'guardian-keypair': { type: 'string' },
  'guardian-pause-after-slots': { type: 'string' },
  'guardian-resume-after-slots': { type: 'string' },
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

export async function keeperCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, KEEPER_OPTIONS);
  const endpoints = endpointFlags(values);
  if (!endpoints) throw new UsageError('missing --rpc URL (the cluster to crank on)');
  const rpcUrl = endpoints.reads[0]!.rpcUrl;
  const priorityFee = priorityFeeFlags(values);
  // Every flag is checked before the key is loaded or anything starts.
  if ((values['faucet-mint'] === undefined) !== (values['faucet-authority'] === undefined))
    throw new UsageError('--faucet-mint and --faucet-authority go together');
  const apiPort = portFlag('port', values.port, DEFAULT_API_PORT);
  const metricsPort = portFlag('metrics-port', values['metrics-port']);
  const maxInFlight = values['max-in-flight'] === undefined ? undefined : integerFlag('max-in-flight', values['max-in-flight'], 1, 1);
  const guardian = guardianFlags(values);
  const shard = shardFlags(values);
  const alertWebhooks = alertWebhookFlags(values);
  const heartbeat = heartbeatFlags(values);
  const alertThresholds = alertThresholdFlags(values);
  const sweep = sweepFlags(values);
  const faucetLimits = faucetFlags(values);
  const keepHistoryMs = keepHistoryFlag(values['keep-history']);
  const listeners = listenerFlags(values);
  const localnet = await fetchLocalnetManifest(rpcUrl).catch(() => null);
  // A wager-keeper localnet brings its own faucet (the service reads its manifest); elsewhere the flags name one.
  const faucet = localnet && !localnet.bare ? undefined : await configuredFaucet(rpcUrl, values['faucet-mint'], values['faucet-authority']);
  return runConsoleHost({
    console: !values['no-console'],
    ...(values['log-file'] ? { logFile: values['log-file'] } : {}),
    devKeyOnLocalnet: false,
    flags: {
      cluster: clusterOfEndpoints(endpoints, (values.ws ?? []).length > 0),
      endpoints,
      ...(values.deployment ? { deploymentFile: values.deployment } : {}),
      dbPath: values.db,
      keypairFile: values.keypair,
      apiPort,
      apiHost: values.host,
      corsOrigins: values['cors-origin'],
      metricsPort,
      ...listeners,
      ...priorityFee,
      ...(maxInFlight === undefined ? {} : { maxInFlight }),
      ...(faucet ? { faucet } : {}),
      ...guardian,
      ...(shard ? { shard } : {}),
      ...(alertWebhooks ? { alertWebhooks } : {}),
      ...heartbeat,
      ...(alertThresholds ? { alertThresholds } : {}),
      ...(sweep ? { sweep } : {}),
      ...faucetLimits,
      ...(keepHistoryMs ? { keepHistoryMs } : {}),
    },
    readyLine: (described) => ({
      api: described.apiUrl,
      keeper: described.keeper,
      keySource: described.keySource,
      rpcUrl,
      genesisHash: described.genesisHash,
      network: described.network,
      deployment: described.deployment ? deploymentSummary(described.deployment) : null,
      faucet: described.faucet,
      corsOrigins: described.corsOrigins,
      ...(described.metricsUrl ? { metrics: `${described.metricsUrl}/metrics` } : {}),
      ...(described.guardian ? { guardian: described.guardian.address } : {}),
      ...(shard ? { shard: shardLabel(shard), shardTakeoverSlots: shard.takeoverSlots } : {}),
    }),
  });
}

/** --guardian-keypair and its thresholds (which mean nothing without it; a pause past T_SETTLE = 150 would come too late). */
function guardianFlags(values: { 'guardian-keypair'?: string; 'guardian-pause-after-slots'?: string; 'guardian-resume-after-slots'?: string }) {
  const file = values['guardian-keypair'];
  const pause = values['guardian-pause-after-slots'];
  const resume = values['guardian-resume-after-slots'];
  if (file === undefined) {
    if (pause !== undefined || resume !== undefined) throw new UsageError('--guardian-pause-after-slots and --guardian-resume-after-slots go with --guardian-keypair FILE');
    return {};
  }
  if (file === '') throw new UsageError('--guardian-keypair needs the path of the guardian\'s keypair file');
  const pauseAfter = pause === undefined ? undefined : integerFlag('guardian-pause-after-slots', pause, 1, 1);
  if (pauseAfter !== undefined && pauseAfter >= 150) throw new UsageError(`--guardian-pause-after-slots must be below 150 (T_SETTLE: waiting wagers expire then), got ${pauseAfter}`);
  const resumeAfter = resume === undefined ? undefined : integerFlag('guardian-resume-after-slots', resume, 1, 1);
  return {
    guardianKeypairFile: file,
    ...(pauseAfter === undefined ? {} : { guardianPauseAfterSlots: pauseAfter }),
    ...(resumeAfter === undefined ? {} : { guardianResumeAfterSlots: resumeAfter }),
  };
}
