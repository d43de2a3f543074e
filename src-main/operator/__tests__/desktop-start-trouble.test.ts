/**
 * The desktop app's core (createOperatorService({ host: 'desktop' }) with conf-backed settings, as the
 * Electron main process builds it) when part of its start cannot happen:
 * - the /v1 API port is taken: status.apiError says where, why and what to do, and the keeper still
 *   cranks on its chain (it used to stay at "starting…" with nothing logged or shown);
 * - the saved cluster is the embedded localnet and litesvm cannot load: status says why in one sentence
 *   naming Settings → Cluster, and switching to an RPC cluster there starts the keeper.
 * One localnet serves both, as the RPC cluster.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { openHeadlessSettings } from '../../runtime/console-settings';
import { createOperatorService, type OperatorService } from '../../console-core/operator-service';
import type { ConsoleSettings } from '../../../src-shared/contract/settings';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

let localnet: Localnet;
let taken: Server;
let takenPort: number;
const services: OperatorService[] = [];

/** The core as src-main/electron/main.ts starts it, on settings saved beforehand. */
async function startDesktopCore(
  saved: Partial<ConsoleSettings>,
  create: typeof createOperatorService = createOperatorService,
) {
  const settings = openHeadlessSettings(tempDir('wk-desktop-settings-'));
  settings.set(saved);
  const service = create({ host: 'desktop', settings, dataDir: tempDir('wk-desktop-data-') });
  services.push(service);
  await service.start();
  return service;
}

/** Until the keeper has made a pass of its loop over the chain. */
const keeperPassed = (service: OperatorService) =>
  vi.waitFor(async () => expect((await service.api.health()).lastTick).toBeGreaterThan(0), {
    timeout: 20_000,
    interval: 100,
  });

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
  taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  takenPort = (taken.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  for (const service of services) await service.stop();
  taken?.close();
  await localnet?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the desktop core when its /v1 port is taken', () => {
  it('says so in status (host:port, the cause, Settings → API port) and the keeper still cranks', async () => {
    const service = await startDesktopCore({
      apiPort: takenPort,
      cluster: { kind: 'rpc', rpcUrl: localnet.rpcUrl, wsUrl: null },
    });
    const status = await service.api.status();
    expect(status.apiError).toBe(
      `The public /v1 API cannot listen on 127.0.0.1:${takenPort}: another program already uses that port. The keeper cranks without it, but apps and gateways cannot hand it wagers: stop that program, or pick another port in Settings → Keeper and API options → API port (0: any free port), then restart the app.`,
    );
    expect(status).toMatchObject({ phase: 'running', apiUrl: null, cluster: { rpcUrl: localnet.rpcUrl } });
    expect(status.keeper?.address).toBe(localnet.manifest.devKeys.keeper.address);
    await keeperPassed(service);
    await service.stop();
  }, 60_000);
});

describe('the desktop core where litesvm cannot load', () => {
  it('says why on the saved embedded localnet, and runs the keeper once Settings switches to an RPC URL', async () => {
    // From here on, loading the localnet module fails as it does without litesvm's native binding (the
    // localnet above keeps running: its module was loaded before). Vitest words the load error its own way;
    // litesvm's own words are checked through the CLI (localnet/__tests__/litesvm-unloadable-cli.test.ts).
    vi.doMock('../../localnet/localnet', () => {
      throw new Error(
        'Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).',
      );
    });
    vi.resetModules();
    const fresh = (await import('../../console-core/operator-service')).createOperatorService;
    const service = await startDesktopCore({ apiPort: 0, cluster: { kind: 'embedded' } }, fresh);

    const failed = await service.api.status();
    expect(failed).toMatchObject({ phase: 'failed', keeper: null, apiError: null });
    expect(failed.error).toMatch(
      new RegExp(
        `^The embedded localnet is unavailable on this platform \\(${process.platform}-${process.arch}\\): litesvm.* \\(.+\\)(, so \`npm install\` again may fetch it)?\\. Pick a public cluster or enter an RPC URL in Settings → Cluster\\.$`,
      ),
    );

    // Not an RPC failure: nothing says "RPC error" or that it keeps retrying.
    expect((await service.api.health()).rpcError).toBeNull();

    const saved = await service.api.saveSettings({
      changes: { cluster: { kind: 'rpc', rpcUrl: localnet.rpcUrl, wsUrl: null } },
    });
    expect(saved.restarted).toBe(true);
    const running = await service.api.status();
    expect(running).toMatchObject({
      phase: 'running',
      error: null,
      cluster: { rpcUrl: localnet.rpcUrl, embedded: false },
    });
    await keeperPassed(service);
    vi.doUnmock('../../localnet/localnet');
  }, 60_000);
});
