/**
 * `wager-keeper service install|status|uninstall` run as the command function on a test host (every
 * folder in a temp root, no service manager run): it refuses, writing nothing, a key file others can read,
 * a missing key file or --keypair, a missing keeper program and a wrong keeper flag; --dry-run writes
 * nothing; uninstall removes what install wrote; on macOS it writes a well-formed launchd agent.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceCommand } from '../service-command';
import { testServiceHost } from '../../service/__tests__/test-service-host';
import type { ServiceHost } from '../../service/service-host';
import { writeConsoleUrlFile } from '../../service/console-url-file';

// The plist parser electron-builder uses for macOS builds (untyped): a real reader of what launchd reads.
const plist = createRequire(import.meta.url)('plist') as { parse(text: string): unknown };

const base = mkdtempSync(join(tmpdir(), 'wk-service-command-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let root: string;
let key: string;
const RPC = ['--rpc', 'http://127.0.0.1:8899'];

beforeEach(() => {
  root = mkdtempSync(join(base, 'case-'));
  key = join(root, 'keeper.json');
  writeFileSync(key, '[]', { mode: 0o600 });
});

/** Runs `service ARGS` on the test host: exit code (or the error it threw) and what it printed. */
async function service(args: string[], overrides: Partial<ServiceHost> = {}) {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  try {
    return { code: await serviceCommand(args, testServiceHost(root, overrides)), stdout, error: '' };
  } catch (error) {
    return { code: null, stdout, error: (error as Error).message };
  } finally {
    spy.mockRestore();
  }
}

/** Every file under the temp root but the key: what the command wrote. */
const written = () => readdirSync(root, { recursive: true }).filter((name) => name !== 'keeper.json');

describe('service install refuses before writing anything', () => {
  it('a key file readable by others (0644), saying chmod 600', async () => {
    chmodSync(key, 0o644);
    const refused = await service(['install', '--keypair', key, ...RPC]);
    expect(refused.error).toBe(`--keypair ${key} is readable or writable by group or others (mode 0644): a key file must be its owner's alone; run \`chmod 600 ${key}\` and install again`);
    expect(written()).toEqual([]);
  });

  it('a missing keeper program, a missing key file, no --keypair, a wrong keeper flag', async () => {
    expect((await service(['install', '--keypair', key, ...RPC], { bin: join(root, 'gone', 'wager-keeper.js') })).error).toMatch(/^the keeper program .*gone\/wager-keeper\.js is missing/);
    expect((await service(['install', '--keypair', join(root, 'nope.json'), ...RPC])).error).toMatch(/nope\.json: there is no such file/);
    expect((await service(['install', ...RPC])).error).toMatch(/^a service needs --keypair FILE: a server has no Secret Service/);
    expect((await service(['install', '--keypair', key, ...RPC, '--port', '70000'])).error).toMatch(/--port must be a port number/);
    expect((await service(['install', '--keypair', key])).error).toBe('missing --rpc URL (the cluster to crank on)');
    expect(written()).toEqual([]);
  });
});

describe('service install, status and uninstall', () => {
  it('--dry-run prints the unit and its drop-in with their paths, and writes nothing', async () => {
    const dry = await service(['install', '--dry-run', '--keypair', 'keeper.json', ...RPC]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`# ${join(root, 'home', '.config', 'systemd', 'user', 'wager-keeper.service')}\n`);
    expect(dry.stdout).toContain(`# ${join(root, 'home', '.config', 'systemd', 'user', 'wager-keeper.service.d', '10-environment.conf')}\n`);
    expect(dry.stdout).toContain(`--keypair ${key} `); // made absolute: the service does not start in this folder
    expect(written()).toEqual([]);
  });

  it('writes the unit, says how to start it where systemd does not run, reports it, and uninstall removes all it wrote', async () => {
    const installed = await service(['install', '--keypair', key, ...RPC]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('the tests start no service; to start the keeper now and at every start, run:\n  systemctl --user daemon-reload\n  systemctl --user enable --now wager-keeper\n');
    const unit = join(root, 'home', '.config', 'systemd', 'user', 'wager-keeper.service');
    const dataFolder = join(root, 'home', '.local', 'share', 'wager-keeper');
    expect(existsSync(join(dataFolder, 'logs'))).toBe(true);
    const status = await service(['status']);
    expect(JSON.parse(status.stdout)).toEqual({ manager: 'systemd', scope: 'user', unit, installed: true, dataFolder });
    // While a keeper runs on that data folder (its console-url.json, here this test's own process), status gives its console.
    const url = 'http://127.0.0.1:7300/console/#token=t';
    await writeConsoleUrlFile(dataFolder, { url, pid: process.pid, startedAt: '2026-11-29T00:00:00.000Z' });
    expect(JSON.parse((await service(['status'])).stdout)).toMatchObject({ console: url, pid: process.pid });

    const removed = await service(['uninstall']);
    expect(removed.code).toBe(0);
    expect(existsSync(unit)).toBe(false);
    expect(existsSync(`${unit}.d`)).toBe(false);
    expect(JSON.parse((await service(['status'])).stdout)).toMatchObject({ installed: false });
  });

  it('on macOS writes a launchd agent: well-formed, kept alive, started at load, the keeper with its flags', async () => {
    // launchd cannot run here: a stand-in launchctl records what the command asks of it.
    const asked: string[][] = [];
    const darwin: Partial<ServiceHost> = { platform: 'darwin', manage: (argv) => (asked.push(argv), { ok: true, output: '' }) };
    expect((await service(['install', '--keypair', key, ...RPC], darwin)).code).toBe(0);
    const path = join(root, 'home', 'Library', 'LaunchAgents', 'dev.wagerkeeper.keeper.plist');
    const agent = plist.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(agent).toMatchObject({ Label: 'dev.wagerkeeper.keeper', KeepAlive: true, RunAtLoad: true, ExitTimeOut: 60, Umask: 0o077 });
    expect(agent.ProgramArguments).toEqual([process.execPath, testServiceHost(root).bin, 'keeper', '--keypair', key, ...RPC, '--log-file', expect.stringMatching(/logs\/keeper\.log$/)]);
    expect(agent.StandardErrorPath).toMatch(/logs\/launchd\.err\.log$/);
    expect(JSON.parse((await service(['status'], darwin)).stdout)).toMatchObject({ manager: 'launchd', installed: true, active: 'loaded' });
    expect((await service(['uninstall'], darwin)).code).toBe(0);
    expect(existsSync(path)).toBe(false);
    const uid = String(process.getuid!());
    expect(asked).toEqual([
      ['launchctl', 'bootstrap', `gui/${uid}`, path],
      ['launchctl', 'print', `gui/${uid}/dev.wagerkeeper.keeper`],
      ['launchctl', 'bootout', `gui/${uid}/dev.wagerkeeper.keeper`],
    ]);
  });
});
