/**
 * "Save diagnostics…": one .tar.gz (the kept `tar` package) a cranker can hand to support, with the recent
 * logs (the in-memory ring and the log files), health, status, metrics, settings, alert history and
 * versions. Every file passes through scrubSecrets on its way in: keys, webhook and heartbeat URLs, tokens
 * and RPC URLs' credentials are masked whatever a part forgot. A part that cannot be read (the core failed)
 * is written as `{ "error": ... }` instead of failing the archive.
 */
import { chmod, mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { create } from 'tar';
import { scrubSecrets } from '../../src-shared/secret-scrub';

export interface DiagnosticsSources {
  /** Each JSON part by its file name (health.json, status.json, ...): read now. */
  parts: Record<string, () => Promise<unknown>>;
  /** The Prometheus metrics text. */
  metricsText(): Promise<string>;
  /** The recent log lines (JSON lines). */
  recentLogs(): string;
  /** The log files on disk, oldest first. */
  logFiles(): Promise<string[]>;
  versions(): Record<string, string | null>;
}

export interface DiagnosticsSaved {
  path: string;
  bytes: number;
}

const asText = async (read: () => Promise<unknown>): Promise<string> => {
  try {
    return `${JSON.stringify(await read(), null, 2)}\n`;
  } catch (error) {
    return `${JSON.stringify({ error: (error as Error).message })}\n`;
  }
};

/** A file name for now: wager-keeper-diagnostics-20260101-120000Z.tar.gz (UTC). */
export const diagnosticsFileName = (now = new Date()): string =>
  `wager-keeper-diagnostics-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;

export async function writeDiagnosticsArchive(
  path: string,
  sources: DiagnosticsSources,
): Promise<DiagnosticsSaved> {
  const staging = await mkdtemp(join(tmpdir(), 'wager-keeper-diagnostics-'));
  const folder = 'wager-keeper-diagnostics';
  try {
    const files: Record<string, string> = {};
    for (const [name, read] of Object.entries(sources.parts)) files[name] = await asText(read);
    files['metrics.txt'] = await sources
      .metricsText()
      .catch((error: unknown) => `# metrics could not be read: ${(error as Error).message}\n`);
    files['versions.json'] = `${JSON.stringify(sources.versions(), null, 2)}\n`;
    files['logs/recent.jsonl'] = sources.recentLogs();
    for (const file of await sources.logFiles())
      files[`logs/${basename(file)}`] = await readFile(file, 'utf8').catch(() => '');
    for (const [name, text] of Object.entries(files)) {
      const target = join(staging, folder, name);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, scrubSecrets(text), { mode: 0o600 });
    }
    await mkdir(dirname(path), { recursive: true });
    await create({ gzip: true, file: path, cwd: staging, portable: true }, [folder]);
    await chmod(path, 0o600);
    return { path, bytes: (await stat(path)).size };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
