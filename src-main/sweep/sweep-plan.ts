/**
 * The sweep's arithmetic and rules, pure (issue 28, "Earnings to a wallet"): the reserve the keeper keeps
 * for its fees, what a sweep sends (balance − reserve − fee: the fee comes out of what is sent, so the
 * keeper is left with exactly the reserve), the refusals in words, and when the automatic mode sends.
 */
import { isAddress } from '@solana/kit';
import type { EarningsLedger } from '../store/earnings-ledger';
import type { SweepTrigger } from '../store/sweep-ledger';
import { RESERVE_DAYS, RESERVE_FLOOR_LAMPORTS } from '../../src-shared/settings/sweep';
import { DAY_MS, HOUR_MS, solText } from '../../src-shared/units';

// The reserve's floor (the console's low-balance line) and days: Settings → Earnings' table.
export { RESERVE_DAYS, RESERVE_FLOOR_LAMPORTS };
/** A system account holding no data must keep this much (rent exemption) or be emptied: no reserve may be below it. */
export const RENT_EXEMPT_MINIMUM_LAMPORTS = 890_880n;

export type SweepRefusalCode =
  | 'noDestination'
  | 'malformedAddress'
  | 'ownAddress'
  | 'reserveBelowRent'
  | 'nothingAboveReserve'
  | 'cutsIntoReserve'
  | 'belowNewAccountRent'
  | 'needsConfirmation';

/** A sweep refused before anything was sent: `message` says why and what to do. */
export class SweepRefusal extends Error {
  constructor(
    readonly code: SweepRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'SweepRefusal';
  }
}

/** What the keeper spent on transaction fees lately: the fees and over how many days (at least one). */
export interface MeasuredSpend {
  feeLamports: bigint;
  days: number;
}

/**
 * The fees booked in the earnings ledger over the last 7 days, and the days they cover: from the first
 * hour with a crank in that window to now, at least one day (a keeper that ran an hour is not extrapolated
 * from that hour's burst) and at most seven.
 */
export function measuredSpend(ledger: Pick<EarningsLedger, 'totals'>, nowMs: number): MeasuredSpend {
  const hours = ledger.totals(nowMs - RESERVE_DAYS * DAY_MS, HOUR_MS);
  const feeLamports = hours.reduce((sum, hour) => sum + BigInt(hour.feeLamports), 0n);
  const first = hours[0]?.bucketStart;
  const days = first === undefined ? 1 : Math.min(RESERVE_DAYS, Math.max(1, (nowMs - first) / DAY_MS));
  return { feeLamports, days };
}

export interface Reserve {
  lamports: bigint;
  /** A person set it (Settings or a flag), 7 days at the measured spend, or the floor. */
  source: 'setting' | 'measured' | 'floor';
  /** The measured spend per day (lamports). */
  dailySpendLamports: bigint;
  /** The reserve in words: how it was chosen. */
  why: string;
}

/**
 * The reserve: `keepLamports` when a person set one (`setBy` names where), else 7 days at the measured
 * spend, never below the floor.
 */
export function reserveFor(
  keepLamports: bigint | null,
  spend: MeasuredSpend,
  setBy = 'Settings → Earnings',
): Reserve {
  const dailySpendLamports = BigInt(Math.ceil(Number(spend.feeLamports) / spend.days));
  const days = Number(Math.min(spend.days, RESERVE_DAYS).toFixed(1));
  const perDay = `${solText(dailySpendLamports)} a day, the average of the last ${days === 1 ? 'day' : `${days} days`}`;
  if (keepLamports !== null)
    return {
      lamports: keepLamports,
      source: 'setting',
      dailySpendLamports,
      why: `${solText(keepLamports)}, set by ${setBy} (the keeper spends ${perDay})`,
    };
  const week = dailySpendLamports * BigInt(RESERVE_DAYS);
  if (week > RESERVE_FLOOR_LAMPORTS)
    return {
      lamports: week,
      source: 'measured',
      dailySpendLamports,
      why: `${RESERVE_DAYS} days of fees at the measured spend: ${perDay}`,
    };
  return {
    lamports: RESERVE_FLOOR_LAMPORTS,
    source: 'floor',
    dailySpendLamports,
    why: `the floor of ${solText(RESERVE_FLOOR_LAMPORTS)}: ${RESERVE_DAYS} days at the measured spend (${perDay}) come to less`,
  };
}

/** Checks a destination wallet typed by a person; answers it trimmed. */
export function checkDestination(destination: string | null | undefined, keeper: string): string {
  const trimmed = (destination ?? '').trim();
  if (trimmed === '')
    throw new SweepRefusal(
      'noDestination',
      'no destination wallet is set: enter the address of your wallet (Settings → Earnings, or --to ADDRESS)',
    );
  if (!isAddress(trimmed))
    throw new SweepRefusal(
      'malformedAddress',
      `'${trimmed}' is not a Solana address (32 bytes in base58, like the one your wallet shows): check it and paste it again`,
    );
  if (trimmed === keeper)
    throw new SweepRefusal(
      'ownAddress',
      `${trimmed} is the keeper's own address: a sweep sends earnings away from it; enter your own wallet's address instead`,
    );
  return trimmed;
}

