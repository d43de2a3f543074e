/**
 * "Copy summary": a wager told in plain text for a support ticket, from what the Inspector shows (the
 * shared inspection's report and the wager's failed attempts): what was staked, by whom and when, the draw
 * and its proof, what was paid where (or parked, and its claim), or why it expired and what went back.
 * Times in UTC, amounts with their units, addresses and signatures in full. Pure (tested in
 * __tests__/wager-summary.test.ts).
 */
import type { FailedAttemptView, InspectionView } from '@shared/contract/inspection';
import { T_SETTLE_SLOTS } from '@shared/wager-timing';
import { formatUtc } from './time-zone';

type Report = InspectionView['report'];

const text = (report: Report, key: string): string | null =>
  typeof report[key] === 'string' ? (report[key] as string) : null;
const num = (report: Report, key: string): number | null =>
  typeof report[key] === 'number' ? (report[key] as number) : null;

/** "1.00" → "1.00 USDC" (the report writes USDC amounts as plain decimals). */
const usdc = (amount: string | null): string =>
  amount === null ? 'an unknown amount' : /^[\d.]+$/.test(amount) ? `${amount} USDC` : amount;

/** "at 2026-11-27 14:03:05 UTC (slot 1,234, transaction SIG)": whatever of it the report has. */
function when(report: Report, step: string): string {
  const time = text(report, `${step}Time`);
  const slot = num(report, `${step}Slot`);
  const signature = text(report, `${step}Signature`);
  const where = [slot === null ? null : `slot ${slot}`, signature ? `transaction ${signature}` : null]
    .filter(Boolean)
    .join(', ');
  if (time) return `at ${formatUtc(time)}${where ? ` (${where})` : ''}`;
  return where ? `at ${where}` : '(time not known)';
}

const isZero = (amount: string | null) => amount !== null && /^0(\.0*)?$/.test(amount);

/** What became of the stake and the payout, in sentences. */
function outcomeLines(report: Report, record: InspectionView['record']): string[] {
  const ended = text(report, 'ended');
  const beneficiary = text(report, 'payoutTo') ?? text(report, 'beneficiary') ?? 'the beneficiary';
  if (report.status === 'PayoutPending') {
    return [
      `Outcome: settled; the payout is parked in the pool's payout escrow: ${text(report, 'parkedPayout') ?? 'amount not known'}.`,
      `Why: the beneficiary's USDC account ${text(report, 'beneficiary') ?? ''} could not receive at settlement (closed, frozen or not a USDC account). Once it can receive again, claim_payout delivers it (the keeper retries; support can press Claim payout now).`,
    ];
  }
  if (ended?.startsWith('expired') || (ended === null && record?.state === 'expired')) {
    return [
      `Outcome: expired ${when(report, 'expire')}: the randomness never came within ${T_SETTLE_SLOTS} slots of the open, so the wager could not be settled.`,
      `Refunded: the stake (${usdc(text(report, 'stake'))}) was forfeited to the pool and stayed there; the wager's unspent prefund and its account's rent went back to the payer ${text(report, 'payer') ?? ''}.`.replace(
        ' .',
        '.',
      ),
    ];
  }
  if (ended === 'settled') {
    const payout = text(report, 'payout');
    const lines = [
      `Outcome: settled ${when(report, 'settle')}, bucket ${String(report.bucket ?? 'not known')}.`,
    ];
    if (isZero(payout)) lines.push('Paid: nothing (the drawn bucket pays 0×); the stake stayed in the pool.');
    else if (typeof report.claimSignature === 'string')
      lines.push(
        `Paid: ${usdc(payout)}, parked in the pool's payout escrow at settlement (the beneficiary's USDC account could not receive), then delivered to ${beneficiary} by claim_payout ${when(report, 'claim')}.`,
      );
    else if (text(report, 'payoutRoute')?.startsWith('parked'))
      lines.push(
        `Paid: ${usdc(payout)} parked in the pool's payout escrow, waiting for claim_payout to ${beneficiary}.`,
      );
    else lines.push(`Paid: ${usdc(payout)} to ${beneficiary} at settlement.`);
    return lines;
  }
  return [
    `Outcome: ${ended ?? `in progress (${String(report.status ?? record?.state ?? 'status not known')})`}.`,
  ];
}

/** The draw and its proof, when the randomness came. */
function drawLines(report: Report): string[] {
  const lines: string[] = [];
  if (typeof report.requestSignature === 'string' || typeof report.requestSlot === 'number')
    lines.push(
      `Randomness requested ${when(report, 'request')}${text(report, 'requestCranker') ? ` by ${text(report, 'requestCranker')}` : ''}.`,
    );
  if (typeof report.fulfilSignature === 'string')
    lines.push(`Randomness fulfilled by the oracle ${when(report, 'fulfil')}.`);
  if (report.randomness === 'fulfilled') {
    if (text(report, 'draw')) lines.push(`Draw: ${text(report, 'draw')}`);
    if (text(report, 'verdict')) lines.push(`Proof: ${text(report, 'verdict')}`);
    for (const [key, label] of [
      ['seed', 'Seed'],
      ['randomnessHex', 'Randomness'],
      ['oracleRequest', 'Oracle request account'],
    ] as const)
      if (text(report, key)) lines.push(`${label}: ${text(report, key)}`);
    if (text(report, 'verifyWith')) lines.push(`Check it offline: ${text(report, 'verifyWith')}`);
  } else if (typeof report.randomness === 'string') lines.push(`Randomness: ${report.randomness}.`);
  return lines;
}

/** The failed attempts, one line each (or that none failed). */
function attemptLines(attempts: FailedAttemptView[] | null): string[] {
  if (attempts === null) return [];
  if (attempts.length === 0) return ['Failed attempts: none.'];
  return [
    `Failed attempts (${attempts.length}):`,
    ...attempts.map(
      (a) =>
        `- ${a.at ? formatUtc(a.at) : 'time not known'}: ${a.step}, sent by ${a.sender ?? 'unknown'}${a.signature ? ` (transaction ${a.signature})` : ' (refused before it reached the chain)'}: ${a.error}`,
    ),
  ];
}

/** The plain-text summary of an inspected wager; `attempts` null when they have not been read. */
export function wagerSummary(view: InspectionView, attempts: FailedAttemptView[] | null): string {
  const { report, record } = view;
  const stakeOwner = text(report, 'stakeOwner');
  const paytable = text(report, 'paytable');
  const opened =
    typeof report.openTime === 'string' || typeof report.openSignature === 'string'
      ? `opened ${when(report, 'open')}`
      : num(report, 'openSlot') !== null
        ? `opened at slot ${num(report, 'openSlot')}`
        : 'opening time not known';
  const lines = [
    `Wager ${view.address}`,
    `Staked: ${usdc(text(report, 'stake'))} on the ${paytable ?? 'unknown'} paytable${stakeOwner ? ` by ${stakeOwner}` : ''}, ${opened}.`,
    `Beneficiary (USDC account): ${text(report, 'beneficiary') ?? 'not known'}`,
    ...(text(report, 'app') ? [`App (integrator authority): ${text(report, 'app')}`] : []),
    ...(text(report, 'payer') ? [`Payer (rent and prefund): ${text(report, 'payer')}`] : []),
    ...drawLines(report),
    ...outcomeLines(report, record),
    ...attemptLines(attempts),
  ];
  return `${lines.join('\n')}\n`;
}
