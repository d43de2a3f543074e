/**
 * What a host (the Electron main process, `serve`, `keeper`) passes to the operator service, and how this
 * run's command-line flags sit over the saved settings.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import type { Logger } from 'pino';
import type { SettingsBackend } from './console-settings';
import type { Shard } from '../keeper/shard';
import type { AlertThresholds } from '../../src-shared/alert-types';
import type { AlertWebhookSpec } from '../alerts/channels/webhook-flag';
import { maskUrl } from '../../src-shared/mask-url';
import type { ClusterSetting } from '../../src-shared/contract/cluster';
import type { ConsoleSettings, SettingKey } from '../../src-shared/contract/settings';
import type { ChainEndpoints } from '../chain/rpc-endpoints';
import type { AutoPriorityFeePolicy } from '../chain/priority-fee-estimate';
import type { TrustProxy } from '../api/client-ip';

/** Command-line flags: they fix a setting for this run (shown read-only in Settings) and are never saved. */
export interface OperatorFlags {
  /** --rpc (and --ws): the cluster to start on; without it the host's default (headless: the embedded localnet). */
  cluster?: ClusterSetting;
  /** Every --rpc, --ws and --send-rpc, paired (issue 27): the endpoints of `cluster` for this run. */
  endpoints?: ChainEndpoints;
  embeddedRpcPort?: number;
  embeddedSlotMs?: number;
  dbPath?: string;
  /** --keep-history: prune finished history older than this many ms (issue 28); absent: keep all. */
  keepHistoryMs?: number;
  keypairFile?: string;
  apiPort?: number;
  apiHost?: string;
  corsOrigins?: string[];
  metricsPort?: number;
  /** --public-host NAME (repeatable): names the listeners answer to beyond loopback names and IP literals (else 421). */
  publicHosts?: string[];
  /** --trust-proxy HOPS|ADDRESS,...: which proxies in front may say who the client is, for /v1's limits and the faucet. */
  trustProxy?: TrustProxy;
  priorityFeeMicroLamports?: number;
  /** `--priority-fee auto` (true) or a number (false); absent: the saved choice. */
  priorityFeeAuto?: boolean;
  /** --priority-fee-percentile, --priority-fee-multiplier, --min-priority-fee, --max-priority-fee: how auto bids (never saved). */
  priorityFeePolicy?: Partial<AutoPriorityFeePolicy>;
  maxInFlight?: number;
  /** --faucet-mint/--faucet-authority, for the cluster given by --rpc. */
  faucet?: { mint: Address; mintAuthority: KeyPairSigner };
  /** --faucet-sol-per-day SOL: what the faucet's claims may cost the keeper's key a UTC day (default 0.5 SOL). */
  faucetSolPerDayLamports?: bigint;
  /** --deployment FILE, for the cluster given by --rpc (else one is found by its genesis hash). */
  deploymentFile?: string;
  /** `keeper --guardian-keypair FILE`: the guardian runs automatically with this key (refused at start when it is not the deployment's guardian). */
  guardianKeypairFile?: string;
  /** --guardian-pause-after-slots, --guardian-resume-after-slots. */
  guardianPauseAfterSlots?: number;
  guardianResumeAfterSlots?: number;
  /** --shard I/N [--shard-takeover-slots N]: this run's place in a fleet, over Settings → Fleet's. */
  shard?: Shard;
  /** --alert-balance-warning, --alert-runway-hours, ... (keeper-flags): these thresholds for this run, over Settings → Alerts'. */
  alertThresholds?: Partial<AlertThresholds>;
  /** --alert-webhook [FORMAT=]URL (repeatable): this run's webhook channels, instead of Settings → Alerts' (never saved). */
  alertWebhooks?: AlertWebhookSpec[];
  /** --heartbeat-url URL [--heartbeat-every SECONDS]: the dead man's switch for this run, over Settings'. */
  heartbeatUrl?: string;
  heartbeatEverySeconds?: number;
  /** --sweep-to ADDRESS (automatic on) --sweep-keep SOL --sweep-threshold SOL --sweep-every DURATION: Settings → Earnings for this run. */
  sweep?: Partial<ConsoleSettings['sweep']>;
}

