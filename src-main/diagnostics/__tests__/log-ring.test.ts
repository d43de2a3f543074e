/** The Logs screen's query over the ring: lowest level, search, lines after a sequence number, a limit of the newest, and the cap on lines kept. */
import { describe, expect, it } from 'vitest';
import { createLogRing } from '../log-ring';

const line = (level: number, msg: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ level, time: 1_700_000_000_000, pid: 1, hostname: 'h', name: 'keeper', msg, ...fields });

describe('the log ring', () => {
  const ring = createLogRing(5);
  for (const [level, msg] of [
    [20, 'debug one'],
    [30, 'info two'],
    [40, 'warn three'],
    [50, 'error four'],
    [30, 'info five'],
    [30, 'info six'],
  ] as const)
    ring.push(`${line(level, msg, { wager: `W-${msg}` })}\n`);

  it('keeps the newest lines up to its size, parsed, without pid and hostname', () => {
    expect(ring.query({}).map((entry) => entry.msg)).toEqual([
      'info two',
      'warn three',
      'error four',
      'info five',
      'info six',
    ]);
    expect(ring.query({ limit: 1 })[0]).toEqual({
      seq: 6,
      time: 1_700_000_000_000,
      level: 'info',
      name: 'keeper',
      msg: 'info six',
      fields: { wager: 'W-info six' },
    });
  });
  it('filters by lowest level, by text in message or fields, and by sequence', () => {
    expect(ring.query({ level: 'warn' }).map((entry) => entry.level)).toEqual(['warn', 'error']);
    expect(ring.query({ search: 'W-INFO F' }).map((entry) => entry.msg)).toEqual(['info five']);
    expect(ring.query({ after: 4 }).map((entry) => entry.seq)).toEqual([5, 6]);
  });
});
