/**
 * The operator interface: every query, command and live event the console UI may use, one set of types
 * for both transports (Electron IPC through the preload bridge, and the loopback HTTP + SSE operator API
 * of `serve`/`keeper`). The UI imports only types and the method list from here; nothing in this file
 * may import Node or Electron (the renderer bundles it).
 *
 * Amounts: lamports and USDC base units are decimal strings when they can exceed 2^53 (balances, payouts,
 * stakes); counters and per-crank fees are numbers. Times are Unix ms.
 */

import type { AlertChannelKind, AlertChannelStatus, AlertHistoryEntry, AlertMessage, AlertName, AlertSeverity, AlertThresholds, HeartbeatView } from '../alerts/alert-types';
import type { LogLine, LogQuery } from '../diagnostics/log-ring';
import type { RpcEndpointStatus } from '../chain/rpc-endpoints';
export type { RpcEndpointStatus } from '../chain/rpc-endpoints';
export type { AlertHistoryEntry } from '../alerts/alert-types';
export type { KeyClass } from '../secrets/key-class';
export type { LogLevelName, LogLine, LogQuery } from '../diagnostics/log-ring';
import type { FaucetClaimResult, FaucetStatus } from '../faucet/faucet-service';
import type { StepTally } from '../store/step-tally';
import type { ClaimBalanceView, LiquidityView } from './liquidity-interface';
import type { ClusterName } from '../chain/cluster-identity';
import type { KeyClass } from '../secrets/key-class';
import type { UpdatesBridge } from './update-interface';
export * from './update-interface';

export const WAGER_STATES = ['queued', 'requested', 'fulfilled', 'settled', 'expired', 'unknown'] as const;
export type WagerState = (typeof WAGER_STATES)[number];
/** States in which the keeper still has work to do. */
export const ACTIVE_WAGER_STATES: readonly WagerState[] = ['queued', 'requested', 'fulfilled'];

/** landed; lost to another keeper; skipped (not the right moment any more); failed (retried with backoff). */
export const CRANK_OUTCOMES = ['landed', 'lost', 'skipped', 'failed'] as const;
export type CrankOutcome = (typeof CRANK_OUTCOMES)[number];
export type CrankStepName = 'request' | 'settle' | 'expire' | 'claim_payout' | 'strike_epoch' | 'claim_deposit' | 'claim_withdraw';

/** T_SETTLE (spec): the request window is open+2 .. open+150; past open+150 an unfulfilled wager expires. */
export const REQUEST_DELAY_SLOTS = 2;
export const T_SETTLE_SLOTS = 150;
/** The queue keeps a finished wager this long after it finished (then it leaves the list). */
export const FINISHED_ROW_TTL_MS = 10 * 60_000;

export type { ClusterName };

/** Which cluster the core runs on: the embedded localnet, or an RPC the operator named. */
export type ClusterSetting =
  | { kind: 'embedded' }
  | {
      kind: 'rpc';
      rpcUrl: string;
      wsUrl: string | null;
      /** Read endpoints after rpcUrl, tried in order when it fails or lags (each WebSocket derived from its URL); absent: none. */
      fallbackRpcUrls?: string[];
      /** Endpoints every transaction is also sent to (a staked connection, a sender service); absent: none. */
      sendRpcUrls?: string[];
    };

export interface ClusterView {
  /** From the genesis hash (a wager-keeper localnet, embedded or not, is `localnet`). */
  name: ClusterName;
  rpcUrl: string;
  wsUrl: string;
  genesisHash: string | null;
  /** This app's own embedded localnet. */
  embedded: boolean;
  /** A wager-keeper localnet (its manifest answers): dev keys, faucet and the demo app are available. */
  wagerKeeperLocalnet: boolean;
  /** The deployment the keeper runs against here (null: none known, see `noDeployment`). */
  deployment: DeploymentView | null;
  /** When no deployment is known for this cluster: says so, naming the cluster and its genesis hash, and how to load one. */
  noDeployment: string | null;
  /** The RPC endpoints came from this run's --rpc/--send-rpc flags (Settings → RPC shows them read-only). */
  endpointsByFlags?: boolean;
}

/** The status line's cluster badge: "embedded localnet", "localnet", "devnet", "mainnet-beta", "custom" (the UI and the first paint of `serve`'s page). */
export const clusterLabel = (cluster: Pick<ClusterView, 'name' | 'embedded'> | null): string =>
  cluster ? (cluster.embedded ? `embedded ${cluster.name}` : cluster.name) : 'no cluster';

/**
 * What the console page may carry before its token is checked (the first paint, see console-first-paint.ts):
 * public facts only, the same the public /v1/health and a block explorer show, never the RPC URL (it may
 * hold an API key).
 */
export interface FirstGlance {
  keeper: { address: string; shard: string | null } | null;
  cluster: Pick<ClusterView, 'name' | 'embedded'> | null;
}

/** Where the service is on a cluster: the deployment document's addresses, as Settings → Cluster shows them. */
export interface DeploymentView {
  clusterName: ClusterName;
  genesisHash: string;
  wagerProgram: string;
  oracleProgram: string;
  /** "ORAO VRF" for ORAO's program, else "local oracle". */
  oracleName: 'ORAO VRF' | 'local oracle';
  usdcMint: string;
  pool: string;
  config: string;
  paytables: { name: string; address: string }[];
  /** The deployment's public keeper (its /v1 base URL), whose faucet the console may ask. */
  keeperApi: string | null;
  /** Where it was found: a deployment file (its path: named, loaded in Settings, or in a deployments folder), or the localnet's own. */
  source: { kind: 'file' | 'folder'; path: string } | { kind: 'localnet' };
}

