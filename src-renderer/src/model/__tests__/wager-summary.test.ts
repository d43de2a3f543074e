/** "Copy summary": the plain text a support ticket gets for a settled, an expired and a parked wager. */
import { describe, expect, it } from 'vitest';
import type { FailedAttemptView, InspectionView } from '@shared/contract/inspection';
import { wagerSummary } from '../wager-summary';

const view = (report: InspectionView['report']): InspectionView => ({
  address: 'Wager1',
  problem: null,
  report,
  record: null,
  slots: null,
  paytable: null,
});

/** What an open wager's report has (no times: its account, not its history, was read). */
const stillOpen = {
  paytable: 'coin-flip',
  stake: '1.00',
  beneficiary: 'Ben1',
  stakeOwner: 'Owner1',
  app: 'App1',
  payer: 'Payer1',
  openSlot: 100,
};
const opened = {
  ...stillOpen,
  openTime: '2026-11-27T14:03:05.000Z',
  openSignature: 'OpenSig',
};
const drawn = {
  requestSlot: 103,
  requestTime: '2026-11-27T14:03:06.000Z',
  requestSignature: 'ReqSig',
  requestCranker: 'Keeper1',
  fulfilSlot: 104,
  fulfilTime: '2026-11-27T14:03:07.000Z',
  fulfilSignature: 'FulSig',
  randomness: 'fulfilled',
  seed: 'aa',
  randomnessHex: 'bb',
  oracleRequest: 'Req1',
  verdict: "Verified: signed by the oracle's fulfilment authority Auth1",
  draw: 'bb mod 2 = 1, so bucket 1 is drawn; it pays 1.96 USDC.',
  verifyWith: 'npx wager-keeper verify-randomness --seed aa --randomness bb',
};

describe('the summary for a ticket', () => {
  it('tells a settled wager: the stake, by whom and when (UTC), the draw and its proof, what was paid where', () => {
    const text = wagerSummary(
      view({
        ...opened,
        ...drawn,
        ended: 'settled',
        bucket: 1,
        payout: '1.96',
        payoutTo: 'Ben1',
        payoutRoute: "paid straight to the beneficiary's USDC account at settlement",
        settleSlot: 105,
        settleTime: '2026-11-27T14:03:08.000Z',
        settleSignature: 'SetSig',
      }),
      [],
    );
    expect(text).toBe(
      [
        'Wager Wager1',
        'Staked: 1.00 USDC on the coin-flip paytable by Owner1, opened at 2026-11-27 14:03:05 UTC (slot 100, transaction OpenSig).',
        'Beneficiary (USDC account): Ben1',
        'App (integrator authority): App1',
        'Payer (rent and prefund): Payer1',
        'Randomness requested at 2026-11-27 14:03:06 UTC (slot 103, transaction ReqSig) by Keeper1.',
        'Randomness fulfilled by the oracle at 2026-11-27 14:03:07 UTC (slot 104, transaction FulSig).',
        'Draw: bb mod 2 = 1, so bucket 1 is drawn; it pays 1.96 USDC.',
        "Proof: Verified: signed by the oracle's fulfilment authority Auth1",
        'Seed: aa',
        'Randomness: bb',
        'Oracle request account: Req1',
        'Check it offline: npx wager-keeper verify-randomness --seed aa --randomness bb',
        'Outcome: settled at 2026-11-27 14:03:08 UTC (slot 105, transaction SetSig), bucket 1.',
        'Paid: 1.96 USDC to Ben1 at settlement.',
        'Failed attempts: none.',
        '',
      ].join('\n'),
    );
  });

  it('tells an expired wager: why it expired and what went back, and its failed attempts', () => {
    const attempts: FailedAttemptView[] = [
      {
        at: '2026-11-27T14:04:00.000Z',
        signature: null,
        step: 'request randomness',
        sender: 'Keeper1',
        error: 'request: The request window has closed',
        source: 'this keeper',
      },
    ];
    const text = wagerSummary(
      view({
        ...opened,
        ended: 'expired (the randomness never came; the stake stayed in the pool)',
        randomness: 'never came',
        expireSlot: 251,
        expireTime: '2026-11-27T14:04:05.000Z',
        expireSignature: 'ExpSig',
      }),
      attempts,
    );
    expect(text).toContain('Randomness: never came.\n');
    expect(text).toContain(
      'Outcome: expired at 2026-11-27 14:04:05 UTC (slot 251, transaction ExpSig): the randomness never came within 150 slots of the open, so the wager could not be settled.\n',
    );
    expect(text).toContain(
      "Refunded: the stake (1.00 USDC) was forfeited to the pool and stayed there; the wager's unspent prefund and its account's rent went back to the payer Payer1.\n",
    );
    expect(text).toContain(
      'Failed attempts (1):\n- 2026-11-27 14:04:00 UTC: request randomness, sent by Keeper1 (refused before it reached the chain): request: The request window has closed\n',
    );
    expect(text).not.toContain('Paid:');
  });

  it('tells a parked payout delivered later by its claim, and one still parked', () => {
    const claimed = wagerSummary(
      view({
        ...opened,
        ...drawn,
        ended: 'settled',
        bucket: 1,
        payout: '1.96',
        payoutTo: 'Ben1',
        settleSlot: 105,
        settleSignature: 'SetSig',
        claimSlot: 120,
        claimTime: '2026-11-27T14:05:00.000Z',
        claimSignature: 'ClaimSig',
      }),
      null,
    );
    expect(claimed).toContain(
      "Paid: 1.96 USDC, parked in the pool's payout escrow at settlement (the beneficiary's USDC account could not receive), then delivered to Ben1 by claim_payout at 2026-11-27 14:05:00 UTC (slot 120, transaction ClaimSig).\n",
    );
    expect(claimed).not.toContain('Failed attempts');
    const parked = wagerSummary(
      view({
        ...stillOpen,
        status: 'PayoutPending',
        parkedPayout: '1.96 waiting in the escrow until the beneficiary can receive (claim_payout)',
      }),
      [],
    );
    expect(parked).toContain('opened at slot 100.');
    expect(parked).toContain(
      "Outcome: settled; the payout is parked in the pool's payout escrow: 1.96 waiting in the escrow",
    );
    expect(parked).toContain('Once it can receive again, claim_payout delivers it');
  });
});
