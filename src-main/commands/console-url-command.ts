/**
 * `wager-keeper console-url [--db FILE]`: the console URL, with its token, of the keeper running on this
 * machine with that data folder, read from its console-url.json (issue 36), so an operator (or the desktop
 * app over SSH) gets it without the journal. One line on stdout and exit 0; when none runs, nothing on
 * stdout, a sentence on stderr and exit 1. Node built-ins only: it answers without loading @solana/kit.
 */
import { parseArgs } from 'node:util';
import { dataFolder } from './command-defaults';
import { readRunningConsoleUrl } from '../service/console-url-file';

/** The flags of `console-url` (the usage text lists each, a test checks). */
export const CONSOLE_URL_OPTIONS = { db: { type: 'string' } } as const;

/** Prints the running keeper's console URL; resolves to the exit code (0 printed, 1 none runs). */
export function consoleUrlCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: CONSOLE_URL_OPTIONS, strict: true, allowPositionals: false });
  const dataDir = dataFolder(values.db);
  const running = readRunningConsoleUrl(dataDir);
  if (!running) {
    process.stderr.write(
      `wager-keeper console-url: no keeper with a console runs with data folder ${dataDir}: start one with \`wager-keeper keeper\` (or \`wager-keeper service install\`), or name its --db FILE\n`,
    );
    return Promise.resolve(1);
  }
  process.stdout.write(`${running.url}\n`);
  return Promise.resolve(0);
}
