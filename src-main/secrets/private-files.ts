/**
 * Files readable by this user only (issue 33): the settings keep RPC URLs, whose query or path often
 * carries a paid provider's key, so they are 0600 in a 0700 folder like an SSH key. A file written here
 * goes to a 0600 temporary file first and is renamed over the old one (a crash leaves the old file or
 * the new one, never half of either); a file or folder found with a wider mode is narrowed when opened.
 * On Windows modes mean nothing (the profile folder's ACL protects the files): these do nothing there.
 */
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Read and written by the owner only. */
export const PRIVATE_FILE_MODE = 0o600;
/** Entered and listed by the owner only. */
export const PRIVATE_FOLDER_MODE = 0o700;

const modesApply = process.platform !== 'win32';

/** Creates `folder` (and its parents) if missing and makes it 0700; answers the folder. */
export function ensurePrivateFolder(folder: string): string {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (modesApply && (statSync(folder).mode & 0o777) !== PRIVATE_FOLDER_MODE) chmodSync(folder, PRIVATE_FOLDER_MODE);
  return folder;
}

/** Narrows an existing file to 0600 (one written before this rule, or by hand); a missing file is left missing. */
export function narrowToPrivate(file: string): void {
  if (!modesApply) return;
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat?.isFile() && (stat.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(file, PRIVATE_FILE_MODE);
}

/** Writes `data` to `file` atomically, 0600 from its first byte, in a 0700 folder. */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  ensurePrivateFolder(dirname(file));
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': a fresh file (never one planted there), created with the mode, so no moment is it readable by others.
  const fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    // The umask may have taken bits away, never added any; set exactly 0600 all the same.
    if (modesApply) chmodSync(temporary, PRIVATE_FILE_MODE);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
