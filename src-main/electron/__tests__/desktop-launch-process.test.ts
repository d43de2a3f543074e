/**
 * `npm start` for real, as a process (`node scripts/start.mjs`), where Electron's download fails: its real
 * installer is pointed at an unreachable mirror with an empty cache, so it fails at once on any machine. It
 * must fall back to the headless console quoting the download's error, serve, and stop cleanly on SIGINT.
 * Uses the console already built in out/ (WAGER_KEEPER_SKIP_UI_BUILD=1; `npm test` builds it first).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (it runs before anything is built); its JSDoc gives the types.
import { electronExecutable } from '../../../scripts/desktop-launch.mjs';
import { withConsoleToken } from '../../service/__tests__/ready-console-url';

const root = join(import.meta.dirname, '..', '..', '..');
const electronDirectory = join(root, 'node_modules', 'electron');
// With a real binary installed nothing would be downloaded (and Electron would start): the fakes in
// desktop-launch-session.test.ts cover that machine.
const binaryInstalled: boolean =
  electronExecutable({ electronDirectory, platform: process.platform, env: {} }).installed === true;
const emptyCache = mkdtempSync(join(tmpdir(), 'wk-electron-cache-'));
afterAll(() => rmSync(emptyCache, { recursive: true, force: true }));

describe.skipIf(binaryInstalled)('npm start where the Electron binary cannot be downloaded', () => {
  it('falls back to the headless console quoting the download error, serves, and exits 0 on SIGINT', async () => {
    const started = spawn(
      process.execPath,
      [join(root, 'scripts', 'start.mjs'), '--port', '0', '--rpc-port', '0', '--gateway-port', '0'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DISPLAY: ':0', // a display is "there", so the download is tried (no window is ever opened: it fails)
          ELECTRON_MIRROR: 'http://127.0.0.1:9/',
          electron_config_cache: emptyCache,
          WAGER_KEEPER_SKIP_UI_BUILD: '1',
        },
      },
    );
    let stderr = '';
    started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(started, 'exit') as Promise<[number | null, string | null]>;
    try {
      const lines = createInterface({ input: started.stdout });
      const ready = new Promise<Record<string, string>>((resolve) =>
        lines.on('line', (line) => {
          if (line.startsWith('{"event":"ready"')) resolve(JSON.parse(line));
        }),
      );
      const stopped = new Promise<string>((resolve) =>
        lines.on('line', (line) => line.includes('"event":"stopped"') && resolve(line)),
      );
      const first = await Promise.race([
        ready,
        exited.then(([code]) =>
          Promise.reject(new Error(`start.mjs exited (${code}) before serving: ${stderr}`)),
        ),
      ]);

      expect(stderr).toMatch(
        /the desktop app cannot start here: the Electron binary could not be downloaded from the mirror http:\/\/127\.0\.0\.1:9\/ \(ELECTRON_MIRROR\): \w*Error: [^\n]+\./,
      );
      expect(stderr).toContain('running the console headless instead');
      // stdout is a pipe here, not a terminal: the token is in the 0600 file the ready line names, not in the line.
      expect(first.console).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/$/);
      expect(withConsoleToken(first).console).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/#token=/);
      expect((await fetch(`${first.api}/v1/health`)).ok).toBe(true);

      started.kill('SIGINT'); // no terminal here: start.mjs passes it on to serve, once
      expect(await exited).toEqual([0, null]);
      expect(JSON.parse(await stopped)).toMatchObject({ event: 'stopped', signal: 'SIGINT' });
    } finally {
      if (started.exitCode === null && started.signalCode === null) started.kill('SIGKILL');
    }
  });
});
