/**
 * Logs in a rotating file and the in-memory ring: a logger's lines reach the file (size and count capped:
 * writing far past the cap leaves at most the cap's number of files, the newest holding the last line), and
 * no secret reaches the file or the ring, whatever a caller passed.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { attachLogFile, createLogger, detachLogFile, logRing } from '../../logging';
import { registerSecret } from '../../../src-shared/secret-scrub';

const folder = mkdtempSync(join(tmpdir(), 'wk-logs-'));
afterAll(async () => {
  await detachLogFile();
  rmSync(folder, { recursive: true, force: true });
});

describe('the rotating log file', () => {
  it('rotates past the size cap and keeps at most the capped number of files', async () => {
    const file = await attachLogFile(join(folder, 'rotate', 'keeper.log'), { maxBytes: 2048, count: 3 });
    const log = createLogger('rotation-test');
    const filler = 'x'.repeat(180);
    // In batches over the cap, as a running keeper writes over time: each batch rotates to a new file ('ready' when it is open).
    for (let i = 0; i < 80; i++) {
      log.info({ i, filler }, `line ${i}`);
      if (i % 16 === 15) await once(file.stream, 'ready');
    }
    // ~20 KB through a 2 KB cap: about ten rotations; the oldest files are removed down to three.
    await vi.waitFor(
      async () => {
        const files = await file.files();
        expect(files.map((path) => path.split('/').pop())).toHaveLength(3);
        const kept = files.map((path) => readFileSync(path, 'utf8')).join('');
        expect(kept).toContain('"msg":"line 79"');
        expect(kept).not.toContain('"msg":"line 0"'); // the oldest went with the removed files
      },
      { timeout: 10_000, interval: 50 },
    );
    const files = await file.files();
    expect(files[0]).toMatch(/keeper\.\d+\.log$/);
    expect(Number(/keeper\.(\d+)\.log$/.exec(files[0]!)?.[1])).toBeGreaterThan(1); // the first file is gone
    expect(logRing.query({ search: 'line 79' }).map((line) => line.msg)).toEqual(['line 79']);
  });

  it('keeps secrets out of the file and the ring', async () => {
    const file = await attachLogFile(join(folder, 'secrets', 'keeper.log'));
    const log = createLogger('secret-test');
    const keypair = Array.from({ length: 64 }, (_, i) => (i * 37) % 256);
    registerSecret('consoleTokenPlanted123');
    log.info(
      {
        secretKey: keypair,
        rpcUrl: 'https://alice:hunter2pass@rpc.example.com/v2/pathTokenAbc123XYZ?api-key=apiKeyPlanted42',
        webhookUrl: 'https://hooks.slack.com/services/T000/B000/slackSecretPlanted',
        bytes: JSON.stringify(keypair),
        consoleUrl: 'http://127.0.0.1:7300/console/#token=consoleTokenPlanted123',
        privateKey: `4Pk${'x'.repeat(85)}`,
        signature: `5Sg${'z'.repeat(85)}`,
      },
      'calling https://api.telegram.org/bot123456:telegramTokenPlanted/sendMessage?chat_id=42 with token consoleTokenPlanted123',
    );
    log.info('last line');
    await vi.waitFor(
      async () => expect(readFileSync((await file.files()).at(-1)!, 'utf8')).toContain('last line'),
      { timeout: 5000, interval: 20 },
    );
    const written = readFileSync((await file.files()).at(-1)!, 'utf8') + logRing.text();
    for (const secret of [
      'hunter2pass',
      'alice',
      'pathTokenAbc123XYZ',
      'apiKeyPlanted42',
      'slackSecretPlanted',
      'telegramTokenPlanted',
      'consoleTokenPlanted123',
      keypair.join(','),
      `4Pk${'x'.repeat(85)}`,
    ])
      expect(written).not.toContain(secret);
    // What is not a secret stays readable.
    expect(written).toContain('https://rpc.example.com/v2/');
    expect(written).toContain('calling https://api.telegram.org/');
    expect(written).toContain(`5Sg${'z'.repeat(85)}`); // a transaction signature is not a secret
  });
});
