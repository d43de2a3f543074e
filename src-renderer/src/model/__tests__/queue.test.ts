/** Slot countdowns, next steps, state filters, sorting, and merging live batches into the queue index. */
import { describe, expect, it } from 'vitest';
import { FINISHED_ROW_TTL_MS, type QueueRow } from '@shared/contract/activity';
import { REQUEST_DELAY_SLOTS, T_SETTLE_SLOTS } from '@shared/wager-timing';
import { countRows, indexQueue, mergeRecords, nextStepOf, pruneFinished, queueView, toggleSort, visibleRows } from '../queue';
import { row } from './fixtures';

describe('slot countdowns and next steps', () => {
  const now = 10_000;
  const open = 1_000; // the fixture's open slot; expiry is open + T_SETTLE_SLOTS
  it('uses the interface constants: the window opens at open + 2 and closes at open + 150', () => {
    expect(REQUEST_DELAY_SLOTS).toBe(2);
    expect(T_SETTLE_SLOTS).toBe(150);
  });

  it('counts down to the request window, then the slots left to request in it', () => {
    expect(nextStepOf(row({}), open, now)).toMatchObject({ step: 'request', when: 'in 2 slots', slotsLeftLabel: 'request window opens in 2 slots' });
    expect(nextStepOf(row({}), open + 1, now)).toMatchObject({ when: 'in 1 slot', slotsLeftLabel: 'request window opens in 1 slot' });
    expect(nextStepOf(row({}), open + 2, now)).toMatchObject({ step: 'request', when: 'now', slotsLeft: 148, slotsLeftLabel: '148 slots left to request' });
    expect(nextStepOf(row({}), open + 10, now)).toMatchObject({ slotsLeft: 140, slotsLeftLabel: '140 slots left to request' });
    expect(nextStepOf(row({}), open + 150, now)).toMatchObject({ step: 'request', slotsLeftLabel: '0 slots left to request' });
  });

  it('falls back to open + 150 when the account gave no expiry slot', () => {
    expect(nextStepOf(row({ expirySlot: null }), open + 100, now)).toMatchObject({ slotsLeft: 50 });
  });

  it('waits for the oracle with the slots left to expiry, then says it is expirable past open + 150', () => {
    expect(nextStepOf(row({ state: 'requested' }), open + 100, now)).toMatchObject({
      step: 'settle',
      when: 'waiting for the oracle',
      slotsLeft: 50,
      slotsLeftLabel: '50 slots to expiry',
    });
    expect(nextStepOf(row({ state: 'requested' }), open + 151, now)).toMatchObject({ step: 'expire', when: 'now', slotsLeftLabel: 'expirable now' });
    expect(nextStepOf(row({ state: 'queued' }), open + 200, now)).toMatchObject({ step: 'expire', slotsLeftLabel: 'expirable now' });
  });

  it('settles a fulfilled wager, even past the window', () => {
    expect(nextStepOf(row({ state: 'fulfilled' }), open + 200, now)).toMatchObject({ step: 'settle', when: 'now', slotsLeftLabel: 'settling' });
  });

  it('shows a backoff as a retry countdown, rounded up to whole seconds, and none once it is over', () => {
    expect(nextStepOf(row({ state: 'fulfilled', nextAttemptAt: now + 7_200 }), open + 20, now)).toMatchObject({ when: 'retry in 8 s', backoff: 'retry in 8 s' });
    expect(nextStepOf(row({ nextAttemptAt: now + 1 }), open + 20, now)).toMatchObject({ backoff: 'retry in 1 s' });
    expect(nextStepOf(row({ nextAttemptAt: now - 1 }), open + 20, now)).toMatchObject({ when: 'now', backoff: null });
  });

  it('claims a parked payout, and has nothing to do for a finished wager', () => {
    expect(nextStepOf(row({ state: 'settled', payoutPending: true }), open + 20, now)).toMatchObject({ step: 'claim payout', when: 'now', slotsLeftLabel: 'payout parked' });
    expect(nextStepOf(row({ state: 'expired' }), open + 200, now)).toMatchObject({ step: 'none', when: 'expired', slotsLeftLabel: '—' });
  });

  it('says nothing about slots before the current slot or the open slot is known', () => {
    expect(nextStepOf(row({}), null, now)).toMatchObject({ step: 'request', slotsLeft: null, slotsLeftLabel: '—' });
    expect(nextStepOf(row({ state: 'requested', openSlot: null }), 1_100, now)).toMatchObject({ step: 'settle', slotsLeftLabel: '—' });
  });
});

