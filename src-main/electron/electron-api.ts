/**
 * What the desktop host's modules take instead of importing `electron` themselves: the part of Electron's
 * module they use (a test hands in the stand-in, __tests__/electron-stand-in.ts), the core as the host
 * sees it, and a logger.
 */
import type * as ElectronModule from 'electron';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';

export type Electron = Pick<
  typeof ElectronModule,
  | 'app'
  | 'BaseWindow'
  | 'BrowserWindow'
  | 'ipcMain'
  | 'session'
  | 'shell'
  | 'Notification'
  | 'dialog'
  | 'Tray'
  | 'Menu'
  | 'nativeImage'
  | 'powerSaveBlocker'
  | 'powerMonitor'
>;

/** What the desktop host needs of the core (createOperatorService gives it). */
export interface DesktopService {
  api: OperatorApi;
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Back from sleep: sweep and send what is due now (OperatorService.wake). */
  wake(): Promise<void>;
  /** Writes the diagnostics archive to `path` ("Save diagnostics…": OperatorService.writeDiagnostics). */
  writeDiagnostics?(path: string): Promise<{ path: string; bytes: number }>;
  /** "Restart to update": stop sending new cranks and count those in flight (OperatorService.holdCranks). */
  holdCranks?(): { inFlight(): number; release(): void };
}

/** pino's Logger satisfies it; tests record. */
export interface DesktopLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