/** 'keychain (created)': a new key was made at this start (fund it before it can crank). */
export type KeySource = 'localnet dev key' | 'keychain' | 'keychain (created)' | 'file';

/** `noDeployment`: the cluster answers, but no deployment of the service is known for it (the keeper waits for one). */
export type CorePhase = 'starting' | 'running' | 'failed' | 'noDeployment';

export interface DemoView {
  /** On the app's embedded localnet; elsewhere only when asked for on a test network; never on mainnet-beta. */
  available: boolean;
  /** Why it is not available here (null when it is). */
  reason: string | null;
  enabled: boolean;
  intervalMs: number;
  opened: number;
  lastOpenedAt: number | null;
  lastError: string | null;
}

export interface StatusView {
  phase: CorePhase;
  /** When `failed` (or a restart failed): what happened and what to do. */
  error: string | null;
  /** Which host runs the core: the desktop app or a headless `serve`/`keeper`. */
  host: 'desktop' | 'headless';
  cluster: ClusterView | null;
  keeper: { address: string; keySource: KeySource; /** "I/N" when this keeper is one of a fleet (`--shard` or Settings → Fleet), else null. */ shard: string | null } | null;
  /** The crank loop sends nothing new while paused (in-flight sends finish). Saved in the settings. */
  paused: boolean;
  /** The public /v1 API of this keeper. */
  apiUrl: string | null;
  /** Why the /v1 API is not listening (the desktop app's port is taken, say) and what to do; null when it listens. */
  apiError: string | null;
  faucet: boolean;
  demo: DemoView;
  /** Unix ms the current core started (changes on every cluster switch). */
  startedAt: number;
  /** The dead man's switch (heartbeat URL masked), or null when none is configured. */
  heartbeat?: HeartbeatView | null;
  /** The priority fee in use now and why (issue 27): fixed, or the market's (`--priority-fee auto`); absent without a keeper. */
  priorityFee?: { mode: 'fixed' | 'auto'; microLamports: number; why: string; at: string | null };
  /** Every RPC endpoint's health, and whether reads failed over from the preferred one (issue 27); absent without a keeper. */
  rpc?: { endpoints: RpcEndpointStatus[]; /** The endpoint in use is not the preferred one. */ failedOver: boolean; /** ISO time reads left the preferred one. */ since: string | null };
}

export interface RunwayView {
  /** What one crank costs the keeper up front (average transaction fee paid, or the base fee before any crank). */
  lamportsPerCrank: number;
  /** About how many cranks the balance still pays for. */
  cranks: number;
  /** Below LOW_BALANCE_LAMPORTS: the UI warns and says what to do. */
  low: boolean;
}

export { ORACLE_STALL_CRITICAL_SLOTS, ORACLE_STALL_WARNING_SLOTS, oracleStallLevel, type StallLevel } from '../alerts/oracle-stall';

/** Oracle requests of this keeper's wagers still waiting for randomness. */
export interface OracleWaitView {
  waiting: number;
  /** Slots the oldest waiting request has waited (null: none waiting, or the slot is unknown). */
  oldestWaitSlots: number | null;
}

/** A wager-keeper localnet's own oracle fulfiller (only there can the console stall and resume it). */
export interface LocalOracleView {
  stalled: boolean;
  /** Requests the fulfiller has not fulfilled yet. */
  pending: number;
}

/** What the Inspector shows for an address: the chain's report (the `inspect` command's fields), the keeper's record, the slots. */
export interface InspectionView {
  address: string;
  /** Set when the address holds no wager of this service: what it is instead, in words. */
  problem: { kind: 'notAddress' | 'notAWager' | 'otherDeployment' | 'nothingHere'; message: string } | null;
  /** The `inspect` command's report (status, paytable, stake, slots, seed, randomness, verifyWith, or how it ended). */
  report: Record<string, string | number | boolean>;
  /** The keeper's record of it, if any. */
  record: QueueRow | null;
  /** An open wager's slots (null once closed). */
  slots: { openSlot: number; expirySlot: number; currentSlot: number } | null;
  /** The paytable the wager was opened with, row by row, and the row its randomness drew (null when unreadable). */
  paytable: { name: string; address: string; totalWeight: number; rows: { bucket: number; weight: number; multiplierBps: number }[]; drawn: number | null } | null;
}

/** One account's balance change in a transaction: signed lamports and USDC base units (decimal strings; usdc null: not a USDC account). */
export interface BalanceChangeView {
  address: string;
  /** Its part in the wager in words ("stake owner", "pool vault", "keeper (this keeper)", "other account"). */
  label: string;
  solLamports: string;
  usdc: string | null;
}

/** A wager's transaction in full (an Inspector step opened). */
export interface WagerTransactionView {
  signature: string;
  slot: number;
  /** The block's time (ISO 8601), null when the RPC does not keep it. */
  blockTime: string | null;
  /** null: it succeeded; else the failure in words. */
  failure: string | null;
  feePayer: string;
  feeLamports: number;
  computeUnits: number | null;
  balanceChanges: BalanceChangeView[];
  /** The wager program's log lines (its invocation, CPIs within it included). */
  programLogs: string[];
  /** The Explorer page (a localnet's through the Explorer's custom-RPC parameter). */
  explorerUrl: string;
}

/** A failed attempt at a wager's step: from the chain (any sender) and/or this keeper's step log. */
export interface FailedAttemptView {
  /** ISO 8601: the block's time on chain, else when this keeper tried. */
  at: string | null;
  /** null: refused before it reached the chain (preflight). */
  signature: string | null;
  /** The step in words: "request randomness", "settle", "expire", "claim payout", "open". */
  step: string;
  sender: string | null;
  /** The error in words. */
  error: string;
  source: 'chain' | 'this keeper' | 'chain and this keeper';
}

