/** The slot timeline the Inspector draws, for an open, a settled and an expired wager. */
import { describe, expect, it } from 'vitest';
import type { InspectionView } from '@shared/contract/inspection';
import type { QueueRow } from '@shared/contract/activity';
import { timelineOf } from '../timeline';

const view = (report: InspectionView['report'], record: Partial<QueueRow> | null, slots: InspectionView['slots']): InspectionView => ({
  address: 'W',
  problem: null,
  report,
  record: record as QueueRow | null,
  slots,
  paytable: null,
});

describe('the slot timeline', () => {
  it('shows an open wager waiting for its request window, with the current slot among the marks', () => {
    const entries = timelineOf(view({ status: 'Open' }, null, { openSlot: 100, expirySlot: 250, currentSlot: 101 }), 101);
    expect(entries.map((e) => [e.label, e.slot, e.state])).toEqual([
      ['opened', 100, 'done'],
      ['now', 101, 'now'],
      ['request window opens (open + 2)', 102, 'next'],
      ['window closes; unfulfilled wagers can be expired (open + 150)', 250, 'next'],
    ]);
  });

  it('shows a settled wager from its record: request, fulfilment and settlement', () => {
    const entries = timelineOf(view({ ended: 'settled' }, { state: 'settled', openSlot: 100, expirySlot: 250, requestedSlot: 103, fulfilledSlot: 104, payoutPending: false }, null), 300);
    expect(entries.map((e) => e.label)).toEqual(['opened', 'request window opens (open + 2)', 'randomness requested', 'randomness fulfilled', 'settled']);
    expect(entries.find((e) => e.label === 'randomness fulfilled')?.slot).toBe(104);
  });

  it("shows a closed wager the keeper never tracked from the chain's history: open, request and settlement slots", () => {
    const entries = timelineOf(view({ ended: 'settled', openSlot: 100, requestSlot: 103, settleSlot: 106 }, null, null), 300);
    expect(entries.map((e) => [e.label, e.slot])).toEqual([
      ['opened', 100],
      ['request window opens (open + 2)', 102],
      ['randomness requested', 103],
      ['randomness fulfilled', null],
      ['settled', 106],
    ]);
  });

  it('shows when an expired wager was expired, after its window closed', () => {
    const entries = timelineOf(view({ ended: 'expired (the randomness never came; the stake stayed in the pool)', openSlot: 100, requestSlot: 103, expireSlot: 260 }, null, null), 400);
    expect(entries.slice(-2)).toEqual([
      { label: 'expired (window closed at open + 150)', slot: 250, state: 'done' },
      { label: 'expire transaction', slot: 260, state: 'done' },
    ]);
  });

  it('shows an expired wager ending at the window close', () => {
    const entries = timelineOf(view({ ended: 'expired (the randomness never came; the stake stayed in the pool)' }, { state: 'expired', openSlot: 100, expirySlot: 250, requestedSlot: 103, fulfilledSlot: null }, null), 400);
    expect(entries.at(-1)).toEqual({ label: 'expired (window closed at open + 150)', slot: 250, state: 'done' });
    expect(entries.map((e) => e.label)).not.toContain('randomness fulfilled');
  });
});
