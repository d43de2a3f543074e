/**
 * The operator methods of the Logs screen: `logs` (the recent lines, filtered) and `saveDiagnostics` (the
 * archive, written to the data folder's diagnostics/ and its path answered; the desktop host asks where to
 * save instead and calls writeDiagnostics with the chosen path).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachedLogFile, logRing } from '../logging';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import { projectPath } from '../project-root';
import { diagnosticsFileName, writeDiagnosticsArchive, type DiagnosticsSaved } from '../diagnostics/diagnostics-archive';

type Sources = Pick<OperatorApi, 'health' | 'status' | 'settings' | 'alerts' | 'alertSettings' | 'fleet'>;

export interface DiagnosticsServiceOptions {
  api: Sources;
  /** Where saveDiagnostics writes (the data folder; a diagnostics/ folder inside it). */
  dataDir: string;
  metricsText(): Promise<string>;
}

const appVersion = (): string | null => {
  try {
    return (
      (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version?: string }).version ?? null
    );
  } catch {
    return null;
  }
};

/** The folder a headless keeper's saveDiagnostics writes to (the operator HTTP API serves its archives as downloads). */
export const diagnosticsFolder = (dataDir: string): string => join(dataDir, 'diagnostics');

export function createDiagnosticsService({ api, dataDir, metricsText }: DiagnosticsServiceOptions) {
  const writeDiagnostics = (path: string): Promise<DiagnosticsSaved> =>
    writeDiagnosticsArchive(path, {
      parts: {
        'health.json': () => api.health(),
        'status.json': () => api.status(),
        'settings.json': () => api.settings(),
        'alerts.json': () => api.alerts(),
        'alert-settings.json': () => api.alertSettings(),
        'fleet.json': () => api.fleet(),
      },
      metricsText,
      recentLogs: () => logRing.text(),
      logFiles: async () => (await attachedLogFile()?.files()) ?? [],
      versions: () => ({
        app: appVersion(),
        node: process.versions.node,
        electron: process.versions.electron ?? null,
        platform: `${process.platform} ${process.arch}`,
        savedAt: new Date().toISOString(),
      }),
    });
  const api_: Pick<OperatorApi, 'logs' | 'saveDiagnostics'> = {
    logs: async (args) => ({ lines: logRing.query(args ?? {}) }),
    saveDiagnostics: () => writeDiagnostics(join(diagnosticsFolder(dataDir), diagnosticsFileName())),
  };
  return { api: api_, writeDiagnostics };
}
