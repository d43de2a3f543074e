/**
 * The server keeper's console address, read over SSH: `wager-keeper console-url` run on the server
 * through an exec channel prints one line, the console URL with its token (`http://127.0.0.1:7300/
 * console/#token=…`), and exits 0; it prints nothing and exits 1 when no keeper runs there. Read again on
 * every connect: a keeper that restarted has a new token and maybe a new port.
 */
import type { Client } from 'ssh2';

/** The command run on the server (its login shell finds it on PATH). */
export const CONSOLE_URL_COMMAND = 'wager-keeper console-url';

/** Something a retry alone will not mend: the entry shows `failed` with this sentence. */
export class KeeperSetupError extends Error {}

/** Where the server keeper's operator interface listens (on the server's loopback) and its token. */
export interface RemoteConsole {
  port: number;
  token: string;
}

/** Reads the console URL printed by `wager-keeper console-url` (one line): its port and token. */
export function parseConsoleUrl(line: string): RemoteConsole {
  let url: URL;
  try {
    url = new URL(line.trim());
  } catch {
    throw new KeeperSetupError(`\`${CONSOLE_URL_COMMAND}\` on the server printed no console URL ("${line.trim().slice(0, 80)}"): update wager-keeper there`);
  }
  const token = new URLSearchParams(url.hash.replace(/^#/, '')).get('token') ?? url.searchParams.get('token');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!token) throw new KeeperSetupError(`the console URL the server printed carries no token: update wager-keeper there`);
  return { port, token };
}

/** What the command's ending means for the operator. */
export function consoleUrlOutcome(code: number | null, stdout: string, stderr: string, where: string): RemoteConsole {
  const line = stdout.split('\n').find((text) => text.trim() !== '');
  if (code === 0 && line) return parseConsoleUrl(line);
  if (code === 127 || /wager-keeper: (command )?not found/i.test(stderr))
    throw new KeeperSetupError(`wager-keeper is not on the PATH of ${where}: install it there (see docs/keeper.md, "Running on a server") or link it into /usr/local/bin`);
  if (code === 1 && !line)
    throw new KeeperSetupError(`no keeper runs on ${where}: start it with \`wager-keeper service install …\` (or \`wager-keeper keeper\`), then it connects by itself`);
  const said = stderr.trim().split('\n').pop()?.slice(0, 200) ?? '';
  throw new KeeperSetupError(`\`${CONSOLE_URL_COMMAND}\` failed on ${where} (exit ${code ?? 'by a signal'}${said ? `: ${said}` : ''})`);
}

/** Runs the command on a ready SSH client and answers the keeper's port and token. */
export function readRemoteConsole(client: Client, where: string, timeoutMs = 15_000): Promise<RemoteConsole> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`\`${CONSOLE_URL_COMMAND}\` did not answer within ${timeoutMs / 1000} s on ${where}`)), timeoutMs);
    client.exec(CONSOLE_URL_COMMAND, (error, channel) => {
      if (error) {
        clearTimeout(timer);
        reject(error);
        return;
      }
      let stdout = '';
      let stderr = '';
      channel.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      channel.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      channel.on('close', (code: number | null) => {
        clearTimeout(timer);
        try {
          resolve(consoleUrlOutcome(typeof code === 'number' ? code : null, stdout, stderr, where));
        } catch (failure) {
          reject(failure as Error);
        }
      });
    });
  });
}
