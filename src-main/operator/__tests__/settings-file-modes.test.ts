/**
 * The settings files keep RPC URLs with their keys (issue 33, item 6): console.json and the files beside
 * it are 0600 in a 0700 folder, written through a 0600 temporary file, and a file an older version left
 * at 0644 is narrowed when the settings are opened. Real files in a temporary folder (Linux modes).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePrivateFile } from '../../secrets/private-files';
import { createAlertChannelService } from '../../alerts/alert-channels';
import { openHeadlessSettings } from '../../runtime/console-settings';

const root = mkdtempSync(join(tmpdir(), 'settings-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;
const KEYED_RPC = 'https://mainnet.helius-rpc.com/?api-key=0c7f3f0e-secret-key';

describe.skipIf(process.platform === 'win32')('settings files are private', () => {
  it('console.json with an RPC key is 0600 in a 0700 folder', () => {
    const folder = join(root, 'fresh', 'wager-keeper');
    const settings = openHeadlessSettings(folder);
    settings.set({ cluster: { kind: 'rpc', rpcUrl: KEYED_RPC, wsUrl: null } });
    const file = join(folder, 'console.json');
    expect(readFileSync(file, 'utf8')).toContain('api-key=');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(folder)).toBe(0o700);
    // The atomic write leaves no temporary file behind.
    expect(readdirSync(folder)).toEqual(['console.json']);
  });

  it('a console.json left at 0644 in a 0755 folder is narrowed when opened, and stays 0600 after a save', () => {
    const folder = join(root, 'older', 'wager-keeper');
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    chmodSync(folder, 0o755);
    const file = join(folder, 'console.json');
    writeFileSync(file, JSON.stringify({ cluster: { kind: 'rpc', rpcUrl: KEYED_RPC, wsUrl: null } }));
    chmodSync(file, 0o644);
    const settings = openHeadlessSettings(folder);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(folder)).toBe(0o700);
    expect(settings.store.cluster).toMatchObject({ rpcUrl: KEYED_RPC });
    settings.set({ maxInFlight: 64 });
    expect(modeOf(file)).toBe(0o600);
  });

  it('a saved webhook channel: alert-channels.json and the secrets file are 0600', async () => {
    const folder = join(root, 'alerts');
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const channels = createAlertChannelService({ directory: folder, keychain: false, log: log as never });
    await channels.add({ url: 'https://hooks.example.com/services/T000/B000/secret-token' });
    expect(modeOf(join(folder, 'alert-channels.json'))).toBe(0o600);
    expect(modeOf(join(folder, 'alert-channel-secrets.json'))).toBe(0o600);
  });

  it('writePrivateFile replaces a 0644 file by a 0600 one, whatever the umask allowed', () => {
    const file = join(root, 'plain.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    const umask = process.umask(0o000);
    try {
      writePrivateFile(file, 'new');
    } finally {
      process.umask(umask);
    }
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o600);
  });
});