/** A wager found for a wallet or token account (support's search), with how that address is in it. */
export interface FoundWagerView {
  address: string;
  /** How the searched address is in the wager: stake owner (signed the opening), beneficiary, integrator (app) authority, payer. */
  roles: ('stake owner' | 'beneficiary' | 'integrator' | 'payer')[];
  /** "Open", "Requested", "PayoutPending" (on chain), "settled", "expired", or "unknown" (history no longer available). */
  status: string;
  openSlot: number | null;
  /** USDC base units (decimal strings). */
  stake: string | null;
  payout: string | null;
  bucket: number | null;
  /** The opening's transaction and its block time (epoch ms); null when neither the histories read nor the keeper's record had it. */
  openSignature: string | null;
  openedAt: number | null;
  /** The last transaction of a finished wager (the payout claim, else the settlement or expiry) and its block time; null while in progress. */
  finalSignature: string | null;
  finalAt: number | null;
}

/** Where support's search box sends an address: the Inspector, the Liquidity screen, a wallet's wagers, or what it is instead. */
export type AddressSearchView =
  | { kind: 'wager'; address: string }
  | { kind: 'pool'; address: string }
  | {
      kind: 'wallet' | 'tokenAccount';
      address: string;
      /** A token account's owner wallet (null for a wallet). */
      owner: string | null;
      /** The addresses whose history and wagers were read (the wallet and its USDC accounts, or the token account). */
      searched: string[];
      /** Newest first: the first `limit` asked for (their times and outcomes looked up). */
      wagers: FoundWagerView[];
      /** How many wagers were found in all (more than `wagers.length`: ask again with a higher limit). */
      total: number;
      /** Set when only the newest part of a long history was read. */
      note: string | null;
    }
  | { kind: 'notOurs'; address: string; what: 'notAddress' | 'program' | 'mint' | 'tokenAccount' | 'serviceAccount' | 'otherAccount' | 'nothingHere'; message: string };

export type { ActionCheckView, ClaimBalanceView, ClaimPreviewView, LiquidityRequestView, LiquidityView, LpPositionView, RefusalView, WhenView } from './liquidity-interface';

/** What a crank the operator asked for (Strike epoch, Claim, Claim payout now) did: the transaction and the fee earned, or the refusal named. */
export type CrankActionView =
  | { outcome: 'landed'; signature: string; feeLamports: number; /** A claim's: the owner's new balance of what it received. */ balance?: ClaimBalanceView }
  | { outcome: 'lost' | 'skipped' | 'failed'; /** The refusal's stable code (e.g. `epochNotClosed`) or the error. */ error: string; /** The same in words, with the next step. */ sentence?: string };

/**
 * Which faucet the Faucet screen uses: this keeper's own when it holds the test mint's authority; else
 * the deployment's public keeper (`keeperApi`), asked from the main process; else none, and why. The
 * status and a claim's answer have the types /v1/faucet answers with (type-only imports, erased from the UI bundle).
 */
export type FaucetView =
  | { source: 'this keeper'; status: FaucetStatus }
  | { source: 'deployment keeper'; keeperApi: string; status: FaucetStatus | null; error: string | null }
  | { source: 'none'; reason: string };
/** A claim's answer and who answered it ("this keeper", or the deployment keeper's URL). */
export type FaucetClaimView = FaucetClaimResult & { answeredBy: string };

export interface HealthView {
  lamports: string;
  /** Unix ms of the last completed loop pass (0: none yet). */
  lastTick: number;
  queue: number;
  rpcError: string | null;
  slot: number | null;
  /** Round trip of the last getSlot, ms. */
  rpcLatencyMs: number | null;
  /** Unix ms when the slot was last read successfully (0: never); a failed read leaves it. */
  checkedAt: number;
  runway: RunwayView;
  oracleWait: OracleWaitView;
  /**
   * Wagers still without a randomness request 10+ slots after they could be requested (the keeper retries
   * them every pass, with a raised priority fee near expiry): the early warning of a stake at risk.
   */
  overdue: OverdueRequestView[];
}

export interface OverdueRequestView {
  wager: string;
  openSlot: number;
  expirySlot: number;
  /** Slots past the moment the request could be sent (open + 2). */
  slotsLate: number;
  lastError: string | null;
  /** Another fleet member's wager: its shard ("I/N") and the slot this keeper sends the request itself; null for this keeper's own. */
  heldFor: { shard: string; takeoverSlot: number } | null;
}

export interface EarningsTotals {
  receivedLamports: number;
  feeLamports: number;
  /** received - fee. */
  netLamports: number;
  cranks: number;
}

export interface OverviewView {
  queueCounts: Record<WagerState, number>;
  /** Settled wagers whose payout is parked in escrow (claim_payout pending). */
  parkedPayouts: number;
  /** Cranks since `dayStartMs` by outcome. */
  cranksToday: Record<CrankOutcome, number>;
  earnings: { today: EarningsTotals; week: EarningsTotals; all: EarningsTotals };
}

/** One crank step over a window (Overview's per-step table): tried, how each ended, failures and skips by reason, fees. */
export type StepTallyView = StepTally;

/** Another member of the operator's fleet, as its public `/v1/health` answers (Settings → Fleet lists their URLs). */
export interface FleetMemberView {
  /** The member's API base, as configured (e.g. `http://10.0.0.2:7300`). */
  url: string;
  keeper: string | null;
  /** Decimal lamports. */
  lamports: string | null;
  /** Unix ms of the member's last loop pass. */
  lastTick: number | null;
  queue: number | null;
  /** `I/N` when the member runs with `--shard`, else null. */
  shard: string | null;
  overdue: number | null;
  rpcError: string | null;
  /** Unix ms of its last answer. */
  answeredAtMs: number | null;
  /** Why the last poll failed (unreachable, HTTP status, not a health record), or null. */
  error: string | null;
  /** No answer for 15 s (three polls): the Overview warns. */
  stale: boolean;
}

