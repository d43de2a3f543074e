/** The Inspector's slot timeline of one wager (tested in __tests__/timeline.test.ts). */
import { REQUEST_DELAY_SLOTS, T_SETTLE_SLOTS, expiresAt, requestOpensAt } from '@shared/wager-timing';
import type { InspectionView } from '@shared/contract/inspection';

export interface TimelineEntry {
  label: string;
  /** null: happened, slot not known; undefined never (entries that did not happen are left out). */
  slot: number | null;
  state: 'done' | 'now' | 'next';
}

/** open → request window (open+2 .. open+150) → request → fulfilment → settlement or expiry, and the current slot. */
export function timelineOf(view: InspectionView, currentSlot: number | null): TimelineEntry[] {
  const record = view.record;
  const openSlot = view.slots?.openSlot ?? record?.openSlot ?? (typeof view.report.openSlot === 'number' ? view.report.openSlot : null);
  if (openSlot === null) return [];
  const expiry = view.slots?.expirySlot ?? record?.expirySlot ?? expiresAt(openSlot);
  const windowOpens = requestOpensAt(openSlot);
  const at = (slot: number) => (currentSlot !== null && currentSlot >= slot ? 'done' : 'next');
  const entries: TimelineEntry[] = [
    { label: 'opened', slot: openSlot, state: 'done' },
    { label: `request window opens (open + ${REQUEST_DELAY_SLOTS})`, slot: windowOpens, state: at(windowOpens) },
  ];
  const status = String(view.report.status ?? view.report.ended ?? record?.state ?? '');
  /** A slot the chain's history gave the inspection (closed wagers): requestSlot, settleSlot, expireSlot. */
  const reportSlot = (key: string) => (typeof view.report[key] === 'number' ? (view.report[key] as number) : null);
  const requested = record?.requestedSlot ?? reportSlot('requestSlot');
  if (requested !== null || /Requested|PayoutPending|settled/.test(status)) entries.push({ label: 'randomness requested', slot: requested, state: 'done' });
  const fulfilled = record?.fulfilledSlot ?? reportSlot('fulfilSlot');
  if (fulfilled !== null || view.report.randomness === 'fulfilled' || /PayoutPending|settled/.test(status)) entries.push({ label: 'randomness fulfilled', slot: fulfilled, state: 'done' });
  if (/settled/.test(status) || record?.state === 'settled' || /PayoutPending/.test(status)) entries.push({ label: /PayoutPending/.test(status) || record?.payoutPending ? 'settled (payout parked in escrow)' : 'settled', slot: reportSlot('settleSlot'), state: 'done' });
  else if (/expired/.test(status) || record?.state === 'expired') {
    entries.push({ label: `expired (window closed at open + ${T_SETTLE_SLOTS})`, slot: expiry, state: 'done' });
    const expired = reportSlot('expireSlot');
    if (expired !== null) entries.push({ label: 'expire transaction', slot: expired, state: 'done' });
  }
  else entries.push({ label: `window closes; unfulfilled wagers can be expired (open + ${T_SETTLE_SLOTS})`, slot: expiry, state: at(expiry + 1) });
  if (currentSlot !== null && view.slots) entries.push({ label: 'now', slot: currentSlot, state: 'now' });
  // In slot order; a step whose slot is not known stays right after the step before it.
  let previous = -Infinity;
  const placed = entries.map((entry) => ({ entry, at: (previous = entry.slot ?? previous) }));
  return placed.sort((a, b) => a.at - b.at).map(({ entry }) => entry);
}
