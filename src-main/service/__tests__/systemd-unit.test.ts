/**
 * The systemd unit and drop-in `service install` writes, checked by systemd itself: `systemd-analyze
 * verify` on the files as written (a user unit and a system unit, drop-ins included; it needs the
 * ExecStart programs to exist, and they do) says nothing; and words are quoted as systemd reads them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { serviceCommand } from '../../commands/service-command';
import { systemdWord } from '../systemd-unit';
import { testServiceHost } from './test-service-host';

const root = mkdtempSync(join(tmpdir(), 'wk-systemd-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const key = join(root, 'keeper key.json');
writeFileSync(key, '[]', { mode: 0o600 });
const runtime = join(root, 'run');
mkdirSync(runtime, { mode: 0o700 });

/** `systemd-analyze verify [--user] UNIT`: its exit code and everything it printed. */
function verify(unit: string, user: boolean) {
  const result = spawnSync('systemd-analyze', ['verify', ...(user ? ['--user'] : []), unit], { encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: runtime } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

async function install(flags: string[], asRoot = false) {
  const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    // `--system` runs under sudo: root (its folders then handed to the account, here this test's own).
    return await serviceCommand(['install', ...flags], testServiceHost(root, { root: asRoot }));
  } finally {
    quiet.mockRestore();
  }
}

describe('the systemd unit of `service install`', () => {
  it('is a user unit with its drop-in that systemd-analyze verify accepts without a word', async () => {
    expect(await install(['--keypair', key, '--rpc', 'http://127.0.0.1:8899', '--db', join(root, 'data 100%', 'keeper.db'), '--max-in-flight', '4'])).toBe(0);
    const folder = join(root, 'home', '.config', 'systemd', 'user');
    const unit = readFileSync(join(folder, 'wager-keeper.service'), 'utf8');
    expect(unit).toContain(`ExecStart=${process.execPath} `);
    expect(unit).toContain(`--keypair "${key}"`);
    expect(unit).toContain('"' + join(root, 'data 100%%', 'keeper.db') + '"');
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
    expect(unit).not.toMatch(/MemoryDenyWriteExecute/);
    expect(readFileSync(join(folder, 'wager-keeper.service.d', '10-environment.conf'), 'utf8')).toContain(`Environment=XDG_DATA_HOME=${join(root, 'home', '.local', 'share')}`);
    expect(verify(join(folder, 'wager-keeper.service'), true)).toEqual({ code: 0, output: '' });
  });

  it('is a system unit run as the installing account that systemd-analyze verify accepts', async () => {
    await expect(install(['--system', '--keypair', key, '--rpc', 'http://127.0.0.1:8899'])).rejects.toThrow(/run it with sudo/);
    expect(await install(['--system', '--keypair', key, '--rpc', 'http://127.0.0.1:8899'], true)).toBe(0);
    const unit = join(root, 'etc', 'systemd', 'system', 'wager-keeper.service');
    const text = readFileSync(unit, 'utf8');
    expect(text).toMatch(/^User=\S+$/m);
    expect(text).toMatch(/^WantedBy=multi-user\.target$/m);
    expect(verify(unit, false)).toEqual({ code: 0, output: '' });
  });

  it('finds a mistake in a drop-in (so the verify above did read it)', () => {
    const dropIn = join(root, 'etc', 'systemd', 'system', 'wager-keeper.service.d', '99-typo.conf');
    writeFileSync(dropIn, '[Service]\nRestartSecs=5\n');
    expect(verify(join(root, 'etc', 'systemd', 'system', 'wager-keeper.service'), false).output).toContain("Unknown key 'RestartSecs'");
    rmSync(dropIn);
  });

  it('quotes a word as systemd reads one: spaces, quotes and backslashes in quotes, % doubled, $ doubled on a command line', () => {
    expect(systemdWord('/usr/bin/node')).toBe('/usr/bin/node');
    expect(systemdWord('a b"c\\d', true)).toBe('"a b\\"c\\\\d"');
    expect(systemdWord('100%$HOME', true)).toBe('100%%$$HOME');
    expect(systemdWord('100%$HOME')).toBe('100%%$HOME'); // Environment= and ReadWritePaths= expand no variables
    expect(systemdWord('')).toBe('""');
    expect(() => systemdWord('a\nb')).toThrow(/control character/);
  });
});
