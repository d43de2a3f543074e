/**
 * The console contract, composed: every area's methods in one OperatorApi (the way @solana/kit composes its
 * RPC API from per-area method groups), the one method list both transports are built from, and a method's
 * argument and result.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import { ACTIVITY_METHODS, type ActivityApi } from './activity';
import { ALERTS_METHODS, type AlertsApi } from './alerts';
import { DIAGNOSTICS_METHODS, type DiagnosticsApi } from './diagnostics';
import { FAUCET_METHODS, type FaucetApi } from './faucet';
import { FLEET_METHODS, type FleetApi } from './fleet';
import { GUARDIAN_METHODS, type GuardianApi } from './guardian';
import { INSPECTION_METHODS, type InspectionApi } from './inspection';
import { KEYS_METHODS, type KeysApi } from './keys';
import { LIQUIDITY_METHODS, type LiquidityApi } from './liquidity';
import { ORACLE_METHODS, type OracleApi } from './oracle';
import { SETTINGS_METHODS, type SettingsApi } from './settings';
import { STATUS_METHODS, type StatusApi } from './status';
import { SWEEP_METHODS, type SweepApi } from './sweep';

/** Everything the UI may ask (queries) and tell (commands): every area's methods. */
export type OperatorApi = StatusApi &
  ActivityApi &
  FleetApi &
  SettingsApi &
  KeysApi &
  InspectionApi &
  LiquidityApi &
  OracleApi &
  FaucetApi &
  GuardianApi &
  AlertsApi &
  DiagnosticsApi &
  SweepApi;

export type OperatorMethod = keyof OperatorApi;

/** The one method list: IPC channels (`operator:<method>`) and HTTP routes (`POST /operator/api/<method>`) come from it. */
export const OPERATOR_METHODS = [
  ...STATUS_METHODS,
  ...ACTIVITY_METHODS,
  ...FLEET_METHODS,
  ...SETTINGS_METHODS,
  ...KEYS_METHODS,
  ...INSPECTION_METHODS,
  ...LIQUIDITY_METHODS,
  ...ORACLE_METHODS,
  ...FAUCET_METHODS,
  ...GUARDIAN_METHODS,
  ...ALERTS_METHODS,
  ...DIAGNOSTICS_METHODS,
  ...SWEEP_METHODS,
] as const satisfies readonly OperatorMethod[];

/** Every OperatorApi method is in the list (a compile-time check). */
type Missing = Exclude<OperatorMethod, (typeof OPERATOR_METHODS)[number]>;
export const ALL_METHODS_LISTED: Missing extends never ? true : never = true;

/** The argument of a method (every method takes at most one object). */
export type OperatorArgs<M extends OperatorMethod> = Parameters<OperatorApi[M]> extends [infer A] ? A : undefined;

export type OperatorResult<M extends OperatorMethod> = Awaited<ReturnType<OperatorApi[M]>>;
