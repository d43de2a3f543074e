/** The sweep's arithmetic, refusals and automatic rule, with the clock and balances given. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/database';
import { createEarningsLedger } from '../../store/earnings-ledger';
import {
  automaticSweepDue,
  checkConfirmation,
  measuredSpend,
  planSweep,
  reserveFor,
  RESERVE_FLOOR_LAMPORTS,
  SweepRefusal,
  type PlanInput,
} from '../sweep-plan';
import { parseSol } from '../../../src-shared/units';

const KEEPER = 'GvHeR432g7MjN9uKyX3Dzg66TqwrEWgANLnnFZXMeyyj';
const WALLET = '7EqQdEULxWcraVx3mXKFjc84LhCkMGZCkRuDpvcMwJeK';
const SOL = 1_000_000_000n;
const base: PlanInput = {
  keeper: KEEPER,
  destination: WALLET,
  balanceLamports: 2n * SOL,
  reserveLamports: SOL / 10n,
  feeLamports: 5_000n,
};

const refusal = (input: PlanInput) => {
  try {
    planSweep(input);
  } catch (error) {
    if (error instanceof SweepRefusal) return error;
  }
  throw new Error('not refused');
};

describe('the sweep plan', () => {
  it('sends balance − reserve − fee, so the keeper keeps exactly the reserve', () => {
    const plan = planSweep(base);
    expect(plan.sendLamports).toBe(2n * SOL - SOL / 10n - 5_000n);
    expect(plan.keptLamports).toBe(SOL / 10n);
  });

  it('refuses the keeper’s own address, a malformed address, nothing above the reserve and an amount that cuts into it, each in a sentence', () => {
    expect(refusal({ ...base, destination: KEEPER })).toMatchObject({
      code: 'ownAddress',
      message: expect.stringContaining("the keeper's own address"),
    });
    expect(refusal({ ...base, destination: 'not-a-wallet' })).toMatchObject({
      code: 'malformedAddress',
      message: expect.stringContaining('is not a Solana address'),
    });
    expect(refusal({ ...base, destination: '' })).toMatchObject({ code: 'noDestination' });
    expect(refusal({ ...base, balanceLamports: SOL / 10n + 5_000n })).toMatchObject({
      code: 'nothingAboveReserve',
      message: expect.stringContaining('keeps 0.1 SOL for fees'),
    });
    expect(refusal({ ...base, amountLamports: 2n * SOL - SOL / 10n })).toMatchObject({
      code: 'cutsIntoReserve',
      message: expect.stringContaining('would cut into the reserve'),
    });
    expect(refusal({ ...base, reserveLamports: 1_000n })).toMatchObject({ code: 'reserveBelowRent' });
    expect(
      refusal({ ...base, balanceLamports: SOL / 10n + 105_000n, destinationExists: false }),
    ).toMatchObject({ code: 'belowNewAccountRent' });
  });

  it('on mainnet-beta a manual or command sweep needs a person’s confirmation; elsewhere, or automatic, it does not', () => {
    expect(() => checkConfirmation('mainnet-beta', 'manual', false)).toThrow(/a person confirms each sweep/);
    expect(() => checkConfirmation('mainnet-beta', 'command', false)).toThrow(SweepRefusal);
    expect(() => checkConfirmation('mainnet-beta', 'manual', true)).not.toThrow();
    expect(() => checkConfirmation('devnet', 'command', false)).not.toThrow();
  });
});

describe('the reserve', () => {
  it('is 7 days at the measured spend from the earnings ledger, never below the floor of 0.05 SOL', () => {
    const db = openDatabase(':memory:');
    const ledger = createEarningsLedger(db);
    const now = Date.UTC(2026, 10, 27, 12);
    expect(reserveFor(null, measuredSpend(ledger, now))).toMatchObject({
      lamports: RESERVE_FLOOR_LAMPORTS,
      source: 'floor',
    });
    // Two days of cranking, 0.02 SOL of fees a day: 0.14 SOL for 7 days.
    for (let day = 0; day < 2; day++)
      ledger.record({
        at: new Date(now - 2 * 86_400_000 + day * 86_400_000).toISOString(),
        wager: null,
        step: 'settle',
        signature: null,
        receivedLamports: 0,
        feeLamports: 20_000_000,
      });
    const reserve = reserveFor(null, measuredSpend(ledger, now));
    expect(reserve).toMatchObject({
      lamports: 140_000_000n,
      source: 'measured',
      dailySpendLamports: 20_000_000n,
    });
    expect(reserve.why).toContain('0.02 SOL a day');
    expect(reserveFor(SOL, measuredSpend(ledger, now), '--sweep-keep')).toMatchObject({
      lamports: SOL,
      source: 'setting',
      why: expect.stringContaining('--sweep-keep'),
    });
    db.close();
  });

  it('parses SOL as people type it', () => {
    expect(parseSol('0.05')).toBe(50_000_000n);
    expect(parseSol('1')).toBe(SOL);
    expect(parseSol('1.0000000001')).toBeNull();
    expect(parseSol('-1')).toBeNull();
  });
});

describe('the automatic rule', () => {
  const rule = { reserveLamports: SOL / 10n, thresholdLamports: SOL / 2n, everyMs: 3_600_000 };
  it('sends once past reserve + threshold, at most once per interval, and not again until the threshold is passed again', () => {
    const t0 = 1_000_000;
    expect(
      automaticSweepDue({ ...rule, balanceLamports: SOL / 2n, lastAutomaticAtMs: null, nowMs: t0 }),
    ).toMatchObject({ due: false, reason: expect.stringContaining('0.6 SOL') });
    expect(automaticSweepDue({ ...rule, balanceLamports: SOL, lastAutomaticAtMs: null, nowMs: t0 })).toEqual({
      due: true,
    });
    // After the sweep the keeper holds the reserve: nothing until the earnings pass the threshold again.
    expect(
      automaticSweepDue({ ...rule, balanceLamports: SOL / 10n, lastAutomaticAtMs: t0, nowMs: t0 + 7_200_000 })
        .due,
    ).toBe(false);
    // Past it again, but within the interval: waits for the interval.
    expect(
      automaticSweepDue({ ...rule, balanceLamports: SOL, lastAutomaticAtMs: t0, nowMs: t0 + 60_000 }),
    ).toMatchObject({ due: false, reason: expect.stringContaining('interval') });
    expect(
      automaticSweepDue({ ...rule, balanceLamports: SOL, lastAutomaticAtMs: t0, nowMs: t0 + 3_600_000 }),
    ).toEqual({ due: true });
  });
});
