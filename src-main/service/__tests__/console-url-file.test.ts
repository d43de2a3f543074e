/**
 * console-url.json on its own: written 0600 and atomically (no temp file left), read back only while its
 * process runs (a stale file of a dead process counts as none), removed only by the process that wrote it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleUrlFilePath, readRunningConsoleUrl, removeConsoleUrlFile, writeConsoleUrlFile } from '../console-url-file';

const dir = mkdtempSync(join(tmpdir(), 'wk-console-url-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const record = { url: 'http://127.0.0.1:7300/console/#token=abc', pid: process.pid, startedAt: new Date().toISOString() };

describe('console-url.json', () => {
  it('is written with mode 0600 and leaves no temp file, then read back while its process runs', async () => {
    const data = join(dir, 'fresh', 'wager-keeper');
    const path = await writeConsoleUrlFile(data, record);
    expect(path).toBe(consoleUrlFilePath(data));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(data)).toEqual(['console-url.json']);
    expect(readRunningConsoleUrl(data)).toEqual(record);
  });

  it('counts a stale file of a dead process, a foreign file and no file as none', () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, 'console-url.json'), JSON.stringify({ ...record, pid: dead }), { mode: 0o600 });
    expect(readRunningConsoleUrl(dir)).toBeNull();
    writeFileSync(join(dir, 'console-url.json'), '{"url":', { mode: 0o600 });
    expect(readRunningConsoleUrl(dir)).toBeNull();
    expect(readRunningConsoleUrl(join(dir, 'missing'))).toBeNull();
  });

  it("is removed on stop only by the process that wrote it: another keeper's stays", async () => {
    const data = join(dir, 'shared');
    await writeConsoleUrlFile(data, { ...record, pid: process.pid + 1 });
    await removeConsoleUrlFile(data);
    expect(readdirSync(data)).toEqual(['console-url.json']);
    await writeConsoleUrlFile(data, record);
    await removeConsoleUrlFile(data);
    expect(readdirSync(data)).toEqual([]);
  });
});