export interface EarningsPoint {
  bucketStart: number;
  receivedLamports: number;
  feeLamports: number;
  netLamports: number;
  cranks: number;
}

/** An earnings report: the CSV text, its file name, the sums of its rows (lamports) and what pruning left out. */
export interface EarningsReportView {
  csv: string;
  fileName: string;
  rows: number;
  totals: { cranks: number; earnedLamports: number; spentLamports: number; netLamports: number; sweeps: number; sentToWalletLamports: number };
  /** Rows of the range pruned by --keep-history, and what to do; null when the report is whole. */
  notice: string | null;
}

/** One wager as the queue and its detail show it: the keeper's record plus what the account said. */
export interface QueueRow {
  address: string;
  state: WagerState;
  paytable: string | null;
  paytableName: string | null;
  /** USDC base units. */
  stake: string | null;
  openSlot: number | null;
  expirySlot: number | null;
  oracleRequest: string | null;
  requestSignature: string | null;
  requestedSlot: number | null;
  fulfilledSlot: number | null;
  settleSignature: string | null;
  expireSignature: string | null;
  claimSignature: string | null;
  bucket: number | null;
  payout: string | null;
  payoutPending: boolean;
  attempts: number;
  /** Unix ms before which the keeper does not retry (0: no backoff). */
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StepView {
  at: number;
  wager: string | null;
  step: CrankStepName;
  outcome: CrankOutcome;
  signature: string | null;
  error: string | null;
}

export interface OracleLatencyView {
  wager: string;
  requestedSlot: number;
  fulfilledSlot: number;
  slots: number;
  at: string;
}

export interface ConsoleSettings {
  cluster: ClusterSetting;
  /** Micro-lamports per compute unit (0: none; auto on public clusters unless priorityFeeAuto says otherwise). */
  priorityFeeMicroLamports: number;
  /** "auto": price each crank from recent fees for the accounts it writes (issue 27); false: the fixed fee above. */
  priorityFeeAuto?: boolean;
  maxInFlight: number;
  /** The demo app opens a wager every `demoIntervalMs` (the embedded localnet; elsewhere see demoOnTestNetworks). */
  demoEnabled: boolean;
  demoIntervalMs: number;
  /** Run the demo app on clusters other than the embedded localnet too (never on mainnet-beta): asked for explicitly. */
  demoOnTestNetworks: boolean;
  /** Deployment files loaded in Settings, one per cluster (by genesis hash); paths on the machine that runs the keeper. */
  deploymentFiles: { genesisHash: string; path: string }[];
  /** The public /v1 API (applies at the next start of the app). */
  apiPort: number;
  apiHost: string;
  /** Extra browser origins allowed by CORS on /v1 (the console's own are always allowed). */
  corsOrigins: string[];
  /** The crank loop is paused (survives a restart). */
  paused: boolean;
  /** "Pause new wagers automatically when the oracle stalls": the guardian runs in this console's keeper (where it holds the guardian key). */
  guardianAutomatic: boolean;
  /** The guardian pauses new wagers once a randomness request has waited this many slots (the spec's target: 60). */
  guardianPauseAfterSlots: number;
  /** It resumes its own pause once the oracle has fulfilled again for this many slots with nothing waiting past the threshold. */
  guardianResumeAfterSlots: number;
  /** This keeper's shard of a fleet, "I/N" (docs/keeper.md, Fleets), or '' for none; `--shard` overrides it for a run. */
  shard: string;
  /** Slots another shard's wager waits past its due slot before this keeper takes it over. */
  shardTakeoverSlots: number;
  /** The other fleet members' keeper APIs (e.g. http://10.0.0.2:7300), listed on the Overview from their /v1/health. */
  fleetMembers: string[];
  /** The alert thresholds (Settings → Alerts; saved through saveAlertSettings, flags win for a run). */
  alertThresholds: AlertThresholds;
  /** Every alert also becomes a system notification of the desktop app. */
  alertDesktopNotifications: boolean;
  /**
   * The dead man's switch: a GET to the heartbeat URL every heartbeatEverySeconds while the keeper is ready
   * (`--heartbeat-url` wins). The URL is a secret kept in the keychain (or a 0600 file), never returned:
   * saved as `heartbeatUrl` in SettingsChanges, shown as whether there is one and its masked label.
   */
  heartbeatConfigured: boolean;
  /** The heartbeat URL masked (e.g. "https://hc-ping.com/***"), '' when none. */
  heartbeatLabel: string;
  heartbeatEverySeconds: number;
  /** Settings → Earnings: where earnings go and what the keeper keeps (saved through saveSweepSettings; --sweep-* flags win). */
  sweep: SweepSettings;
}

export interface KeyView {
  /** The key the keeper cranks with now. */
  inUse: { address: string; source: KeySource } | null;
  /** The keeper key stored in the OS keychain for the current cluster's class, if any; `error` says why the keychain cannot be read. */
  keychain: { address: string | null; error: string | null };
  /** The current cluster's key class: the one generate, import and export act on unless told another cluster. */
  current: KeyClass;
  /** Both keychain keys, one per key class (mainnet-beta never uses the local/test one). */
  accounts: KeyAccountView[];
}


export interface KeyAccountView {
  keyClass: KeyClass;
  /** The keychain account (service "wager-keeper"). */
  account: string;
  /** The clusters this key cranks, in words. */
  clusters: string;
  address: string | null;
  error: string | null;
  /** The keeper cranks with this key now. */
  inUse: boolean;
  /** Keys this account held before a replacement, kept in the keychain (oldest first): exportable like this one. */
  replaced: ReplacedKeyView[];
}

/** A replaced keeper key kept in the keychain as `<account>-replaced-<UTC time>`. Never the secret. */
export interface ReplacedKeyView {
  /** Its keychain account, e.g. "keeper-replaced-2026-11-28T22-40-05Z": what exportKey's `replaced` names. */
  account: string;
  address: string;
  /** When it was replaced (ISO 8601, UTC). */
  replacedAt: string;
}

/** A keeper key written to a backup file (Solana CLI keypair format, mode 0600). Never the secret. */
export interface KeyExportView {
  path: string;
  address: string;
  keyClass: KeyClass;
}

/** The cluster a key action is about (its key class); absent: the console's current cluster. */
export type KeyCluster = 'localnet' | 'devnet' | 'testnet' | 'mainnet-beta';

export interface SettingsView {
  settings: ConsoleSettings;
  key: KeyView;
  /** Settings a command-line flag fixed for this run (shown read-only, e.g. `apiPort` from --port). */
  fixedByFlags: SettingKey[];
}

/** What saveSettings takes: the settings, with the heartbeat URL write-only (a secret; '' removes it) instead of what follows from it. */
export type SettingsChanges = Partial<Omit<ConsoleSettings, 'heartbeatConfigured' | 'heartbeatLabel'>> & { heartbeatUrl?: string };
/** A setting's name as views and flags name it (the heartbeat URL's is write-only). */
export type SettingKey = keyof ConsoleSettings | 'heartbeatUrl';

export type ConnectionTest =
  | { ok: true; rpcUrl: string; version: string; slot: number; genesisHash: string; cluster: ClusterName; latencyMs: number; wagerKeeperLocalnet: boolean }
  | { ok: false; rpcUrl: string; error: string };

/** What saving settings did: `restarted` when the core was restarted (cluster, key or loop options changed). */
export interface SaveSettingsResult {
  view: SettingsView;
  restarted: boolean;
}

/** Where the guardian key the console holds comes from: the localnet's dev key, the OS keychain, or `keeper --guardian-keypair FILE`. */
export type GuardianKeySource = 'localnet dev key' | 'keychain' | 'file';

/** One pause or resume of new wagers (set_paused), by the guardian on its own or by a person. */
export interface GuardianActionView {
  action: 'pause' | 'resume';
  by: 'guardian' | 'person';
  /** Unix ms. */
  at: number;
  /** The slot the transaction landed in. */
  slot: number;
  reason: string;
  signature: string;
}

/** The deployment's guardian, whether new wagers are paused now, and what this console can do about it. */
export interface GuardianView {
  /** The guardian the config names on chain (the deployment document's while the chain cannot be read; null: no deployment). */
  guardian: string | null;
  /** New wagers are paused now (the config's flag on chain); null when it cannot be read (see readError). */
  paused: boolean | null;
  readError: string | null;
  /** The deployment's guardian key, held by this console (null: it holds none; see keyProblem). */
  key: { address: string; source: GuardianKeySource } | null;
  /** Why the console holds no usable guardian key: none loaded, the keychain's error, or a key that is not this deployment's guardian. */
  keyProblem: string | null;
  /** The guardian key in the OS keychain (Settings → Guardian key), and why it cannot be read. */
  keychain: { address: string | null; error: string | null };
  automatic: {
    /** "Pause new wagers automatically when the oracle stalls" (on with `keeper --guardian-keypair`). */
    enabled: boolean;
    /** It runs now (enabled, and the console holds the guardian key). */
    running: boolean;
    pauseAfterSlots: number;
    resumeAfterSlots: number;
    /** The last automatic check or send that failed. */
    lastError: string | null;
  };
  /** The pause in force was made by the automatic guardian: it resumes it by itself once the oracle is back. */
  pausedByGuardian: boolean;
  /** The last pauses and resumes this console's guardian sent, newest first (since the keeper started). */
  actions: GuardianActionView[];
}

/** An alert firing now. Times are ISO 8601. */
export interface ActiveAlert {
  alert: AlertName;
  severity: AlertSeverity;
  summary: string;
  /** When it fired (after its debounce). */
  since: string;
  /** The last firing or reminder delivered (or recorded, while muted). */
  lastSentAt: string;
  /** Until when it is muted (recorded, not delivered), or null. */
  mutedUntil: string | null;
}

/** The Alerts screen: what fires now, the history (newest first, the last 200), mutes and channels. */
export interface AlertsView {
  active: ActiveAlert[];
  history: AlertHistoryEntry[];
  mutes: { alert: AlertName; until: string }[];
  channels: AlertChannelStatus[];
}

/** Settings → Alerts. */
export interface AlertSettingsView {
  thresholds: AlertThresholds;
  /** Thresholds a command-line flag set for this run (shown read-only). */
  thresholdFlags: (keyof AlertThresholds)[];
  desktopNotifications: boolean;
  channels: AlertChannelStatus[];
}

/** Settings → Earnings (issue 28): the wallet earnings go to and what the keeper keeps. Lamports as decimal strings. */
export interface SweepSettings {
  /** The destination wallet ('' none). */
  destination: string;
  /** The reserve a person set (null: 7 days of fees at the measured spend, never below 0.05 SOL). */
  keepLamports: string | null;
  /** The automatic mode: sends whatever exceeds reserve + threshold, at most once per `everySeconds`. */
  automatic: boolean;
  thresholdLamports: string;
  everySeconds: number;
}

/** The `keeper`/`serve` flag that sets each of Settings → Earnings' fields (a flag wins for its run; Settings shows it read-only). */
export const SWEEP_SETTING_FLAGS: Readonly<Record<keyof SweepSettings, string>> = {
  destination: '--sweep-to',
  automatic: '--sweep-to',
  keepLamports: '--sweep-keep',
  thresholdLamports: '--sweep-threshold',
  everySeconds: '--sweep-every',
};

/** One sweep booked (Settings → Earnings and the Overview's "Sent to wallet"). */
export interface SweepRecordView {
  id: number;
  /** Unix ms. */
  atMs: number;
  destination: string;
  sentLamports: string;
  feeLamports: number;
  /** The keeper's balance after it. */
  keptLamports: string;
  signature: string;
  trigger: 'manual' | 'automatic' | 'command';
}

/** What "Send now" would do: the fee comes out of what is sent, the keeper keeps `keptLamports`. */
export interface SweepPlanView {
  destination: string;
  balanceLamports: string;
  sendLamports: string;
  feeLamports: number;
  keptLamports: string;
  /** Days of fees the kept balance pays at the measured spend (null: no spend measured yet). */
  runwayDays: number | null;
}

export interface SweepView {
  keeper: string | null;
  cluster: ClusterName | null;
  /** The settings in force (flags on top of Settings). */
  settings: SweepSettings;
  /** Settings a --sweep-* flag fixed for this run (shown read-only). */
  fixedByFlags: (keyof SweepSettings)[];
  /** The reserve in force and how it was chosen (null: no keeper running). */
  reserve: { lamports: string; source: 'setting' | 'measured' | 'floor'; dailySpendLamports: string; why: string } | null;
  balanceLamports: string | null;
  /** What "Send now" would send now, or null and `cannotSend` says why. */
  sendNow: SweepPlanView | null;
  cannotSend: string | null;
  /** On mainnet-beta a person confirms each manual sweep (the console always asks first). */
  confirmationRequired: boolean;
  /** The automatic mode's last check: 'off', waiting (why), sent, or failed (the error). */
  automaticState: string;
  /** Newest first, the last 20. */
  recent: SweepRecordView[];
  sentLast7DaysLamports: string;
}

/** Everything the UI may ask (queries) and tell (commands). Every method answers or throws an Error whose message says what happened and what to do. */
export interface OperatorApi {
  status(): Promise<StatusView>;
  health(): Promise<HealthView>;
  overview(args: { dayStartMs: number }): Promise<OverviewView>;
  /**
   * Wagers in progress and parked payouts (all of them; the UI virtualizes), plus up to 500 that finished
   * (settled, expired, unknown) in the last 10 minutes, so a cranker sees each one end.
   */
  queue(): Promise<QueueRow[]>;
  /** One wager's record, or null when the keeper has none. */
  wager(args: { address: string }): Promise<QueueRow | null>;
  earningsSeries(args: { sinceMs: number; bucketMs: number }): Promise<EarningsPoint[]>;
  /** The earnings CSV for accounting over [sinceMs, untilMs): per crank or per UTC day, sweeps as their own rows (src-main/reports). */
  earningsReport(args: { sinceMs: number; untilMs: number; per: 'crank' | 'day' }): Promise<EarningsReportView>;
  recentSteps(args: { limit: number }): Promise<StepView[]>;
  /** Per crank step since `sinceMs`: tried, landed, lost, skipped and failed (by reason), fees earned and spent. */
  stepTally(args: { sinceMs: number }): Promise<StepTallyView[]>;
  /** The other fleet members (Settings → Fleet) as their /v1/health last answered. */
  fleet(): Promise<FleetMemberView[]>;
  oracleLatency(args: { limit: number }): Promise<OracleLatencyView[]>;
  settings(): Promise<SettingsView>;

