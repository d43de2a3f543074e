/**
 * The console-url file (issue 36): a running `serve`/`keeper` with its console keeps its console URL, with
 * the per-run token, in `console-url.json` (mode 0600) in its data folder, so `wager-keeper console-url`
 * (and a desktop app over SSH) finds it without the journal. Node built-ins only: `console-url` stays light.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file's name inside the data folder. */
export const CONSOLE_URL_FILE_NAME = 'console-url.json';

/** What the file holds: the console URL with its token, the keeper's process id and when it started (ISO). */
export interface ConsoleUrlRecord {
  url: string;
  pid: number;
  startedAt: string;
}

/** The file's path in the data folder `dataDir`. */
export const consoleUrlFilePath = (dataDir: string): string => join(dataDir, CONSOLE_URL_FILE_NAME);

/**
 * Writes the record atomically: a temp file created with mode 0600 beside it, then renamed over the file,
 * so a reader never sees half a file and the token is never readable by others, not even for a moment.
 */
export async function writeConsoleUrlFile(dataDir: string, record: ConsoleUrlRecord): Promise<string> {
  const path = consoleUrlFilePath(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return path;
}

/** The record in `path`, or null when there is none or it is not one (unreadable, half, foreign). */
function readRecord(text: string): ConsoleUrlRecord | null {
  try {
    const parsed = JSON.parse(text) as Partial<ConsoleUrlRecord>;
    return typeof parsed.url === 'string' && Number.isInteger(parsed.pid) && typeof parsed.startedAt === 'string' ? (parsed as ConsoleUrlRecord) : null;
  } catch {
    return null;
  }
}

/** Whether a process with this id runs (signal 0 only checks; EPERM: it runs, as another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The record of the keeper running with data folder `dataDir`, or null: no file, or a stale one of a dead process. */
export function readRunningConsoleUrl(dataDir: string): ConsoleUrlRecord | null {
  let text: string;
  try {
    text = readFileSync(consoleUrlFilePath(dataDir), 'utf8');
  } catch {
    return null;
  }
  const record = readRecord(text);
  return record && record.pid > 0 && processRuns(record.pid) ? record : null;
}

/**
 * Removes the file on a clean stop, only while it is still this process's: another keeper started on the
 * same data folder since has written its own, which stays.
 */
export async function removeConsoleUrlFile(dataDir: string, pid: number = process.pid): Promise<void> {
  const path = consoleUrlFilePath(dataDir);
  const record = readRecord(await readFile(path, 'utf8').catch(() => ''));
  if (record?.pid === pid) await rm(path, { force: true });
}
