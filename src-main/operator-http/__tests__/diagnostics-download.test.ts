/**
 * A browser's "Save diagnostics…" downloads the archive: a headless core (its RPC never answers; the
 * operator HTTP API on 0.0.0.0, as with --host) writes it through the operator method, and
 * `GET /operator/diagnostics/<name>` serves exactly that file as a gzip attachment with the token (header
 * or `?token=`), 401 without it, 403 to a peer on the network, and 404 JSON for every other name: `..`,
 * encoded or not, absolute paths, a link out of the folder, a file of the folder that is no archive.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosticsFolder } from '../../operator/diagnostics-service';
import { openHeadlessSettings } from '../../runtime/console-settings';
import { createOperatorService, type OperatorService } from '../../console-core/operator-service';

const folder = mkdtempSync(join(tmpdir(), 'wk-diagnostics-download-'));
const dataDir = join(folder, 'data');
const OUTSIDE_SECRET = 'outside-the-diagnostics-folder-7Qz';

let service: OperatorService;
let base: string;
let port: number;
let token: string;
let archiveName: string;
let archivePath: string;

/** A GET with the path sent exactly as written (fetch would resolve `..` before sending). */
const rawGet = (path: string, host = '127.0.0.1', headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const call = request({ host, port, path, method: 'GET', headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      });
      call.on('error', reject);
      call.end();
    },
  );

const lanAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

/** The names of the entries of a .tar.gz. */
async function entriesOf(archive: Buffer): Promise<string[]> {
  const names: string[] = [];
  await pipeline(
    Readable.from([archive]),
    new Parser({ onReadEntry: (entry: ReadEntry) => (names.push(entry.path), entry.resume()) }),
  );
  return names;
}

beforeAll(async () => {
  service = createOperatorService({
    host: 'headless',
    settings: openHeadlessSettings(join(folder, 'settings')),
    dataDir,
    console: { uiDirectory: join(folder, 'no-ui') },
    flags: {
      cluster: { kind: 'rpc', rpcUrl: 'http://127.0.0.1:9', wsUrl: null },
      apiPort: 0,
      apiHost: '0.0.0.0',
    },
  });
  await service.start();
  const consoleUrl = new URL(service.describe().consoleUrl!);
  base = consoleUrl.origin;
  port = Number(consoleUrl.port);
  token = new URLSearchParams(consoleUrl.hash.slice(1)).get('token')!;
  const saved = await fetch(`${base}/operator/api/saveDiagnostics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(saved.status).toBe(200);
  archivePath = ((await saved.json()) as { path: string }).path;
  archiveName = archivePath.split('/').pop()!;
  // What a traversal would be after: files beside and outside the diagnostics folder.
  writeFileSync(join(dataDir, 'keeper-secret.tar.gz'), OUTSIDE_SECRET);
  writeFileSync(join(folder, 'secret.json'), OUTSIDE_SECRET);
  mkdirSync(diagnosticsFolder(dataDir), { recursive: true });
  writeFileSync(join(diagnosticsFolder(dataDir), 'notes.txt'), OUTSIDE_SECRET);
  symlinkSync(join(dataDir, 'keeper-secret.tar.gz'), join(diagnosticsFolder(dataDir), 'linked.tar.gz'));
}, 60_000);

afterAll(async () => {
  await service?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('GET /operator/diagnostics/<name>', () => {
  it('downloads the archive saveDiagnostics wrote: a gzip attachment named like the file, holding health.json', async () => {
    expect(archivePath.startsWith(diagnosticsFolder(dataDir))).toBe(true);
    const response = await rawGet(`/operator/diagnostics/${archiveName}?token=${encodeURIComponent(token)}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${archiveName}"`);
    expect(response.body.equals(readFileSync(archivePath))).toBe(true);
    expect(await entriesOf(response.body)).toContain('wager-keeper-diagnostics/health.json');
    // The Authorization header works as for every other call.
    const withHeader = await fetch(`${base}/operator/diagnostics/${archiveName}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withHeader.status).toBe(200);
    expect(Buffer.from(await withHeader.arrayBuffer()).equals(response.body)).toBe(true);
  });

  it('answers 401 JSON without the token or with a wrong one', async () => {
    for (const query of ['', '?token=', '?token=wrong']) {
      const response = await rawGet(`/operator/diagnostics/${archiveName}${query}`);
      expect(response.status).toBe(401);
      expect((JSON.parse(response.body.toString()) as { error: string }).error).toMatch(/token/);
    }
  });

  it('serves no other name: traversal, encoded or not, absolute paths, a link out, a non-archive → 404 JSON', async () => {
    const names = [
      '..',
      '../keeper-secret.tar.gz',
      '..%2Fkeeper-secret.tar.gz',
      '..%2fkeeper-secret.tar.gz',
      '%2e%2e',
      '%2e%2e%2fkeeper-secret.tar.gz',
      '%2E%2E%2F..%2Fsecret.json',
      '..%5Ckeeper-secret.tar.gz',
      `..%2Fdiagnostics%2F${archiveName}`,
      '%2Fetc%2Fpasswd',
      '/etc/passwd',
      `%2F${archiveName}`,
      encodeURIComponent(join(dataDir, 'keeper-secret.tar.gz')),
      'linked.tar.gz',
      'notes.txt',
      '.tar.gz',
      'wager-keeper-diagnostics-19990101-000000Z.tar.gz',
      '',
    ];
    // With the header: the server's URL parser resolves plain and %2e dot segments before routing, so those
    // land outside the route; every request must still answer 404 and nothing of the files it aims at.
    for (const name of names) {
      const response = await rawGet(`/operator/diagnostics/${name}`, '127.0.0.1', {
        authorization: `Bearer ${token}`,
      });
      expect({ name, status: response.status }).toEqual({ name, status: 404 });
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.body.toString();
      expect(typeof (JSON.parse(body) as { error: unknown }).error).toBe('string');
      expect(body).not.toContain(OUTSIDE_SECRET);
    }
    // With ?token=: a name in the folder that is no archive is 404 saying what to do; a `..` that resolves
    // out of the route is 401, as the query token counts for the downloads and the event stream only.
    const unknown = await rawGet(`/operator/diagnostics/notes.txt?token=${encodeURIComponent(token)}`);
    expect(unknown.status).toBe(404);
    expect((JSON.parse(unknown.body.toString()) as { error: string }).error).toMatch(/Save diagnostics/);
    for (const name of ['..%2Fkeeper-secret.tar.gz', '%2Fetc%2Fpasswd', 'linked.tar.gz'])
      expect((await rawGet(`/operator/diagnostics/${name}?token=${encodeURIComponent(token)}`)).status).toBe(
        404,
      );
    for (const name of ['..', '%2e%2e'])
      expect((await rawGet(`/operator/diagnostics/${name}?token=${encodeURIComponent(token)}`)).status).toBe(
        401,
      );
  });

  it.skipIf(!lanAddress())('answers 403 JSON to a peer on the network, even with the token', async () => {
    const response = await rawGet(
      `/operator/diagnostics/${archiveName}?token=${encodeURIComponent(token)}`,
      lanAddress(),
    );
    expect(response.status).toBe(403);
    expect((JSON.parse(response.body.toString()) as { error: string }).error).toMatch(/loopback/);
  });
});