  /** Pauses (stops new sends; in-flight ones finish) or resumes the crank loop; saved. */
  setPaused(args: { paused: boolean }): Promise<StatusView>;
  /** Saves settings; restarts the core when the cluster or the loop options change. */
  saveSettings(args: { changes: SettingsChanges }): Promise<SaveSettingsResult>;
  testConnection(args: { rpcUrl: string; wsUrl?: string | null }): Promise<ConnectionTest>;
  /** Creates a new keeper key in the OS keychain; refuses to replace an existing one unless `replace`. */
  generateKey(args: { replace: boolean; cluster?: KeyCluster }): Promise<KeyView>;
  /**
   * Imports a keeper key into the OS keychain: a file at `path` (a Solana CLI keypair file, or a file
   * holding a base58 secret) or `secret` (a base58 secret or a keypair JSON array, pasted). Never logged.
   */
  importKey(args: { path?: string; secret?: string; replace: boolean; cluster?: KeyCluster }): Promise<KeyView>;
  /**
   * Writes the keychain key to `path` (Solana CLI keypair file, mode 0600; refused if the path exists), or
   * with `replaced` (an account from KeyAccountView.replaced) that replaced key. Answers the address, never the secret.
   */
  exportKey(args: { path: string; confirm: true; cluster?: KeyCluster; replaced?: string }): Promise<KeyExportView>;