/** Checks a reserve a person set: the keeper's account must stay rent exempt. */
export function checkReserve(keepLamports: bigint): bigint {
  if (keepLamports < RENT_EXEMPT_MINIMUM_LAMPORTS)
    throw new SweepRefusal(
      'reserveBelowRent',
      `a reserve of ${solText(keepLamports)} would leave the keeper's account below rent exemption (${solText(RENT_EXEMPT_MINIMUM_LAMPORTS)}) and with nothing for fees: keep at least ${solText(RESERVE_FLOOR_LAMPORTS)}`,
    );
  return keepLamports;
}

export interface SweepPlan {
  destination: string;
  balanceLamports: bigint;
  reserveLamports: bigint;
  feeLamports: bigint;
  sendLamports: bigint;
  /** The keeper's balance after the sweep: the reserve, or more when a smaller amount was asked for. */
  keptLamports: bigint;
}

export interface PlanInput {
  keeper: string;
  destination: string | null;
  balanceLamports: bigint;
  reserveLamports: bigint;
  /** The sweep's own transaction fee (it comes out of what is sent). */
  feeLamports: bigint;
  /** Send exactly this (what a person saw and confirmed); absent: everything above the reserve. */
  amountLamports?: bigint;
  /** The destination holds lamports already (else what is sent must make it rent exempt). */
  destinationExists?: boolean;
}

/** What a sweep sends now, or a refusal saying why it cannot send. */
export function planSweep(input: PlanInput): SweepPlan {
  const destination = checkDestination(input.destination, input.keeper);
  const reserve = checkReserve(input.reserveLamports);
  const { balanceLamports: balance, feeLamports: fee } = input;
  const above = balance - reserve - fee;
  if (input.amountLamports !== undefined && input.amountLamports > 0n && input.amountLamports > above)
    throw new SweepRefusal(
      'cutsIntoReserve',
      `sending ${solText(input.amountLamports)} would cut into the reserve: the keeper holds ${solText(balance)}, keeps ${solText(reserve)} for fees and pays ${solText(fee)} for the sweep, so at most ${solText(above > 0n ? above : 0n)} can go. Look at the new figures and send again`,
    );
  if (above <= 0n)
    throw new SweepRefusal(
      'nothingAboveReserve',
      `nothing above the reserve to send: the keeper holds ${solText(balance)} and keeps ${solText(reserve)} for fees (a sweep costs ${solText(fee)}). Wait until it earns more, or lower the reserve`,
    );
  const send = input.amountLamports !== undefined && input.amountLamports > 0n ? input.amountLamports : above;
  if (input.destinationExists === false && send < RENT_EXEMPT_MINIMUM_LAMPORTS)
    throw new SweepRefusal(
      'belowNewAccountRent',
      `${destination} holds nothing yet, and a new account needs at least ${solText(RENT_EXEMPT_MINIMUM_LAMPORTS)} (rent exemption); only ${solText(send)} is above the reserve. Wait until the keeper earns more`,
    );
  return {
    destination,
    balanceLamports: balance,
    reserveLamports: reserve,
    feeLamports: fee,
    sendLamports: send,
    keptLamports: balance - send - fee,
  };
}

/** On mainnet-beta a person confirms each manual sweep (the console's dialog, the command's --yes or its question). */
export function checkConfirmation(cluster: string, trigger: SweepTrigger, confirmed: boolean): void {
  if (cluster === 'mainnet-beta' && trigger !== 'automatic' && !confirmed)
    throw new SweepRefusal(
      'needsConfirmation',
      'on mainnet-beta a person confirms each sweep: confirm it in the console, or run the command again with --yes (or in a terminal, where it asks)',
    );
}

export interface AutomaticInput {
  balanceLamports: bigint;
  reserveLamports: bigint;
  thresholdLamports: bigint;
  everyMs: number;
  /** When the automatic mode last sent (null: never). */
  lastAutomaticAtMs: number | null;
  nowMs: number;
}

/**
 * Whether the automatic mode sends now: the balance exceeds reserve + threshold, and the last automatic
 * sweep is at least one interval old. A sweep leaves exactly the reserve, so the next one waits until the
 * earnings pass the threshold again.
 */
export function automaticSweepDue(input: AutomaticInput): { due: true } | { due: false; reason: string } {
  const line = input.reserveLamports + input.thresholdLamports;
  if (input.balanceLamports <= line)
    return {
      due: false,
      reason: `waiting for the balance to pass ${solText(line)} (reserve ${solText(input.reserveLamports)} + threshold ${solText(input.thresholdLamports)})`,
    };
  if (input.lastAutomaticAtMs !== null && input.nowMs - input.lastAutomaticAtMs < input.everyMs)
    return {
      due: false,
      reason: `the last automatic sweep was less than one interval ago; the next may go at ${new Date(input.lastAutomaticAtMs + input.everyMs).toISOString()}`,
    };
  return { due: true };
}
