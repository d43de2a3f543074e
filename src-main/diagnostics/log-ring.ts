/**
 * The recent log lines kept in memory for the console's Logs screen (and the diagnostics archive): the
 * last RING_SIZE lines every logger of this process wrote, parsed once, each with a sequence number so the
 * screen can ask for what came after the last line it has.
 */
export const LOG_RING_SIZE = 2000;

import { LOG_LEVELS, type LogLevelName, type LogLine, type LogQuery } from '../../src-shared/contract/diagnostics';
export { LOG_LEVELS, type LogLevelName, type LogLine, type LogQuery };


/** pino's numeric levels: 10 trace … 60 fatal. */
const levelName = (level: unknown): LogLevelName =>
  LOG_LEVELS[Math.min(5, Math.max(0, Math.floor(Number(level) / 10) - 1))] ?? 'info';

export interface LogRing {
  /** One pino JSON line (unparsable text is kept as an info line). */
  push(line: string): void;
  query(query: LogQuery): LogLine[];
  /** Every line kept, oldest first, as written (the diagnostics archive). */
  text(): string;
}

export function createLogRing(size = LOG_RING_SIZE): LogRing {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  let seq = 0;
  return {
    push(line) {
      const text = line.endsWith('\n') ? line.slice(0, -1) : line;
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { level: 30, time: Date.now(), msg: text };
      }
      const { level, time, name, msg, ...fields } = parsed;
      delete fields.pid;
      delete fields.hostname;
      lines.push({
        seq: ++seq,
        time: Number(time) || Date.now(),
        level: levelName(level),
        name: typeof name === 'string' ? name : '',
        msg: typeof msg === 'string' ? msg : '',
        fields,
      });
      raw.push(text);
      if (lines.length > size) {
        lines.shift();
        raw.shift();
      }
    },
    query({ level, search, limit, after } = {}) {
      const lowest = level ? LOG_LEVELS.indexOf(level) : 0;
      const needle = search?.trim().toLowerCase() ?? '';
      const matching = lines.filter(
        (line) =>
          (after === undefined || line.seq > after) &&
          LOG_LEVELS.indexOf(line.level) >= lowest &&
          (needle === '' ||
            `${line.name} ${line.msg} ${JSON.stringify(line.fields)}`.toLowerCase().includes(needle)),
      );
      const count = Math.min(Math.max(1, Math.floor(limit ?? 500)), size);
      return matching.slice(-count);
    },
    text: () => (raw.length ? `${raw.join('\n')}\n` : ''),
  };
}