  /** Inspects any address: an open or closed wager of this service, or says what it is instead. */
  inspect(args: { address: string }): Promise<InspectionView>;
  /** Support's search: any address classified (a wager, the pool, a wallet's or token account's wagers, or what it is instead). */
  searchAddress(args: { address: string; limit?: number }): Promise<AddressSearchView>;
  /** Hands an open wager the keeper does not track to it (as POST /v1/wagers does); answers its record. */
  handToKeeper(args: { address: string }): Promise<QueueRow | null>;
  /** Delivers a PayoutPending wager's parked payout now (claim_payout), also while paused. */
  claimPayout(args: { address: string }): Promise<CrankActionView>;
  /** One transaction of a wager in full (an Inspector step opened); null when this RPC does not have it. */
  wagerTransaction(args: { signature: string; wager: string }): Promise<WagerTransactionView | null>;
  /** A wager's failed transactions, from the chain and this keeper's step log, newest first (empty: none failed). */
  wagerFailedAttempts(args: { wager: string }): Promise<{ attempts: FailedAttemptView[] }>;
  /** The pool, the live epoch, liquidity requests (all, or one owner's) and share price history. */
  liquidity(args: { owner: string | null }): Promise<LiquidityView>;
  /** Strikes the live epoch now (also while paused: the operator chose it). */
  strikeEpoch(args: { /** The epoch the operator saw: answered "already struck" when the live epoch moved on. */ epoch?: number } | undefined): Promise<CrankActionView>;
  /** Claims one struck deposit or withdrawal request for its owner. */
  claimLiquidity(args: { request: string }): Promise<CrankActionView>;
  /** The local oracle of a wager-keeper localnet, or null on any other cluster. */
  localOracle(): Promise<LocalOracleView | null>;
  /** Stalls or resumes the local oracle (a wager-keeper localnet only), to see the expiry path. */
  setLocalOracleStalled(args: { stalled: boolean }): Promise<LocalOracleView>;
  /** Loads a deployment file (a path on the machine that runs the keeper) for the current cluster: checked, remembered for this cluster, and the keeper restarted against it. */
  loadDeployment(args: { path: string }): Promise<StatusView>;
  /** Which faucet serves this cluster (this keeper's, the deployment keeper's, or none and why) and its status. */
  faucetStatus(): Promise<FaucetView>;
  /** Claims test USDC (and the SOL top-up) for a wallet; a refusal says why and when to retry. */
  faucetClaim(args: { owner: string }): Promise<FaucetClaimView>;
  /** The deployment's guardian, whether new wagers are paused now (read on chain), the guardian key this console holds and the guardian's last actions. */
  guardian(): Promise<GuardianView>;
  /** Pauses or resumes new wagers (set_paused) with the guardian key this console holds: a person's choice, which the automatic guardian never undoes. */
  setNewWagersPaused(args: { paused: boolean }): Promise<GuardianActionView>;
  /** Imports a Solana CLI keypair file as the guardian key into the OS keychain (refuses to replace another unless `replace`). */
  importGuardianKey(args: { path: string; replace: boolean }): Promise<GuardianView>;
  /** The alerts firing now, their history (newest first, the last 200), mutes and channel statuses. */
  alerts(): Promise<AlertsView>;
  /** Mutes an alert for `minutes` (still recorded, not delivered); 0 unmutes it. */
  muteAlert(args: { alert: AlertName; minutes: number }): Promise<AlertsView>;
  /** The alert thresholds, which of them flags set, desktop notifications and the channels. */
  alertSettings(): Promise<AlertSettingsView>;
  /** Saves thresholds (those set by flags are refused) and the desktop notification switch. */
  saveAlertSettings(args: { thresholds?: Partial<AlertThresholds>; desktopNotifications?: boolean }): Promise<AlertSettingsView>;
  /** Adds a webhook channel (`format` defaults to json); the URL is kept as a secret and shown masked. */
  addAlertChannel(args: { url: string; format?: AlertChannelKind }): Promise<AlertSettingsView>;
  removeAlertChannel(args: { id: string }): Promise<AlertSettingsView>;
  /** Sends a test alert to every channel now and answers how each went. */
  sendTestAlert(): Promise<{ results: AlertChannelStatus[] }>;
  /** The recent log lines (the last 2000 kept), oldest first, secrets masked: at or above `level`, matching `search`, after `after` (follow mode). */
  logs(args: LogQuery | undefined): Promise<{ lines: LogLine[] }>;
  /** Writes a diagnostics archive (.tar.gz, secrets removed) to the data folder and answers where. */
  saveDiagnostics(): Promise<DiagnosticsSavedView>;
  /** Settings → Earnings: the settings, the reserve and why, what "Send now" would send, recent sweeps. */
  earningsSweep(): Promise<SweepView>;
  /** Saves Settings → Earnings (fields set by --sweep-* flags are refused); answers the new view. */
  saveSweepSettings(args: Partial<SweepSettings>): Promise<SweepView>;
  /** Sends everything above the reserve to the destination (or `destination`) now, after a person confirmed; `amountLamports`: exactly that, refused when it would cut into the reserve. */
  sweepNow(args: { confirm: true; destination?: string; amountLamports?: string }): Promise<SweepRecordView>;
}

/** Where "Save diagnostics…" wrote its archive. */
export interface DiagnosticsSavedView {
  path: string;
  bytes: number;
}

export type OperatorMethod = keyof OperatorApi;

/** The one method list: IPC channels (`operator:<method>`) and HTTP routes (`POST /operator/api/<method>`) come from it. */
export const OPERATOR_METHODS = [
  'status',
  'health',
  'overview',
  'queue',
  'wager',
  'earningsSeries',
  'earningsReport',
  'recentSteps',
  'stepTally',
  'fleet',
  'oracleLatency',
  'settings',
  'setPaused',
  'saveSettings',
  'testConnection',
  'generateKey',
  'importKey',
  'exportKey',
  'inspect',
  'searchAddress',
  'handToKeeper',
  'claimPayout',
  'wagerTransaction',
  'wagerFailedAttempts',
  'liquidity',
  'strikeEpoch',
  'claimLiquidity',
  'localOracle',
  'setLocalOracleStalled',
  'loadDeployment',
  'faucetStatus',
  'faucetClaim',
  'guardian',
  'setNewWagersPaused',
  'importGuardianKey',
  'alerts',
  'muteAlert',
  'alertSettings',
  'saveAlertSettings',
  'addAlertChannel',
  'removeAlertChannel',
  'sendTestAlert',
  'logs',
  'saveDiagnostics',
  'earningsSweep',
  'saveSweepSettings',
  'sweepNow',
] as const satisfies readonly OperatorMethod[];

/** Every OperatorApi method is in the list (a compile-time check). */
type Missing = Exclude<OperatorMethod, (typeof OPERATOR_METHODS)[number]>;
export const ALL_METHODS_LISTED: Missing extends never ? true : never = true;

/** The argument of a method (every method takes at most one object). */
export type OperatorArgs<M extends OperatorMethod> = Parameters<OperatorApi[M]> extends [infer A] ? A : undefined;
export type OperatorResult<M extends OperatorMethod> = Awaited<ReturnType<OperatorApi[M]>>;

/** Live events the core pushes; the UI folds them into its query cache. Records and steps come in batches. */
export type OperatorEvent =
  | { type: 'status'; status: StatusView }
  | { type: 'health'; health: HealthView }
  | { type: 'records'; records: QueueRow[] }
  | { type: 'steps'; steps: StepView[] }
  /** Something was booked in the earnings ledger: refetch the earnings views. */
  | { type: 'earnings' }
  | { type: 'latency'; latency: OracleLatencyView[] }
  /** The guardian paused or resumed new wagers, or its key or settings changed: read the guardian view again. */
  | { type: 'guardian' }
  /**
   * An alert fired, reminded or resolved: refetch `alerts`. The desktop host shows a system notification
   * unless `muted` (recorded in the history while muted, delivered to no channel).
   */
  | { type: 'alert'; message: AlertMessage; muted?: boolean };

/** IPC channel names (the preload and the Electron main import these; nothing else crosses). */
export const IPC_CHANNEL_PREFIX = 'operator:';
export const IPC_EVENT_CHANNEL = 'operator-event';
export const IPC_SAVE_DIAGNOSTICS = 'desktop:saveDiagnostics';
/** Desktop only: "Export key…" asks where with the system's save dialog (the main process writes; the secret never crosses). */
export const IPC_EXPORT_KEY = 'desktop:exportKey';
export const ipcChannel = (method: OperatorMethod): string => `${IPC_CHANNEL_PREFIX}${method}`;

/** What a call answers over either transport: the value, or an error the UI shows as is. */
export type OperatorReply<T> = { ok: true; value: T } | { ok: false; error: string };

/** What the preload exposes as `window.wagerKeeper` (and what the HTTP client implements in the browser). */
export interface OperatorBridge {
  call<M extends OperatorMethod>(method: M, args: OperatorArgs<M>): Promise<OperatorResult<M>>;
  /** Live events; returns the unsubscribe function. */
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  /** Desktop only: the system's file picker for a deployment file (its path, or null when cancelled). Headless UIs take a typed path instead. */
  pickDeploymentFile?(): Promise<string | null>;
  /** Desktop only: "Save diagnostics…" asks where to save (the system's save dialog) and answers the archive written, or null when cancelled. */
  saveDiagnosticsAs?(): Promise<DiagnosticsSavedView | null>;
  /** Desktop only: "Export key…" asks where (the system's save dialog) and answers the file written, or null when cancelled. */
  exportKeyAs?(args: { confirm: true; cluster?: KeyCluster; replaced?: string }): Promise<KeyExportView | null>;
  /** Browser only: the address that downloads an archive saveDiagnostics wrote (its file name), token included. */
  diagnosticsDownloadUrl?(fileName: string): string;
  /** Desktop only: the desktop app's own preferences (Settings → Desktop app). Absent in a browser. */
  desktop?: DesktopPreferencesBridge;
  /** Desktop only: the app's updates (the banner, "Restart to update", Settings → Desktop app). Absent in a browser. */
  updates?: UpdatesBridge;
}

/** The desktop app's own preferences, kept by the desktop host (a headless keeper has no window, tray or login item). */
export interface DesktopPreferences {
  /** Closing the window quits the app and stops the keeper (the old way); off: the window hides and the keeper keeps cranking in the tray. */
  quitOnWindowClose: boolean;
  /** Start at login, hidden in the tray. */
  openAtLogin: boolean;
}

export interface DesktopPreferencesView extends DesktopPreferences {
  /** How start at login works on this platform, in words (Settings shows it under the checkbox). */
  openAtLoginNote: string;
}

export interface DesktopPreferencesBridge {
  getPreferences(): Promise<DesktopPreferencesView>;
  setPreferences(changes: Partial<DesktopPreferences>): Promise<DesktopPreferencesView>;
}

/** The desktop-only IPC channels of the desktop preferences (validated like the operator channels). */
export const IPC_DESKTOP_GET_PREFERENCES = 'desktop:getPreferences';
export const IPC_DESKTOP_SET_PREFERENCES = 'desktop:setPreferences';

/** The desktop-only IPC channel of the file picker (not an operator method: the headless host has no dialog). */
export const IPC_PICK_DEPLOYMENT_FILE = 'desktop:pickDeploymentFile';

/** Balance below which the console warns (0.05 SOL). */
export const LOW_BALANCE_LAMPORTS = 50_000_000;
/** The base fee of a one-signature transaction, for the runway before any crank was paid. */
export const BASE_FEE_LAMPORTS = 5_000;

/** HTTP transport paths. The token travels as `Authorization: Bearer` (calls) or `?token=` (the SSE stream, downloads). */
export const OPERATOR_HTTP = {
  apiPrefix: '/operator/api/',
  events: '/operator/events',
  consolePath: '/console/',
  /** `GET <diagnostics><archive name>`: an archive saveDiagnostics wrote, as a download. */
  diagnostics: '/operator/diagnostics/',
} as const;
