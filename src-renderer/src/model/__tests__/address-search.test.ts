import { describe, expect, it } from 'vitest';
import type { FoundWagerView } from '@shared/contract/inspection';
import { outcomeName, WALLET_CSV_HEADER, walletCsv } from '../address-search';

const OPENED = Date.UTC(2026, 10, 27, 14, 3, 5);
const wager = (changes: Partial<FoundWagerView>): FoundWagerView => ({
  address: 'Wager1111111111111111111111111111111111111',
  roles: ['stake owner', 'beneficiary'],
  status: 'settled',
  openSlot: 1200,
  stake: '1000000',
  payout: '1960000',
  bucket: 1,
  openSignature: 'OpenSig',
  openedAt: OPENED,
  finalSignature: 'SettleSig',
  finalAt: OPENED + 4_800,
  ...changes,
});

describe("the wallet search's outcomes and CSV", () => {
  it('names each outcome in one word', () => {
    expect(outcomeName(wager({}))).toBe('won');
    expect(outcomeName(wager({ payout: '0' }))).toBe('lost');
    expect(outcomeName(wager({ status: 'PayoutPending' }))).toBe('parked');
    expect(outcomeName(wager({ status: 'expired', payout: null }))).toBe('expired');
    expect(outcomeName(wager({ status: 'Requested' }))).toBe('in progress');
    expect(outcomeName(wager({ status: 'unknown' }))).toBe('unknown');
  });

  it('writes one row per wager: UTC times, USDC with 6 decimals, signatures in full, empty cells for what has not happened', () => {
    const lines = walletCsv([
      wager({}),
      wager({
        address: 'Open',
        status: 'Open',
        payout: null,
        bucket: null,
        finalSignature: null,
        finalAt: null,
        roles: ['beneficiary'],
      }),
    ]).split('\r\n');
    expect(lines[0]).toBe(WALLET_CSV_HEADER.join(','));
    expect(lines[0]).toBe(
      'wager,outcome,opened_at_utc,final_at_utc,stake_usdc,payout_usdc,bucket,open_slot,roles,open_signature,final_signature',
    );
    expect(lines[1]).toBe(
      'Wager1111111111111111111111111111111111111,won,2026-11-27T14:03:05Z,2026-11-27T14:03:09Z,1.000000,1.960000,1,1200,stake owner beneficiary,OpenSig,SettleSig',
    );
    expect(lines[2]).toBe('Open,in progress,2026-11-27T14:03:05Z,,1.000000,,,1200,beneficiary,OpenSig,');
    expect(lines[3]).toBe('');
  });
});
