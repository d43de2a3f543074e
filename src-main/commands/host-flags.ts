/**
 * The flags of `keeper` and `serve`, each declared once: which command takes it, its value in the usage,
 * its default, how it is read (host-flag-parsing.ts runs the readers, calling the per-area parsers) and
 * the help topic it belongs to (host-flag-usage.ts writes both commands' usage from these). Plain data
 * with Node built-ins only, so `wager-keeper help` shows it without loading any command.
 */
import type { OperatorFlags } from '../runtime/operator-options';
import { DEFAULT_API_PORT, DEFAULT_GATEWAY_PORT } from './command-defaults';
import { TOPICS, type HelpTopic } from './host-flag-topics';

/** The two commands that host the console's core and share these flags. */
export type HostCommand = 'keeper' | 'serve';

/** How a flag is read: a plain value, a checked number, or one area's parser (which reads its flags together). */
export type FlagReader =
  | 'text' | 'switch' | 'port' | 'integer' | 'endpoints' | 'priority-fee' | 'faucet-authority' | 'guardian' | 'shard'
  | 'alert-webhooks' | 'heartbeat' | 'alert-thresholds' | 'sweep' | 'faucet-limits' | 'keep-history' | 'listeners';

export interface FlagDeclaration {
  readonly commands: readonly HostCommand[];
  readonly read: FlagReader;
  /** What follows the flag in the usage: a value's name (URL, FILE) or a typical value; none for a switch. */
  readonly value?: string;
  /** Repeatable (parseArgs `multiple`). */
  readonly multiple?: true;
  /** The value when the flag is absent (the usage shows it): parseArgs's for text, the reader's for numbers. */
  readonly default?: string | number;
  /** The least an integer flag takes. */
  readonly min?: number;
  /** Where a text or number flag goes in OperatorFlags (gatewayPort: serve's own). */
  readonly sets?: keyof OperatorFlags | 'gatewayPort';
  /** An empty value counts as absent. */
  readonly emptyIsAbsent?: true;
  /** The flag this one goes with: written inside its brackets in the usage. */
  readonly with?: string;
  /** Only ever given with `with`: no brackets of its own. */
  readonly together?: true;
  /** The command that cannot run without this flag, and the sentence it exits 2 with. */
  readonly required?: { readonly by: HostCommand; readonly missing: string };
  /** Serve's embedded-localnet flags: refused beside --rpc, saying what they do. */
  readonly insteadOfRpc?: string;
  /** Refused without --rpc, with this reason. */
  readonly needsRpc?: string;
  readonly topic?: HelpTopic;
}

const BOTH = ['keeper', 'serve'] as const;
const KEEPER = ['keeper'] as const;
const SERVE = ['serve'] as const;
const threshold = (value: string) => ({ commands: BOTH, read: 'alert-thresholds', value, topic: TOPICS.alertThresholds }) as const;

