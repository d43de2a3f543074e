/**
 * The usage of `keeper` and `serve`, written from their flag declarations (host-flags.ts): the synopsis
 * lists every flag the command takes (with its default or value, nested under the flag it goes with),
 * then what the command does and the help of its flags' topics. cli.ts puts it into the usage text.
 */
import { flagsOf, HOST_FLAGS, type FlagDeclaration, type HostCommand, type HostFlagName } from './host-flags';
import type { HelpTopic } from './host-flag-topics';

/** What each command does, before its flags' help. */
const ABOUT: Record<HostCommand, string> = {
  keeper:
    'Runs the crank loop and the public /v1 API (and the faucet on a test network) against any cluster. The key comes from the OS keychain (created on first run) or --keypair; prints {"event":"ready","api":...,"console":URL}: the operator console for this machine (its URL carries a per-run token on a terminal; elsewhere "consoleUrlFile" names the 0600 file that holds it, printed by `wager-keeper console-url`; --no-console: none).',
  serve:
    'The embedded localnet (unless --rpc), the keeper with the faucet, the /v1 API and the operator console (the ready line\'s "console" URL, loopback only, with a per-run token on a terminal, else in the file "consoleUrlFile" that `wager-keeper console-url` prints; --no-console: none) together, plus the x402 gateway with a funded key when the cluster is a wager-keeper localnet (its URL is the ready line\'s "gateway").',
};

const WIDTH = 120;
/** Description lines: the usage text's second level (cli.ts's commandUsage tells them from the synopsis by it). */
const TEXT_INDENT = ' '.repeat(6);

/** Words (or synopsis items) filled into lines of at most WIDTH characters. */
function fill(pieces: readonly string[], first: string, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const piece of pieces) {
    if (!empty && line.length + 1 + piece.length > WIDTH) {
      lines.push(line);
      line = indent + piece;
    } else line += (empty ? '' : ' ') + piece;
    empty = false;
  }
  return [...lines, line];
}

/** One flag in the synopsis, with the flags that go with it inside its brackets. */
function synopsisItem(name: HostFlagName, flag: FlagDeclaration, command: HostCommand, flags: [HostFlagName, FlagDeclaration][]): string {
  const shown = flag.default ?? flag.value;
  let text = `--${name}${shown === undefined ? '' : ` ${shown}`}${flag.multiple && !String(shown).endsWith('...') ? ' ...' : ''}`;
  for (const [other, declared] of flags) if (declared.with === name) text += ` ${synopsisItem(other, declared, command, flags)}`;
  return flag.together || flag.required?.by === command ? text : `[${text}]`;
}

/** The topics of `command`'s flags, in the order its flags come, each with the flags of it the command takes. */
function topicsOf(flags: [HostFlagName, FlagDeclaration][]): Map<HelpTopic, HostFlagName[]> {
  const topics = new Map<HelpTopic, HostFlagName[]>();
  for (const [name, flag] of flags) if (flag.topic) topics.set(flag.topic, [...(topics.get(flag.topic) ?? []), name]);
  return topics;
}

const keeperTopics = new Set(Object.values(HOST_FLAGS).flatMap((flag: FlagDeclaration) => (flag.topic && flag.commands.includes('keeper') ? [flag.topic] : [])));

/** The usage block of `command` (its synopsis, then its description), as the usage text lists commands. */
export function hostUsage(command: HostCommand): string {
  const flags = flagsOf(command);
  const items = flags.filter(([, flag]) => flag.with === undefined).map(([name, flag]) => synopsisItem(name, flag, command, flags));
  const lines = fill(items, `  ${command} `, ' '.repeat(command.length + 3));
  const paragraph = (text: string) => lines.push(...fill(text.split(' '), TEXT_INDENT, TEXT_INDENT));
  paragraph(ABOUT[command]);
  const shared: string[] = [];
  for (const [topic, names] of topicsOf(flags)) {
    if (command !== 'keeper' && topic.summary && keeperTopics.has(topic)) shared.push(`${names.map((name) => `--${name}`).join(', ')}: ${topic.summary}, as for keeper.`);
    else paragraph(topic.help);
  }
  for (const text of shared) paragraph(text);
  return `${lines.join('\n')}\n`;
}