describe('queue filters and sorting', () => {
  const rows = [
    row({ address: 'A', state: 'queued', openSlot: 5, stake: '3000000', updatedAt: '2026-11-24T00:00:03.000Z' }),
    row({ address: 'B', state: 'requested', openSlot: 9, stake: '1000000', updatedAt: '2026-11-24T00:00:01.000Z' }),
    row({ address: 'C', state: 'settled', openSlot: 7, payoutPending: true, stake: '2000000', updatedAt: '2026-11-24T00:00:04.000Z' }),
    row({ address: 'D', state: 'settled', openSlot: 8, stake: '2000000', updatedAt: '2026-11-24T00:00:02.000Z' }),
    row({ address: 'E', state: 'fulfilled', openSlot: 6, stake: '10000000', updatedAt: '2026-11-24T00:00:00.000Z' }),
  ];
  const addresses = (list: QueueRow[]) => list.map((r) => r.address);
  const byOpen = { key: 'openSlot', descending: false } as const;

  it('filters by state, parked payouts apart from the state they are in, finished ones together', () => {
    expect(addresses(visibleRows(rows, 'queued', byOpen))).toEqual(['A']);
    expect(addresses(visibleRows(rows, 'requested', byOpen))).toEqual(['B']);
    expect(addresses(visibleRows(rows, 'fulfilled', byOpen))).toEqual(['E']);
    expect(addresses(visibleRows(rows, 'parked', byOpen))).toEqual(['C']);
    expect(addresses(visibleRows(rows, 'finished', byOpen))).toEqual(['D']);
    expect(addresses(visibleRows(rows, 'all', byOpen))).toEqual(['A', 'E', 'C', 'D', 'B']);
  });

  it('sorts by open slot, stake (numerically, not as text), state or last update', () => {
    expect(addresses(visibleRows(rows, 'all', { key: 'openSlot', descending: true }))).toEqual(['B', 'D', 'C', 'E', 'A']);
    // "10000000" < "3000000" as text; as amounts 10 USDC is the largest.
    expect(addresses(visibleRows(rows, 'all', { key: 'stake', descending: true }))).toEqual(['E', 'A', 'C', 'D', 'B']);
    expect(addresses(visibleRows(rows, 'all', { key: 'state', descending: false }))).toEqual(['A', 'B', 'E', 'C', 'D']);
    expect(addresses(visibleRows(rows, 'all', { key: 'updatedAt', descending: true }))).toEqual(['C', 'A', 'D', 'B', 'E']);
  });

  it('breaks ties by address so rows do not jump as they update', () => {
    const tied = [row({ address: 'Z', openSlot: 1 }), row({ address: 'M', openSlot: 1 }), row({ address: 'Q', openSlot: 1 })];
    expect(addresses(visibleRows(tied, 'all', { key: 'openSlot', descending: true }))).toEqual(['M', 'Q', 'Z']);
    expect(addresses(visibleRows(tied, 'all', { key: 'openSlot', descending: false }))).toEqual(['M', 'Q', 'Z']);
  });

  it('flips the direction on the same column and starts descending on another', () => {
    expect(toggleSort({ key: 'openSlot', descending: true }, 'openSlot')).toEqual({ key: 'openSlot', descending: false });
    expect(toggleSort({ key: 'openSlot', descending: false }, 'stake')).toEqual({ key: 'stake', descending: true });
  });

  it('counts rows in progress and finished', () => {
    expect(countRows(rows)).toEqual({ total: 5, inProgress: 4, finished: 1 });
  });
});

describe('merging live record batches into the queue index', () => {
  const now = Date.parse('2026-11-24T12:00:00.000Z');
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();

  it('replaces a row by address, adds new ones, keeps the rest, and wraps the same Map in a new version', () => {
    const index = indexQueue([row({ address: 'A', updatedAt: at(60_000) }), row({ address: 'B', state: 'requested', updatedAt: at(60_000) })]);
    const b = index.rows.get('B');
    const merged = mergeRecords(index, [row({ address: 'A', state: 'settled', updatedAt: at(1_000) }), row({ address: 'C', updatedAt: at(1_000) })], now);
    expect([...merged.rows.keys()]).toEqual(['A', 'B', 'C']);
    expect(merged.rows.get('A')!.state).toBe('settled');
    expect(merged.rows.get('B')).toBe(b);
    expect(merged.version).toBe(index.version + 1);
    expect(merged).not.toBe(index);
    // O(changes): the Map is updated in place, never copied.
    expect(merged.rows).toBe(index.rows);
  });

  it('keeps a just-finished row (a cranker sees it end) but drops one that finished over ten minutes ago', () => {
    const index = indexQueue([row({ address: 'A' }), row({ address: 'B' })]);
    const merged = mergeRecords(
      index,
      [row({ address: 'A', state: 'settled', updatedAt: at(5_000) }), row({ address: 'B', state: 'expired', updatedAt: at(FINISHED_ROW_TTL_MS + 1) })],
      now,
    );
    expect(merged.rows.get('A')!.state).toBe('settled');
    expect(merged.rows.has('B')).toBe(false);
  });

  it('keeps a settled row with a parked payout however old it is', () => {
    const merged = mergeRecords(indexQueue([]), [row({ address: 'P', state: 'settled', payoutPending: true, updatedAt: at(3_600_000) })], now);
    expect(merged.rows.has('P')).toBe(true);
  });

  it('prunes finished rows past their time and the oldest beyond the cap, and leaves the index alone when nothing goes', () => {
    const index = indexQueue([
      row({ address: 'old', state: 'settled', updatedAt: at(FINISHED_ROW_TTL_MS + 60_000) }),
      row({ address: 'f1', state: 'settled', updatedAt: at(3_000) }),
      row({ address: 'f2', state: 'expired', updatedAt: at(2_000) }),
      row({ address: 'f3', state: 'settled', updatedAt: at(1_000) }),
      row({ address: 'live', state: 'queued', updatedAt: at(FINISHED_ROW_TTL_MS * 3) }),
    ]);
    const pruned = pruneFinished(index, now, 2);
    expect([...pruned.rows.keys()].sort()).toEqual(['f2', 'f3', 'live']);
    expect(pruned.version).toBe(1);
    expect(pruneFinished(pruned, now, 2)).toBe(pruned);
  });
});

