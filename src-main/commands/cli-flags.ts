/**
 * What the commands share for their flags: the usage error (the CLI exits 2 for it, 1 for a failure)
 * and the checks of port numbers and other integers, so every command words them the same way.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { checkHeartbeatUrl } from '../alerts/heartbeat';
import { DEFAULT_SHARD_TAKEOVER_SLOTS, parseShard, ShardFormatError, type Shard } from '../keeper/shard';
import { parseAlertWebhook, type AlertWebhookSpec } from '../alerts/channels/webhook-flag';
import { AlertWebhookError } from '../alerts/channels/webhook-request';
import { parseKeepHistory } from '../store/history-retention';
import { SHARD_TAKEOVER_MAX_SLOTS, T_SETTLE_SLOTS } from '../../src-shared/wager-timing';

/** A command line the command cannot run with: wrong, missing or conflicting flags. Exit code 2. */
export class UsageError extends Error {}

/**
 * A TCP port flag: an integer 0..65535 (0 = any free port); `fallback` when the flag is absent.
 * @example portFlag('port', '7300', 7300) // 7300; portFlag('port', '70000', 7300) // throws UsageError
 */
export function portFlag(name: string, value: string | undefined, fallback: number): number;
export function portFlag(name: string, value: string | undefined): number | undefined;
export function portFlag(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(parsed) || parsed > 65_535)
    throw new UsageError(`--${name} must be a port number, an integer from 0 to 65535 (got '${value}')`);
  return parsed;
}

/** An integer flag of at least `min`; `fallback` when absent. */
export function integerFlag(name: string, value: string | undefined, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min) throw new UsageError(`--${name} must be an integer >= ${min} (got '${value}')`);
  return parsed;
}

/**
 * node:util parseArgs for a command's flags, worded for people: a value that starts with a dash after a
 * string flag is taken as that flag's value when it is a number (`--port -1` is `--port=-1`, so the
 * flag's own check names it), and otherwise refused with a one-line usage error naming the flag.
 */
export function parseFlags<T extends ParseArgsOptionsConfig>(args: string[], options: T, allowPositionals = false) {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && next.length > 1 && next.startsWith('-')) {
      if (!/^-[\d.]/.test(next))
        throw new UsageError(`--${name} needs a value (got the flag '${next}'); a value starting with a dash is written --${name}=VALUE`);
      joined.push(`${arg}=${next}`);
      i++;
      continue;
    }
    joined.push(arg);
  }
  return parseArgs({ args: joined, options, allowPositionals, strict: true as const });
}

/**
 * `--shard I/N [--shard-takeover-slots 20]` of `keeper` and `serve` (docs/keeper.md, *Fleets*): this
 * keeper's shard of a fleet, or undefined without --shard.
 * @example shardFlags({ shard: '1/3' }) // { index: 1, count: 3, takeoverSlots: 20 }
 */
export function shardFlags(values: { shard?: string; 'shard-takeover-slots'?: string }): Shard | undefined {
  const takeover = values['shard-takeover-slots'];
  if (values.shard === undefined) {
    if (takeover !== undefined) throw new UsageError('--shard-takeover-slots goes with --shard I/N');
    return undefined;
  }
  let shard: { index: number; count: number };
  try {
    shard = parseShard(values.shard);
  } catch (error) {
    if (error instanceof ShardFormatError) throw new UsageError(error.message);
    throw error;
  }
  const takeoverSlots = integerFlag('shard-takeover-slots', takeover, 1, DEFAULT_SHARD_TAKEOVER_SLOTS);
  if (takeoverSlots > SHARD_TAKEOVER_MAX_SLOTS) throw new UsageError(`--shard-takeover-slots must be below ${SHARD_TAKEOVER_MAX_SLOTS + 1} (a dead member's wager waits it twice, for its request and its settlement, inside T_SETTLE = ${T_SETTLE_SLOTS}), got ${takeoverSlots}`);
  return { ...shard, takeoverSlots };
}

/**
 * `--heartbeat-url URL [--heartbeat-every SECONDS]` of `keeper` and `serve` (the dead man's switch,
 * src-main/alerts/heartbeat.ts): the OperatorFlags fields, empty without --heartbeat-url.
 * @example heartbeatFlags({ 'heartbeat-url': 'https://hc-ping.com/UUID' }) // { heartbeatUrl: 'https://hc-ping.com/UUID' }
 */
export function heartbeatFlags(values: { 'heartbeat-url'?: string; 'heartbeat-every'?: string }): { heartbeatUrl?: string; heartbeatEverySeconds?: number } {
  const url = values['heartbeat-url'];
  const every = values['heartbeat-every'];
  if (url === undefined) {
    if (every !== undefined) throw new UsageError('--heartbeat-every goes with --heartbeat-url URL');
    return {};
  }
  let checked: string;
  try {
    checked = checkHeartbeatUrl(url);
  } catch (error) {
    throw new UsageError(`--heartbeat-url: ${(error as Error).message}`);
  }
  if (checked === '') throw new UsageError("--heartbeat-url needs the monitor's ping URL");
  return { heartbeatUrl: checked, ...(every === undefined ? {} : { heartbeatEverySeconds: integerFlag('heartbeat-every', every, 1, 0) }) };
}

/**
 * `--alert-webhook [FORMAT=]URL` of `keeper` and `serve`, repeatable (docs/alerts.md, *Channels*): this
 * run's webhook channels, or undefined without the flag. A bad value is a usage error that never repeats the URL.
 */
export function alertWebhookFlags(values: { 'alert-webhook'?: string[] }): AlertWebhookSpec[] | undefined {
  const given = values['alert-webhook'];
  if (!given?.length) return undefined;
  return given.map((value) => {
    try {
      return parseAlertWebhook(value);
    } catch (error) {
      if (error instanceof AlertWebhookError) throw new UsageError(`--alert-webhook: ${error.message}`);
      throw error;
    }
  });
}

/** --keep-history 90d / 36h: how long finished history is kept (ms), or undefined (keep all). */
export function keepHistoryFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseKeepHistory(value);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