export interface OperatorServiceOptions {
  host: 'desktop' | 'headless';
  settings: SettingsBackend;
  /** Where records of RPC clusters are kept (headless: ~/.local/share/wager-keeper). */
  dataDir: string;
  flags?: OperatorFlags;
  /** Headless: serve the console (operator HTTP API + the built UI in `uiDirectory`) on the API listener. */
  console?: { uiDirectory: string };
  /** Throw from start() when the first core cannot start (the CLI exits 1); the desktop shows the error instead. */
  failFast?: boolean;
  keychainAccount?: string;
  /** The keychain account of the guardian key (default "guardian"). */
  guardianKeychainAccount?: string;
  /** On a wager-keeper localnet, crank with its funded dev keeper key unless --keypair (default true; `keeper` keeps its own key). */
  devKeyOnLocalnet?: boolean;
  logger?: Logger;
}

/** The options every part of the service reads, with their defaults filled in once. */
export interface ResolvedOperatorOptions extends Omit<OperatorServiceOptions, 'flags' | 'keychainAccount' | 'guardianKeychainAccount' | 'logger'> {
  flags: OperatorFlags;
  keychainAccount: string;
  guardianKeychainAccount: string;
  log: Logger;
}

/** The settings in force: the saved ones with this run's flags on top. */
export function effectiveSettings(saved: ConsoleSettings, flags: OperatorFlags): ConsoleSettings {
  return {
    ...saved,
    ...(flags.apiPort !== undefined ? { apiPort: flags.apiPort } : {}),
    ...(flags.apiHost !== undefined ? { apiHost: flags.apiHost } : {}),
    ...(flags.corsOrigins !== undefined ? { corsOrigins: flags.corsOrigins } : {}),
    ...(flags.priorityFeeMicroLamports !== undefined ? { priorityFeeMicroLamports: flags.priorityFeeMicroLamports } : {}),
    ...(flags.priorityFeeAuto !== undefined ? { priorityFeeAuto: flags.priorityFeeAuto } : {}),
    ...(flags.maxInFlight !== undefined ? { maxInFlight: flags.maxInFlight } : {}),
    // --guardian-keypair runs the guardian automatically: that is what the flag is for.
    ...(flags.guardianKeypairFile !== undefined ? { guardianAutomatic: true } : {}),
    ...(flags.guardianPauseAfterSlots !== undefined ? { guardianPauseAfterSlots: flags.guardianPauseAfterSlots } : {}),
    ...(flags.guardianResumeAfterSlots !== undefined ? { guardianResumeAfterSlots: flags.guardianResumeAfterSlots } : {}),
    ...(flags.heartbeatUrl !== undefined ? { heartbeatConfigured: true, heartbeatLabel: maskUrl(flags.heartbeatUrl) } : {}),
    ...(flags.heartbeatEverySeconds !== undefined ? { heartbeatEverySeconds: flags.heartbeatEverySeconds } : {}),
    ...(flags.sweep !== undefined ? { sweep: { ...saved.sweep, ...flags.sweep } } : {}),
  };
}

/** The settings this run's flags fix (Settings shows them read-only and refuses to save them). */
export function settingsFixedByFlags(flags: OperatorFlags): SettingKey[] {
  return [
    ...(flags.apiPort !== undefined ? (['apiPort'] as const) : []),
    ...(flags.apiHost !== undefined ? (['apiHost'] as const) : []),
    ...(flags.corsOrigins !== undefined ? (['corsOrigins'] as const) : []),
    ...(flags.priorityFeeMicroLamports !== undefined ? (['priorityFeeMicroLamports'] as const) : []),
    ...(flags.priorityFeeAuto !== undefined ? (['priorityFeeAuto', 'priorityFeeMicroLamports'] as const) : []),
    ...(flags.maxInFlight !== undefined ? (['maxInFlight'] as const) : []),
    ...(flags.guardianKeypairFile !== undefined ? (['guardianAutomatic'] as const) : []),
    ...(flags.guardianPauseAfterSlots !== undefined ? (['guardianPauseAfterSlots'] as const) : []),
    ...(flags.guardianResumeAfterSlots !== undefined ? (['guardianResumeAfterSlots'] as const) : []),
    ...(flags.heartbeatUrl !== undefined ? (['heartbeatUrl'] as const) : []),
    ...(flags.heartbeatEverySeconds !== undefined ? (['heartbeatEverySeconds'] as const) : []),
  ];
}