describe('the sorted view of the queue', () => {
  const now = Date.parse('2026-11-24T12:00:00.000Z');
  const fresh = new Date(now - 1_000).toISOString();
  const byOpen = { key: 'openSlot', descending: true } as const;
  const start = () => {
    const index = indexQueue([row({ address: 'A', openSlot: 3 }), row({ address: 'B', openSlot: 2, state: 'requested' }), row({ address: 'C', openSlot: 1 })]);
    return { index, view: queueView(null, index, 'all', byOpen) };
  };
  /** The row at `address` as a later batch sends it. */
  const update = (index: ReturnType<typeof indexQueue>, address: string, changes: Partial<QueueRow>) => ({ ...index.rows.get(address)!, updatedAt: fresh, ...changes });
  const shown = (view: { rows: QueueRow[] }) => view.rows.map((r) => r.address);

  it('sorts a fresh index and knows where each row stands', () => {
    const { view } = start();
    expect(shown(view)).toEqual(['A', 'B', 'C']);
    expect(view.position.get('C')).toBe(2);
  });

  it('replaces rows in place when a batch changes neither their filter nor their sort value', () => {
    const { index, view } = start();
    const merged = mergeRecords(index, [update(index, 'C', { state: 'requested' })], now);
    expect(merged.lastBatch).toEqual({ rows: [merged.rows.get('C')], addedOrRemoved: false });
    const next = queueView(view, merged, 'all', byOpen);
    expect(next.rows.map((r) => `${r.address}:${r.state}`)).toEqual(['A:queued', 'B:requested', 'C:requested']);
    expect(next.position).toBe(view.position); // no sort, no new position index
    expect(view.rows[2]!.state).toBe('queued'); // the previous view is left as it was
  });

  it('sorts again when a row moves', () => {
    const { index, view } = start();
    const moved = queueView(view, mergeRecords(index, [update(index, 'C', { openSlot: 9 })], now), 'all', byOpen);
    expect(shown(moved)).toEqual(['C', 'A', 'B']);
    expect(moved.position.get('C')).toBe(0);
  });

  it('sorts again when a row enters or leaves the filter, or a row is added', () => {
    const { index } = start();
    const queued = queueView(null, index, 'queued', byOpen);
    expect(shown(queued)).toEqual(['A', 'C']);
    const entered = queueView(queued, mergeRecords(index, [update(index, 'B', { state: 'queued' })], now), 'queued', byOpen);
    expect(shown(entered)).toEqual(['A', 'B', 'C']);
    const left = queueView(entered, mergeRecords(index, [update(index, 'A', { state: 'requested' })], now), 'queued', byOpen);
    expect(shown(left)).toEqual(['B', 'C']);
    const added = mergeRecords({ ...index, version: left.version }, [row({ address: 'D', openSlot: 0, updatedAt: fresh })], now);
    expect(added.lastBatch!.addedOrRemoved).toBe(true);
    expect(shown(queueView(left, added, 'queued', byOpen))).toEqual(['B', 'C', 'D']);
  });

  it('sorts again when it missed a version (two batches between renders)', () => {
    const { index, view } = start();
    const first = mergeRecords(index, [update(index, 'C', { openSlot: 9 })], now);
    const second = mergeRecords(first, [update(index, 'B', { state: 'fulfilled' })], now);
    expect(second.version).toBe(view.version + 2);
    expect(shown(queueView(view, second, 'all', byOpen))).toEqual(['C', 'A', 'B']);
  });
});