/** Every flag of `keeper` and `serve`, in the order their usage lists them. */
export const HOST_FLAGS = {
  rpc: { commands: BOTH, read: 'endpoints', value: 'URL', multiple: true, required: { by: 'keeper', missing: 'missing --rpc URL (the cluster to crank on)' }, topic: TOPICS.endpoints },
  ws: { commands: BOTH, read: 'endpoints', value: 'URL', multiple: true, with: 'rpc', topic: TOPICS.endpoints },
  'send-rpc': { commands: BOTH, read: 'endpoints', value: 'URL', multiple: true, with: 'rpc', topic: TOPICS.endpoints },
  deployment: { commands: BOTH, read: 'text', value: 'FILE', sets: 'deploymentFile', emptyIsAbsent: true, with: 'rpc', needsRpc: 'the embedded localnet brings its own deployment' },
  port: { commands: BOTH, read: 'port', default: DEFAULT_API_PORT, sets: 'apiPort' },
  'rpc-port': { commands: SERVE, read: 'port', default: 8899, sets: 'embeddedRpcPort', insteadOfRpc: 'sets the port of the embedded localnet', topic: TOPICS.embedded },
  host: { commands: BOTH, read: 'text', default: '127.0.0.1', sets: 'apiHost' },
  'cors-origin': { commands: BOTH, read: 'text', value: 'ORIGIN', multiple: true, sets: 'corsOrigins' },
  'public-host': { commands: BOTH, read: 'listeners', value: 'NAME', multiple: true },
  'trust-proxy': { commands: BOTH, read: 'listeners', value: 'HOPS|ADDRESS,...', multiple: true },
  db: { commands: BOTH, read: 'text', value: 'FILE', sets: 'dbPath' },
  keypair: { commands: BOTH, read: 'text', value: 'FILE', sets: 'keypairFile', emptyIsAbsent: true },
  'priority-fee': { commands: KEEPER, read: 'priority-fee', value: 'auto|MICROLAMPORTS', topic: TOPICS.priorityFee },
  'priority-fee-percentile': { commands: KEEPER, read: 'priority-fee', value: '75', topic: TOPICS.priorityFee },
  'priority-fee-multiplier': { commands: KEEPER, read: 'priority-fee', value: '1', topic: TOPICS.priorityFee },
  'min-priority-fee': { commands: KEEPER, read: 'priority-fee', value: 'MICROLAMPORTS', topic: TOPICS.priorityFee },
  'max-priority-fee': { commands: KEEPER, read: 'priority-fee', value: 'MICROLAMPORTS', topic: TOPICS.priorityFee },
  'metrics-port': { commands: BOTH, read: 'port', value: 'N', sets: 'metricsPort' },
  'slot-ms': { commands: SERVE, read: 'integer', default: 400, min: 10, sets: 'embeddedSlotMs', insteadOfRpc: 'sets the slot time of the embedded localnet', topic: TOPICS.embedded },
  'gateway-port': { commands: SERVE, read: 'port', default: DEFAULT_GATEWAY_PORT, sets: 'gatewayPort', topic: TOPICS.gatewayPort },
  'max-in-flight': { commands: KEEPER, read: 'integer', value: '128', min: 1, sets: 'maxInFlight' },
  'faucet-mint': { commands: KEEPER, read: 'faucet-authority', value: 'MINT', topic: TOPICS.faucetMint },
  'faucet-authority': { commands: KEEPER, read: 'faucet-authority', value: 'FILE', with: 'faucet-mint', together: true, topic: TOPICS.faucetMint },
  'faucet-sol-per-day': { commands: BOTH, read: 'faucet-limits', value: '0.5', topic: TOPICS.faucetBudget },
  'guardian-keypair': { commands: KEEPER, read: 'guardian', value: 'FILE', topic: TOPICS.guardian },
  'guardian-pause-after-slots': { commands: KEEPER, read: 'guardian', value: '60', with: 'guardian-keypair', topic: TOPICS.guardian },
  'guardian-resume-after-slots': { commands: KEEPER, read: 'guardian', value: '20', with: 'guardian-keypair', topic: TOPICS.guardian },
  shard: { commands: BOTH, read: 'shard', value: 'I/N', topic: TOPICS.shard },
  'shard-takeover-slots': { commands: BOTH, read: 'shard', value: '20', with: 'shard', topic: TOPICS.shard },
  'heartbeat-url': { commands: BOTH, read: 'heartbeat', value: 'URL', topic: TOPICS.heartbeat },
  'heartbeat-every': { commands: BOTH, read: 'heartbeat', value: '30', with: 'heartbeat-url', topic: TOPICS.heartbeat },
  'alert-webhook': { commands: BOTH, read: 'alert-webhooks', value: '[FORMAT=]URL', multiple: true, topic: TOPICS.alertWebhooks },
  'alert-balance-warning': threshold('0.5'),
  'alert-balance-critical': threshold('0.1'),
  'alert-runway-hours': threshold('24'),
  'alert-rpc-failing-seconds': threshold('30'),
  'alert-loop-stalled-seconds': threshold('60'),
  'alert-debounce-seconds': threshold('10'),
  'alert-reminder-minutes': threshold('60'),
  'alert-crank-failures-per-10-min': threshold('20'),
  'alert-expiry-warning-slots': threshold('30'),
  'sweep-to': { commands: BOTH, read: 'sweep', value: 'ADDRESS', topic: TOPICS.sweep },
  'sweep-keep': { commands: BOTH, read: 'sweep', value: 'SOL', topic: TOPICS.sweep },
  'sweep-threshold': { commands: BOTH, read: 'sweep', value: '0.1', with: 'sweep-to', topic: TOPICS.sweep },
  'sweep-every': { commands: BOTH, read: 'sweep', value: '1d', with: 'sweep-to', topic: TOPICS.sweep },
  'keep-history': { commands: BOTH, read: 'keep-history', value: '90d', topic: TOPICS.keepHistory },
  'log-file': { commands: BOTH, read: 'text', value: 'FILE', topic: TOPICS.logFile },
  'no-console': { commands: BOTH, read: 'switch' },
} as const satisfies Record<string, FlagDeclaration>;

type Declared = typeof HOST_FLAGS;
export type HostFlagName = keyof Declared;
/** The flags `command` takes. */
export type FlagOf<C extends HostCommand> = { [K in HostFlagName]: C extends Declared[K]['commands'][number] ? K : never }[HostFlagName];
type OptionOf<D> = D extends { read: 'switch' }
  ? { type: 'boolean' }
  : D extends { multiple: true }
    ? { type: 'string'; multiple: true }
    : D extends { read: 'text'; default: string }
      ? { type: 'string'; default: string }
      : { type: 'string' };
/** node:util parseArgs options of `command`, derived from the declarations. */
export type HostOptions<C extends HostCommand> = { [K in FlagOf<C>]: OptionOf<Declared[K]> };
/** What parseArgs gives for any of these flags. */
export type HostValues = { [K in HostFlagName]?: OptionOf<Declared[K]> extends { type: 'boolean' } ? boolean : OptionOf<Declared[K]> extends { multiple: true } ? string[] : string };

/** The declarations of `command`'s flags, in usage order. */
export const flagsOf = (command: HostCommand): [HostFlagName, FlagDeclaration][] =>
  (Object.entries(HOST_FLAGS) as [HostFlagName, FlagDeclaration][]).filter(([, flag]) => flag.commands.includes(command));

/** The parseArgs options of `command` (KEEPER_OPTIONS, SERVE_OPTIONS). */
export function hostOptions<C extends HostCommand>(command: C): HostOptions<C> {
  const option = (flag: FlagDeclaration) =>
    flag.read === 'switch'
      ? { type: 'boolean' }
      : { type: 'string', ...(flag.multiple ? { multiple: true } : {}), ...(flag.read === 'text' && typeof flag.default === 'string' ? { default: flag.default } : {}) };
  return Object.fromEntries(flagsOf(command).map(([name, flag]) => [name, option(flag)])) as HostOptions<C>;
}
