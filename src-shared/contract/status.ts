/**
 * The console contract, status: the status line and the keeper card (phase, cluster, key, RPC health,
 * runway, overdue requests), pausing the crank loop and loading a deployment.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { HeartbeatView } from '../alert-types';
import type { ClusterView } from './cluster';

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

/** Oracle requests of this keeper's wagers still waiting for randomness. */
export interface OracleWaitView {
  waiting: number;
  /** Slots the oldest waiting request has waited (null: none waiting, or the slot is unknown). */
  oldestWaitSlots: number | null;
}

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

/** Balance below which the console warns (0.05 SOL); the sweep's reserve never goes below it (sweep-plan.ts). */
export const LOW_BALANCE_LAMPORTS = 50_000_000;

/** The base fee of a one-signature transaction, for the runway before any crank was paid. */
export const BASE_FEE_LAMPORTS = 5_000;

/** One endpoint's live health, for status, metrics and Settings → RPC. */
export interface RpcEndpointStatus {
  /** The URL with any API key or token masked. */
  label: string;
  role: 'read' | 'send';
  /** The first --rpc. */
  preferred: boolean;
  /** Reads go here now. */
  inUse: boolean;
  state: 'healthy' | 'set-aside' | 'other-cluster' | 'unchecked';
  /** Why set aside ("connection refused", "40 slots behind", "genesis … is not this cluster's"). */
  reason: string | null;
  /** ISO time a set-aside endpoint is tried again. */
  retryAt: string | null;
  /** Median of recent calls and probes. */
  latencyMs: number | null;
  /** 0..1 over the recent window. */
  errorRate: number;
  /** Its last seen slot. */
  slot: number | null;
  slotsBehind: number | null;
}

/** Status's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface StatusApi {
  status(): Promise<StatusView>;
  health(): Promise<HealthView>;

  /** Pauses (stops new sends; in-flight ones finish) or resumes the crank loop; saved. */
  setPaused(args: { paused: boolean }): Promise<StatusView>;
  /** Loads a deployment file (a path on the machine that runs the keeper) for the current cluster: checked, remembered for this cluster, and the keeper restarted against it. */
  loadDeployment(args: { path: string }): Promise<StatusView>;
}

/** Status's method names, in the order the transports list them. */
export const STATUS_METHODS = ['status', 'health', 'setPaused', 'loadDeployment'] as const satisfies readonly (keyof StatusApi)[];
