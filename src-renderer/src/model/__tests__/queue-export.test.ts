import { describe, expect, it } from 'vitest';
import { csvField, formatSettleTime, matchesSearch, outcomeOf, QUEUE_CSV_HEADER, queueCsv, settleTimeOf, visibleRows } from '../queue';
import { foundWagerOutcome, searchAddressFromHash, searchHash, searchRedirect } from '../address-search';
import { row } from './fixtures';

const settled = row({
  address: 'Settled111111111111111111111111111111111111',
  state: 'settled',
  bucket: 1,
  payout: '1960000',
  fulfilledSlot: 1_012,
  settleSignature: 'SigSettle',
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:04.800Z',
});
const expired = row({ address: 'Expired111111111111111111111111111111111111', state: 'expired', createdAt: '2026-11-24T00:00:00.000Z', updatedAt: '2026-11-24T00:01:02.000Z' });
const queued = row({ address: 'Queued1111111111111111111111111111111111111', paytable: 'PaytabLe1111111111111111111111111111111111' });

describe('the Queue: outcome, time to settle, address search and CSV', () => {
  it('says how a finished wager ended and how long it took, and nothing while in progress', () => {
    expect(outcomeOf(settled)).toBe('bucket 1 · 1.96 USDC');
    expect(outcomeOf(expired)).toBe('expired');
    expect(outcomeOf(row({ state: 'settled', payoutPending: true, payout: '2000000' }))).toBe('parked: 2.00 USDC');
    expect(outcomeOf(queued)).toBe('—');
    expect(formatSettleTime(settleTimeOf(settled))).toBe('12 slots · 4.8 s');
    // An expiry: the slots to the expiry slot (open + 150), the seconds to when the keeper saw it end.
    expect(formatSettleTime(settleTimeOf(expired))).toMatch(/^150 slots · \S/);
    expect(formatSettleTime(settleTimeOf(queued))).toBe('—');
  });

  it('searches rows by any of their addresses, case-insensitively', () => {
    expect(matchesSearch(settled, 'settled111')).toBe(true);
    expect(matchesSearch(settled, 'sigsettle')).toBe(true);
    expect(matchesSearch(queued, 'PaytabLe1')).toBe(true);
    expect(matchesSearch(queued, 'nothing')).toBe(false);
    expect(matchesSearch(queued, '  ')).toBe(true);
    expect(visibleRows([settled, expired, queued], 'all', { key: 'openSlot', descending: true }, 'expired1').map((r) => r.address)).toEqual([expired.address]);
  });

  it('exports the rows shown as CSV with a header row, quoting what needs it', () => {
    const csv = queueCsv([settled, row({ address: 'Err', lastError: 'simulation failed: "custom", 0x1\nretry', stake: null })]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(QUEUE_CSV_HEADER.join(','));
    expect(lines[1]).toBe(`${settled.address},settled,coin-flip,1.000000,1000,1150,1,1.960000,false,12,4.8,0,,2026-11-24T00:00:00.000Z,2026-11-24T00:00:04.800Z`);
    expect(csv).toContain('"simulation failed: ""custom"", 0x1\nretry"');
    expect(lines.at(-1)).toBe('');
    expect(queueCsv([])).toBe(`${QUEUE_CSV_HEADER.join(',')}\r\n`);
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
  });

  it("routes support's search: a wager to the Inspector, the pool to Liquidity, a wallet stays on the search screen", () => {
    expect(searchHash(' Abc ')).toBe('#/search?address=Abc');
    expect(searchAddressFromHash('#/search?address=Abc')).toBe('Abc');
    expect(searchRedirect({ kind: 'wager', address: 'W' })).toBe('#/inspector?wager=W');
    expect(searchRedirect({ kind: 'pool', address: 'P' })).toBe('#/liquidity');
    expect(searchRedirect({ kind: 'wallet', address: 'U', owner: null, searched: ['U'], wagers: [], total: 0, note: null })).toBeNull();
    const found = { address: 'W', roles: ['beneficiary' as const], openSlot: 1, stake: '1000000', bucket: 0, payout: '1960000', openSignature: null, openedAt: null, finalSignature: null, finalAt: null };
    expect(foundWagerOutcome({ ...found, status: 'settled' })).toBe('settled: bucket 0, payout 1.96 USDC');
    expect(foundWagerOutcome({ ...found, status: 'expired' })).toMatch(/^expired/);
    expect(foundWagerOutcome({ ...found, status: 'Requested' })).toBe('open (Requested)');
  });
});
