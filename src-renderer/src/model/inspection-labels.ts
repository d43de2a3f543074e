/**
 * How the Inspector words the shared inspection's report (its keys are the `inspect` command's JSON
 * fields): labels for people, never field names, and which keys are shown where.
 */

const LABELS: Record<string, string> = {
  wager: 'Wager',
  status: 'Status',
  ended: 'How it ended',
  found: 'What is there',
  owner: 'Owner program',
  paytable: 'Paytable',
  paytableAddress: 'Paytable account',
  stake: 'Stake',
  maxPayout: 'Most it can pay',
  beneficiary: 'Beneficiary (USDC account)',
  stakeOwner: 'Stake owner',
  app: 'App (integrator authority)',
  payer: 'Payer (rent and prefund)',
  nonce: 'Nonce',
  openSlot: 'Opened at slot',
  expirySlot: 'Expires at slot',
  currentSlot: 'Current slot',
  oracleRequest: 'Oracle request account',
  seed: 'Seed',
  randomness: 'Randomness',
  randomnessHex: 'Randomness (hex)',
  fulfilmentAuthority: 'Fulfilment authority',
  randomnessVerified: 'Randomness verified',
  verdict: 'Verdict',
  draw: 'The draw',
  drawnBucket: 'Drawn bucket',
  bucket: 'Bucket paid',
  payout: 'Payout',
  payoutDue: 'Payout due',
  payoutTo: 'Payout went to',
  payoutRoute: 'How it was paid',
  parkedPayout: 'Parked payout',
  verifyWith: 'Check it offline',
  deliveredBy: 'Delivered by (claim transaction)',
  openTime: 'Opened at',
  requestTime: 'Requested at',
  fulfilTime: 'Fulfilled at',
  settleTime: 'Settled at',
  expireTime: 'Expired at',
  claimTime: 'Claimed at',
};

/** "someFieldName" → "Some field name": a label for a field this list does not know yet. */
const words = (key: string) => {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

export const labelOf = (key: string): string => LABELS[key] ?? words(key);

/** Fields that are USDC amounts (the inspection writes them as plain decimals). */
export const USDC_FIELDS = new Set(['stake', 'maxPayout', 'payout', 'payoutDue']);

/** Fields the randomness proof shows (not repeated in the wager's facts). */
export const PROOF_FIELDS = new Set([
  'seed',
  'randomness',
  'randomnessHex',
  'fulfilmentAuthority',
  'randomnessVerified',
  'verdict',
  'draw',
  'verifyWith',
  'oracleRequest',
]);

/** A wager's steps, in order: the report's slot, signature, cranker and fee fields of each. */
export const STEPS = [
  { step: 'open', label: 'Opened', fee: null },
  { step: 'request', label: 'Randomness requested', fee: 'requestFeeLamports' },
  { step: 'fulfil', label: 'Randomness fulfilled (by the oracle)', fee: null },
  { step: 'settle', label: 'Settled', fee: 'settleFeeLamports' },
  { step: 'expire', label: 'Expired', fee: 'expireFeeLamports' },
  { step: 'claim', label: 'Payout claimed (claim_payout)', fee: null },
] as const;

/** Fields the steps table shows (not repeated in the wager's facts); the open, expiry and current slots stay there. */
export const STEP_FIELDS = new Set([
  ...STEPS.flatMap(({ step, fee }) => [`${step}Signature`, `${step}Cranker`, ...(fee ? [fee] : [])]),
  'requestSlot',
  'fulfilSlot',
  'settleSlot',
  'expireSlot',
  'claimSlot',
  'deliveredBy',
  ...STEPS.map(({ step }) => `${step}Time`),
]);

/** Hex fields: copyable, but not addresses (no Explorer link). */
export const HEX_FIELDS = new Set(['seed', 'randomnessHex']);

/** Looks like an address or signature (base58, no spaces). */
export const isBase58 = (value: unknown): value is string =>
  typeof value === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32,88}$/.test(value);

/** "in 12 s" / "3 min ago" for a slot, from the current slot and the measured slot pace. */
export function slotWhen(
  slot: number,
  currentSlot: number | null,
  msPerSlot: number,
  formatDuration: (ms: number) => string,
): string | null {
  if (currentSlot === null) return null;
  const delta = currentSlot - slot;
  return delta >= 0 ? `${formatDuration(delta * msPerSlot)} ago` : `in ${formatDuration(-delta * msPerSlot)}`;
}

/** The link that opens the Inspector on `wager` in this console (the token is not in it: it is this run's secret). */
export const inspectorLink = (origin: string, pathname: string, wager: string): string =>
  `${origin}${pathname}#/inspector?wager=${wager}`;

/** A signed change in SOL, every lamport: "+0.000005000 SOL", "-0.002039280 SOL", or "no change". */
export function signedSol(lamports: string, formatSolExact: (lamports: bigint) => string): string {
  const value = BigInt(lamports);
  if (value === 0n) return 'no change';
  return `${value > 0n ? '+' : ''}${formatSolExact(value)}`;
}

/** A signed change in USDC: "+1.96 USDC", "-1.00 USDC"; null (not a USDC account) → "—". */
export function signedUsdc(units: string | null, formatUsdc: (base: string) => string): string {
  if (units === null) return '—';
  const value = BigInt(units);
  const sign = value > 0n ? '+' : value < 0n ? '-' : '';
  return `${sign}${formatUsdc((value < 0n ? -value : value).toString())}`;
}
