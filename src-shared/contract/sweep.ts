/**
 * The console contract, earnings sweep (Settings → Earnings): where earnings go, what the keeper keeps,
 * "Send now" and the automatic mode.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { ClusterName } from '../cluster-identity';

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

/** Sweep's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface SweepApi {
  /** Settings → Earnings: the settings, the reserve and why, what "Send now" would send, recent sweeps. */
  earningsSweep(): Promise<SweepView>;
  /** Saves Settings → Earnings (fields set by --sweep-* flags are refused); answers the new view. */
  saveSweepSettings(args: Partial<SweepSettings>): Promise<SweepView>;
  /** Sends everything above the reserve to the destination (or `destination`) now, after a person confirmed; `amountLamports`: exactly that, refused when it would cut into the reserve. */
  sweepNow(args: { confirm: true; destination?: string; amountLamports?: string }): Promise<SweepRecordView>;
}

/** Sweep's method names, in the order the transports list them. */
export const SWEEP_METHODS = ['earningsSweep', 'saveSweepSettings', 'sweepNow'] as const satisfies readonly (keyof SweepApi)[];
