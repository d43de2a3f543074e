/**
 * Logs in a rotating file beside stderr (the desktop app: <userData>/logs/; keeper/serve: --log-file FILE),
 * with pino-roll (the pino team's) used as a plain stream in this thread: no transport worker thread to
 * start (see docs/alerts.md, "Logs and diagnostics"). Size and count are capped: 10 MB a file, 5 files
 * (the one written now and 4 older); the oldest is removed on rotation. Files are mode 0600.
 * FILE `keeper.log` becomes keeper.1.log, keeper.2.log, ... (pino-roll numbers them; the highest is the newest).
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import pinoRoll from 'pino-roll';
import type SonicBoom from 'sonic-boom';

export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const LOG_FILE_COUNT = 5;

export interface RotatingLogFile {
  /** The path given; the files are numbered beside it. */
  path: string;
  write(line: string): void;
  /** The log files now on disk, oldest first. */
  files(): Promise<string[]>;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
  /** The stream (tests wait for its 'cleanup-complete' after a rotation). */
  stream: SonicBoom;
}

const baseOf = (path: string) => {
  const extension = extname(path) || '.log';
  return { base: extname(path) ? path.slice(0, -extension.length) : path, extension };
};

export async function openRotatingLogFile(
  path: string,
  { maxBytes = LOG_FILE_MAX_BYTES, count = LOG_FILE_COUNT } = {},
): Promise<RotatingLogFile> {
  const { base, extension } = baseOf(path);
  const stream = await pinoRoll({
    file: base,
    extension,
    size: `${Math.max(1, Math.round(maxBytes / 1024))}k`,
    limit: { count: count - 1 },
    mkdir: true,
    mode: 0o600,
  });
  // A full disk or a removed folder must not crash the keeper: the file stops, stderr goes on.
  stream.on('error', () => undefined);
  let closing: Promise<void> | undefined;
  const numbered = new RegExp(`^${escape(basename(base))}\\.(\\d+)${escape(extension)}$`);
  return {
    path,
    stream,
    write: (line) => void stream.write(line),
    async files() {
      const names = await readdir(dirname(base)).catch(() => [] as string[]);
      return names
        .map((name) => ({ name, n: Number(numbered.exec(name)?.[1] ?? NaN) }))
        .filter(({ n }) => Number.isFinite(n))
        .sort((a, b) => a.n - b.n)
        .map(({ name }) => join(dirname(base), name));
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      })),
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
