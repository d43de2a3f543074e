/** Live record batches merge into the queue by address; finished rows leave it after their time. */
import { describe, expect, it } from 'vitest';
import type { QueueRow } from '../../../../src-main/operator/operator-interface';
import { mergeRecords } from '../../live-events';

const row = (address: string, state: QueueRow['state'], updatedAt: string): QueueRow =>
  ({ address, state, updatedAt, payoutPending: false }) as QueueRow;

describe('merging live record batches into the queue', () => {
  const now = Date.parse('2026-11-24T12:00:00.000Z');
  it('replaces a row by address, adds new ones, and keeps the rest untouched', () => {
    const current = new Map([
      ['A', row('A', 'queued', '2026-11-24T11:59:00.000Z')],
      ['B', row('B', 'requested', '2026-11-24T11:59:00.000Z')],
    ]);
    const merged = mergeRecords(current, [row('A', 'settled', '2026-11-24T11:59:59.000Z'), row('C', 'queued', '2026-11-24T11:59:59.000Z')], now);
    expect([...merged.keys()]).toEqual(['A', 'B', 'C']);
    expect(merged.get('A')!.state).toBe('settled');
    expect(merged.get('B')).toBe(current.get('B'));
    expect(current.get('A')!.state).toBe('queued'); // the cached map is not mutated
  });

  it('drops a finished row older than ten minutes', () => {
    const merged = mergeRecords(new Map([['A', row('A', 'queued', '2026-11-24T11:40:00.000Z')]]), [row('A', 'expired', '2026-11-24T11:45:00.000Z')], now);
    expect(merged.has('A')).toBe(false);
  });
});
