/**
 * The console contract, diagnostics: the Logs screen (recent lines, secrets masked) and "Save
 * diagnostics…".
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** Where "Save diagnostics…" wrote its archive. */
export interface DiagnosticsSavedView {
  path: string;
  bytes: number;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface LogLine {
  seq: number;
  /** Unix ms. */
  time: number;
  level: LogLevelName;
  /** The logger's name: keeper, desktop, ... */
  name: string;
  msg: string;
  /** Everything else the line carried (pid and hostname left out). */
  fields: Record<string, unknown>;
}

export interface LogQuery {
  /** The lowest level shown (default: every line). */
  level?: 'debug' | 'info' | 'warn' | 'error';
  /** Case-insensitive, in the message, the logger's name and the fields. */
  search?: string;
  /** At most this many lines, the newest (default 500, at most LOG_RING_SIZE). */
  limit?: number;
  /** Only lines after this sequence number (follow mode). */
  after?: number;
}

/** Diagnostics's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface DiagnosticsApi {
  /** The recent log lines (the last 2000 kept), oldest first, secrets masked: at or above `level`, matching `search`, after `after` (follow mode). */
  logs(args: LogQuery | undefined): Promise<{ lines: LogLine[] }>;
  /** Writes a diagnostics archive (.tar.gz, secrets removed) to the data folder and answers where. */
  saveDiagnostics(): Promise<DiagnosticsSavedView>;
}

/** Diagnostics's method names, in the order the transports list them. */
export const DIAGNOSTICS_METHODS = ['logs', 'saveDiagnostics'] as const satisfies readonly (keyof DiagnosticsApi)[];
