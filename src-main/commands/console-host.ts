/**
 * Runs the console's core headless for `serve` and `keeper`: settings from conf, the operator service
 * (keeper, /v1, and unless --no-console the operator API with the built UI), one ready line, then waits
 * for a signal and stops cleanly. The ready line keeps every field the command printed before and adds
 * `console` when the console is served: the URL with the per-run token on a terminal; elsewhere (a pipe, a
 * journal) without it, and `consoleUrlFile`, the 0600 file in the data folder that holds it (issue 36:
 * `wager-keeper console-url` prints it), written while the console runs and removed on a clean stop.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { attachLogFile, detachLogFile } from '../logging';
import { UsageError } from './cli-flags';
import { openHeadlessSettings } from '../runtime/console-settings';
import { createOperatorService, type OperatorFlags, type ServiceDescription } from '../console-core/operator-service';
import { dataFolder, defaultDatabasePath } from './command-defaults';
import { untilSignal } from './until-signal';
import { projectPath } from '../project-root';
import { removeConsoleUrlFile, writeConsoleUrlFile } from '../service/console-url-file';

/** out/renderer of this checkout (electron-vite builds it; `npm start` and `npm test` build it first). */
export const CONSOLE_UI_DIRECTORY = projectPath('out', 'renderer');

export interface ConsoleHostOptions {
  console: boolean;
  /** --log-file FILE: the logs also go to this rotating file (10 MB x 5). */
  logFile?: string;
  flags: OperatorFlags;
  /** `keeper` cranks with its own key (keychain or --keypair) even on a localnet; `serve` with the dev key. */
  devKeyOnLocalnet: boolean;
  /** The command's own ready-line fields (`event`, and `console` when served, are added). */
  readyLine(described: ServiceDescription): Record<string, unknown>;
  /** Something started once the service runs (serve's gateway), with its ready-line fields; stopped first. */
  companion?(described: ServiceDescription): Promise<{ readyLine: Record<string, unknown>; stop(): Promise<void> }>;
}

export async function runConsoleHost(options: ConsoleHostOptions): Promise<number> {
  if (options.logFile)
    await attachLogFile(resolve(options.logFile)).catch((error: unknown) => {
      throw new UsageError(`--log-file: ${(error as Error).message} (name a file in a folder you can write)`);
    });
  const service = createOperatorService({
    host: 'headless',
    settings: openHeadlessSettings(),
    dataDir: dirname(defaultDatabasePath()),
    flags: options.flags,
    ...(options.console ? { console: { uiDirectory: CONSOLE_UI_DIRECTORY } } : {}),
    failFast: true,
    devKeyOnLocalnet: options.devKeyOnLocalnet,
  });
  await service.start();
  const described = service.describe();
  const companion = await options.companion?.(described).catch(async (error: unknown) => {
    await service.stop();
    throw error;
  });
  if (options.console && !existsSync(join(CONSOLE_UI_DIRECTORY, 'index.html')))
    process.stderr.write('wager-keeper: the console UI is not built (out/renderer is missing): run `npm run build`; the console URL answers 404 until then\n');
  const dataDir = dataFolder(options.flags.dbPath);
  const urlFile = described.consoleUrl
    ? await writeConsoleUrlFile(dataDir, { url: described.consoleUrl, pid: process.pid, startedAt: new Date().toISOString() })
    : null;
  console.log(
    JSON.stringify({
      event: 'ready',
      ...options.readyLine(described),
      ...companion?.readyLine,
      ...(described.consoleUrl ? consoleReadyFields(described.consoleUrl, urlFile!, process.stdout.isTTY === true) : {}),
    }),
  );
  const signal = await untilSignal();
  await companion?.stop();
  await service.stop();
  if (urlFile) await removeConsoleUrlFile(dataDir);
  console.log(JSON.stringify({ event: 'stopped', signal }));
  await detachLogFile();
  return 0;
}

/** The ready line's console fields: the token only on a terminal; a journal or a pipe gets the file that holds it. */
export function consoleReadyFields(consoleUrl: string, urlFile: string, terminal: boolean): Record<string, string> {
  if (terminal) return { console: consoleUrl };
  return { console: consoleUrl.split('#')[0]!, consoleUrlFile: urlFile };
}
