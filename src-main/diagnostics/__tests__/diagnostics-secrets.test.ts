/**
 * "Save diagnostics…" hands support an archive with every secret removed. A running core is given each
 * kind of secret — a webhook URL with its token (a channel), a heartbeat URL, an RPC URL with user:password,
 * a path token and ?api-key=, the console's per-run token, a keypair's bytes — in its state and its logs;
 * the archive is saved, unpacked, and none of them is in any file, while the parts it must hold are there.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachLogFile, createLogger, detachLogFile } from '../../logging';
import { openHeadlessSettings } from '../../runtime/console-settings';
import { createOperatorService, type OperatorService } from '../../console-core/operator-service';

const folder = mkdtempSync(join(tmpdir(), 'wk-diagnostics-'));
const keypair = Array.from({ length: 64 }, (_, i) => (i * 91 + 7) % 256);
const SECRETS = {
  rpcPassword: 'rpcPassPlanted77',
  rpcUser: 'rpcUserPlanted',
  rpcPathToken: 'rpcPathTokenQ7Zk9',
  rpcApiKey: 'rpcApiKeyPlanted55',
  webhookToken: 'slackWebhookTokenPlanted',
  heartbeatToken: 'hbUuid1234abcd',
  keypairBytes: keypair.join(','),
};
const rpcUrl = `http://${SECRETS.rpcUser}:${SECRETS.rpcPassword}@127.0.0.1:9/${SECRETS.rpcPathToken}?api-key=${SECRETS.rpcApiKey}`;
const webhookUrl = `https://hooks.slack.com/services/T0PLANT/B0PLANT/${SECRETS.webhookToken}`;
const heartbeatUrl = `https://hc-ping.com/${SECRETS.heartbeatToken}`;

let service: OperatorService;
let consoleToken: string;

beforeAll(async () => {
  await attachLogFile(join(folder, 'logs', 'wager-keeper.log'));
  // An RPC that never answers: the core holds its URL in status, settings and its error messages.
  service = createOperatorService({
    host: 'headless',
    settings: openHeadlessSettings(join(folder, 'settings')),
    dataDir: join(folder, 'data'),
    console: { uiDirectory: join(folder, 'no-ui') },
    flags: { cluster: { kind: 'rpc', rpcUrl, wsUrl: null }, apiPort: 0, heartbeatUrl },
  });
  await service.start();
  await service.api.addAlertChannel({ url: webhookUrl, format: 'slack' });
  consoleToken = new URL(service.describe().consoleUrl!).hash.replace('#token=', '');
  expect(consoleToken.length).toBeGreaterThan(20);
  // What a careless caller might log: each secret in a message and in fields.
  const log = createLogger('keeper');
  log.warn(
    { rpcUrl, webhookUrl, heartbeatUrl, consoleUrl: service.describe().consoleUrl, bytes: keypair },
    `rpc ${rpcUrl} failed; hook ${webhookUrl}`,
  );
  log.info(`keypair file read: ${JSON.stringify(keypair)}; console token ${consoleToken}`);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await detachLogFile();
  rmSync(folder, { recursive: true, force: true });
});

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

describe('Save diagnostics', () => {
  it('writes one .tar.gz in the data folder with health, status, settings, alerts, metrics, versions and logs, and no secret', async () => {
    const saved = await service.api.saveDiagnostics();
    expect(saved.path).toMatch(
      new RegExp(
        `^${join(folder, 'data', 'diagnostics')}/wager-keeper-diagnostics-\\d{8}-\\d{6}Z\\.tar\\.gz$`,
      ),
    );
    expect(statSync(saved.path).size).toBe(saved.bytes);
    expect(statSync(saved.path).mode & 0o777).toBe(0o600);

    const unpacked = join(folder, 'unpacked');
    mkdirSync(unpacked, { recursive: true });
    await extract({ file: saved.path, cwd: unpacked });
    const files = filesUnder(unpacked);
    const names = files.map((file) => file.slice(unpacked.length + 1)).sort();
    for (const part of [
      'health.json',
      'status.json',
      'settings.json',
      'alerts.json',
      'alert-settings.json',
      'metrics.txt',
      'versions.json',
      'logs/recent.jsonl',
    ])
      expect(names).toContain(`wager-keeper-diagnostics/${part}`);
    expect(names.some((name) => /logs\/wager-keeper\.\d+\.log$/.test(name))).toBe(true);

    const everything = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    for (const [kind, secret] of Object.entries({ ...SECRETS, consoleToken }))
      expect(everything, kind).not.toContain(secret);
    // The parts are really there, masked: the RPC's host, the webhook's service, the heartbeat's host, versions.
    expect(everything).toContain('127.0.0.1:9');
    expect(everything).toContain('hooks.slack.com');
    expect(everything).toContain('hc-ping.com');
    expect(everything).toContain('wager_keeper_');
    expect(
      JSON.parse(readFileSync(join(unpacked, 'wager-keeper-diagnostics', 'versions.json'), 'utf8')),
    ).toMatchObject({ app: '0.1.0', node: process.versions.node });
  });
});
