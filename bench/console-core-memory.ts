/**
 * The console core's memory with 10 000 tracked wagers: a headless operator service (embedded localnet,
 * keeper paused so nothing is sent, the real SQLite file) is given 10 000 wager records; then the loop
 * reads them every pass and the console's `queue` call answers all of them. Prints heap and RSS before
 * and after, and the time of one `queue` call. Asserts nothing. `npm run bench:console-memory [-- wagers]`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHeadlessSettings } from '../src-main/runtime/console-settings';
import { createOperatorService } from '../src-main/console-core/operator-service';
import { openDatabase, transaction } from '../src-main/store/database';
import { createWagerRecordStore } from '../src-main/store/wager-records';
import { getAddressDecoder } from '@solana/kit';
import { randomBytes } from 'node:crypto';

const wagers = Number(process.argv[2] ?? 10_000);
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const settle = async () => {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsedMiB: mib(heapUsed), rssMiB: mib(rss) };
};

const settingsDir = mkdtempSync(join(tmpdir(), 'wk-bench-settings-'));
const settings = openHeadlessSettings(settingsDir);
settings.set({ paused: true, demoEnabled: false });
const service = createOperatorService({ host: 'headless', settings, dataDir: mkdtempSync(join(tmpdir(), 'wk-bench-data-')), flags: { embeddedRpcPort: 0, apiPort: 0 } });
await service.start();
const idle = await settle();

// Records as the keeper writes them when it finds wagers (queued, with open slot, paytable and stake).
const db = openDatabase(service.describe().db!);
const store = createWagerRecordStore(db);
const paytable = service.describe().manifest!.paytables[0]!.address;
transaction(db, () => {
  // Random addresses with no account: the paused keeper reads them every pass and finds nothing to send.
  for (let i = 0; i < wagers; i++) store.insert(getAddressDecoder().decode(randomBytes(32)), { state: 'queued', openSlot: 1_000 + i, expirySlot: 1_150 + i, paytable, stake: '1000000' });
});
db.close();

// Let the loop read them a few times (each pass fetches every tracked wager's account).
await new Promise((resolve) => setTimeout(resolve, 5_000));
const queueStarted = performance.now();
const rows = await service.api.queue();
const queueMs = performance.now() - queueStarted;
const tracked = await settle();
await service.stop();
console.log(
  JSON.stringify(
    {
      bench: 'console-core-memory',
      wagers,
      queueRows: rows.length,
      queueCallMs: Math.round(queueMs),
      queueJsonKiB: Math.round(JSON.stringify(rows).length / 1024),
      idle,
      with10kTracked: tracked,
      gcExposed: typeof globalThis.gc === 'function',
    },
    null,
    2,
  ),
);
