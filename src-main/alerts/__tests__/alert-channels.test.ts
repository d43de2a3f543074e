/**
 * Settings → Alerts' webhook channels as an operator meets them: a channel added is saved without its URL
 * (only id, format and masked label), the URL kept in the OS keychain (a private gnome-keyring session) or,
 * with no keychain, in a file only this user can read; the test alert reaches it; removing it forgets the
 * URL; --alert-webhook channels replace the saved ones for the run and cannot be edited.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertMessage } from '../../../src-shared/alert-types';
import { startReceiver, type LoopbackReceiver } from '../channels/__tests__/loopback-receiver';
import {
  cleanUp,
  fixtureCommand,
  inSecretServiceSession,
  isolatedEnv,
  secretServiceMissing,
  secretServiceNote,
} from '../../secrets/__tests__/secret-service-session';
import { createAlertChannelService } from '../alert-channels';

const testAlert: AlertMessage = {
  alert: 'balance-low',
  state: 'firing',
  severity: 'warning',
  summary: 'A test alert from Settings → Alerts.',
  keeper: null,
  cluster: 'localnet',
  at: new Date().toISOString(),
};
const log = { warn: () => undefined, info: () => undefined };
const SECRET_PATH = '/services/T0AAA1111/B0BBB2222/XyZsecret123token';

let receiver: LoopbackReceiver;
const dirs: string[] = [];
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  cleanUp(dirs);
});
const freshDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), 'alert-channels-'));
  dirs.push(directory);
  return directory;
};

describe('alert channels in Settings', () => {
  it('without a keychain: saved masked, the URL in a 0600 file, the test alert delivered, removal forgets it', async () => {
    const directory = freshDirectory();
    const url = receiver.url(SECRET_PATH);
    const service = createAlertChannelService({ directory, log, keychain: false });
    await service.add({ url, format: 'slack' });
    const saved = readFileSync(join(directory, 'alert-channels.json'), 'utf8');
    expect(saved).not.toContain('XyZsecret123token');
    const [status] = service.statuses();
    expect(status).toMatchObject({
      kind: 'slack',
      label: expect.stringMatching(/\/services\/\*\*\*\/\*\*\*\/\*\*\*$/),
      ok: null,
    });
    const secretsFile = join(directory, 'alert-channel-secrets.json');
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretsFile, 'utf8')).toContain(url);

    await expect(service.add({ url, format: 'slack' })).rejects.toThrow(/already a channel/);
    await expect(service.add({ url: 'not a url', format: 'slack' })).rejects.toThrow(
      /is not a URL: .*; nothing was saved$/,
    );

    // A later run (a new service over the same folder) has the channel, and the test alert reaches it.
    const again = createAlertChannelService({ directory, log, keychain: false });
    const [result] = await again.sendTest(testAlert);
    expect(result).toMatchObject({ id: status!.id, ok: true, lastError: null });
    expect(receiver.requests(SECRET_PATH).at(-1)!.body).toMatchObject({
      text: expect.stringContaining('A test alert'),
    });

    await again.remove({ id: status!.id });
    expect(again.statuses()).toEqual([]);
    expect(readFileSync(secretsFile, 'utf8')).not.toContain('XyZsecret123token');
    await expect(again.remove({ id: status!.id })).rejects.toThrow(
      /there is no alert channel .*Settings → Alerts lists the channels/,
    );
  });

  it('--alert-webhook channels replace the saved ones for the run and cannot be edited', async () => {
    const directory = freshDirectory();
    await createAlertChannelService({ directory, log, keychain: false }).add({
      url: receiver.url('/saved/abc123def'),
    });
    const service = createAlertChannelService({
      directory,
      log,
      keychain: false,
      flagWebhooks: [{ format: 'json', url: receiver.url('/flagged/abc123def') }],
    });
    expect(service.fixedByFlags).toBe(true);
    expect(service.statuses()).toEqual([
      expect.objectContaining({ kind: 'json', label: expect.stringMatching(/\/flagged\/\*\*\*$/) }),
    ]);
    await expect(service.add({ url: receiver.url('/other') })).rejects.toThrow(
      /set by --alert-webhook for this run; restart without --alert-webhook/,
    );
    service.deliver(testAlert);
    await expect.poll(() => receiver.requests('/flagged/abc123def').length).toBe(1);
    expect(receiver.requests('/saved/abc123def')).toHaveLength(0);
  });

  it.skipIf(secretServiceMissing)(
    `with a keychain: the URL is kept there and nowhere in the settings folder${secretServiceNote}`,
    () => {
      const { home, env } = isolatedEnv(dirs);
      const directory = join(home, 'config', 'wager-keeper');
      const fixture = fileURLToPath(new URL('./fixtures/alert-channel-store.ts', import.meta.url));
      const url = `https://hooks.slack.com${SECRET_PATH}`;
      const [added, read] = inSecretServiceSession<{
        secret: string;
        url?: string;
        statuses: { label: string }[];
      }>(env, [
        fixtureCommand(fixture, ['add', directory, url]),
        fixtureCommand(fixture, ['read', directory]),
      ]);
      expect(added).toMatchObject({
        secret: 'keychain',
        statuses: [{ label: 'https://hooks.slack.com/services/***/***/***' }],
      });
      expect(read).toMatchObject({ secret: 'keychain', url });
      expect(existsSync(join(directory, 'alert-channel-secrets.json'))).toBe(false);
      expect(readFileSync(join(directory, 'alert-channels.json'), 'utf8')).not.toContain('XyZsecret123token');
    },
  );
});
