/**
 * Reads the flags of `keeper` and `serve` as host-flags.ts declares them: node:util parseArgs with the
 * derived options, then every check once, calling the per-area parsers, in the order the two commands have
 * always checked them (a command line with several wrong flags names the same one first). The result is
 * this run's OperatorFlags, plus serve's gateway port.
 */
import type { OperatorFlags } from '../runtime/operator-options';
import { alertThresholdFlags } from './alert-threshold-flags';
import { alertWebhookFlags, heartbeatFlags, integerFlag, keepHistoryFlag, parseFlags, portFlag, shardFlags, UsageError } from './cli-flags';
import { clusterOfEndpoints, endpointFlags } from './endpoint-flags';
import { faucetFlags } from './faucet-flags';
import { guardianFlags } from './guardian-flags';
import { flagsOf, hostOptions, type FlagDeclaration, type FlagReader, type HostCommand, type HostValues } from './host-flags';
import { listenerFlags } from './listener-flags';
import { priorityFeeFlags } from './priority-fee-flags';
import { sweepFlags } from './sweep-flags';

export interface HostRun {
  /** What parseArgs read (log-file, no-console and faucet-mint/-authority are the command's to use). */
  values: HostValues;
  flags: OperatorFlags;
  /** `serve --gateway-port` (undefined for keeper). */
  gatewayPort: number | undefined;
}

/** The per-area parsers run after the plain flags, in this order. */
const AREA_PARSERS: readonly [FlagReader, (values: HostValues) => Partial<OperatorFlags>][] = [
  ['guardian', guardianFlags],
  ['shard', (values) => present('shard', shardFlags(values))],
  ['alert-webhooks', (values) => present('alertWebhooks', alertWebhookFlags(values))],
  ['heartbeat', heartbeatFlags],
  ['alert-thresholds', (values) => present('alertThresholds', alertThresholdFlags(values))],
  ['sweep', (values) => present('sweep', sweepFlags(values))],
  ['faucet-limits', faucetFlags],
  ['keep-history', (values) => present('keepHistoryMs', keepHistoryFlag(values['keep-history']) || undefined)],
  ['listeners', listenerFlags],
];

/** `{ [key]: value }`, or nothing when the flags set no value. */
function present<K extends keyof OperatorFlags>(key: K, value: OperatorFlags[K] | undefined): Partial<OperatorFlags> {
  return value === undefined ? {} : { [key]: value };
}

/** A number flag's value: a port or an integer of at least `min`, its default when absent. */
function numberFlag(name: string, flag: FlagDeclaration, value: string | undefined): number | undefined {
  const fallback = typeof flag.default === 'number' ? flag.default : undefined;
  if (flag.read === 'port') return fallback === undefined ? portFlag(name, value) : portFlag(name, value, fallback);
  return value === undefined ? fallback : integerFlag(name, value, flag.min ?? 0, fallback ?? 0);
}

/** Parses `command`'s arguments; a wrong, missing or conflicting flag is a UsageError (exit 2). */
export function parseHostFlags(command: HostCommand, args: string[]): HostRun {
  const declared = flagsOf(command);
  const reads = new Set(declared.map(([, flag]) => flag.read));
  const values = parseFlags(args, hostOptions(command)).values as HostValues;
  const flags: OperatorFlags = {};
  let gatewayPort: number | undefined;

  const endpoints = endpointFlags(values);
  if (endpoints) Object.assign(flags, { cluster: clusterOfEndpoints(endpoints, (values.ws ?? []).length > 0), endpoints });
  for (const [name, flag] of declared) if (flag.required?.by === command && values[name] === undefined) throw new UsageError(flag.required.missing);
  if (reads.has('priority-fee')) Object.assign(flags, priorityFeeFlags(values));
  if (reads.has('faucet-authority') && (values['faucet-mint'] === undefined) !== (values['faucet-authority'] === undefined))
    throw new UsageError('--faucet-mint and --faucet-authority go together');
  for (const [name, flag] of declared)
    if (flag.insteadOfRpc && values.rpc !== undefined && values[name] !== undefined)
      throw new UsageError(`--rpc and --${name} are alternatives: --rpc uses that cluster instead of the embedded localnet, --${name} ${flag.insteadOfRpc}`);
  for (const [name, flag] of declared) if (flag.needsRpc && values[name] !== undefined && values.rpc === undefined) throw new UsageError(`--${name} needs --rpc: ${flag.needsRpc}`);

  // Plain values and numbers, in the declarations' order.
  for (const [name, flag] of declared) {
    const value = values[name];
    let set: unknown;
    if (flag.read === 'port' || flag.read === 'integer') set = numberFlag(name, flag, value as string | undefined);
    else if (flag.read === 'text') set = flag.emptyIsAbsent && !value ? undefined : value;
    if (set === undefined || !flag.sets) continue;
    if (flag.sets === 'gatewayPort') gatewayPort = set as number;
    else Object.assign(flags, { [flag.sets]: set });
  }

  // Then each area's parser, in the order both commands have always run them.
  for (const [read, parse] of AREA_PARSERS) if (reads.has(read)) Object.assign(flags, parse(values));
  return { values, flags, gatewayPort };
}
