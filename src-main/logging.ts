/**
 * Structured logs (pino, JSON lines on stderr so stdout stays for the ready line and command output).
 * Keys and secrets are never passed to the logger; `redact` is a second line of defence, and every line is
 * scrubbed (diagnostics/secret-scrub.ts) before it goes anywhere.
 *
 * Every logger of the process writes to one sink: stderr, the in-memory ring the console's Logs screen
 * reads, and the rotating log file once one is attached (the desktop app: <userData>/logs/; keeper/serve:
 * --log-file). The sink is a plain stream in this thread (no transport worker).
 */
import { pino, type Logger } from 'pino';
import { createLogRing, type LogRing } from './diagnostics/log-ring';
import { openRotatingLogFile, type RotatingLogFile } from './diagnostics/log-file';
import { scrubSecrets } from '../src-shared/secret-scrub';

const REDACT = [
  'secretKey',
  'keypair',
  '*.secretKey',
  '*.keypair',
  'mintAuthority',
  'token',
  '*.token',
  'webhookUrl',
  '*.webhookUrl',
];

/** The process's recent log lines (the Logs screen, diagnostics). */
export const logRing: LogRing = createLogRing();
let logFile: RotatingLogFile | null = null;
let stderr: pino.DestinationStream | null = null;

const sink: pino.DestinationStream = {
  write(line: string) {
    const clean = scrubSecrets(line);
    (stderr ??= pino.destination(2)).write(clean);
    logRing.push(clean);
    logFile?.write(clean);
  },
};

export function createLogger(name: string, level = process.env.WAGER_KEEPER_LOG ?? 'info'): Logger {
  return pino({ name, level, redact: REDACT }, sink);
}

/**
 * From now on every logger also writes to the rotating file at `path` (replacing one attached before).
 * A file that cannot be opened is reported by the promise; logging to stderr goes on regardless.
 */
export async function attachLogFile(
  path: string,
  caps?: { maxBytes?: number; count?: number },
): Promise<RotatingLogFile> {
  const opened = await openRotatingLogFile(path, caps);
  const previous = logFile;
  logFile = opened;
  await previous?.close();
  return opened;
}

/** The attached log file, or null. */
export const attachedLogFile = (): RotatingLogFile | null => logFile;

/** Flushes and detaches the log file (at exit, and between tests). */
export async function detachLogFile(): Promise<void> {
  const previous = logFile;
  logFile = null;
  await previous?.close();
}

export type { Logger };
