/**
 * For tests and benches that run `serve`/`keeper` with stdout on a pipe: the ready line then carries the
 * console URL without its token and names the 0600 file that holds it (`consoleUrlFile`, issue 36). This
 * puts the full URL (with the token) back into `console`, as a terminal would have printed it.
 */
import { readFileSync } from 'node:fs';

/** The ready line with `console` read back from its `consoleUrlFile`; unchanged when it has no such file. */
export function withConsoleToken<T extends { console?: string; consoleUrlFile?: string }>(ready: T): T {
  if (!ready.consoleUrlFile || !ready.console) return ready;
  const { url } = JSON.parse(readFileSync(ready.consoleUrlFile, 'utf8')) as { url: string };
  // Two runs sharing a data folder overwrite each other's file: say so rather than hand over the other's token.
  if (!url.startsWith(`${ready.console}#`))
    throw new Error(`${ready.consoleUrlFile} holds ${url.split('#')[0]}, not this run's ${ready.console}: give each run its own data folder (XDG_DATA_HOME or --db)`);
  return { ...ready, console: url };
}
