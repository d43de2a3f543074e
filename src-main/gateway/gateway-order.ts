/**
 * What a caller asks the gateway for (`POST /wager` JSON `{ paytable, amount, beneficiary }`), checked
 * before anything is priced: a paytable this gateway offers, an amount in two-decimal USDC form within its
 * limits, and a beneficiary that is an address. Every refusal names what to fix.
 */
import { address, isAddress, type Address } from '@solana/kit';
import { formatUsdcAmount, parseUsdcAmount } from '../protocol/usdc-amount';

export interface OfferedPaytable {
  name: string;
  address: Address;
  buckets: { weight: number; multiplierBps: number }[];
}

export interface GatewayLimits {
  /** USDC base units. */
  minStake: bigint;
  maxStake: bigint;
  /** The gateway's service fee per wager, USDC base units (0: none). */
  fee: bigint;
}

export interface WagerOrder {
  paytable: OfferedPaytable;
  /** USDC base units. */
  stake: bigint;
  /** A wallet or a USDC token account, as `open --beneficiary` takes. */
  beneficiary: Address;
  /** What the caller pays: the stake plus the gateway's fee (USDC base units). */
  price: bigint;
}

export class OrderRefusal extends Error {
  constructor(
    readonly status: 400 | 409 | 503,
    message: string,
    /** More JSON fields for the answer, e.g. a program refusal's stable `code`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;

/** The order in `body`, or an OrderRefusal (400) saying what is wrong with it. */
export function parseWagerOrder(body: unknown, offered: ReadonlyMap<string, OfferedPaytable>, limits: GatewayLimits): WagerOrder {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OrderRefusal(400, 'the body must be a JSON object { "paytable": NAME, "amount": "1.00", "beneficiary": ADDRESS }');
  const { paytable, amount, beneficiary } = body as Record<string, unknown>;
  if (typeof paytable !== 'string' || !offered.has(paytable))
    throw new OrderRefusal(400, `unknown paytable ${JSON.stringify(paytable ?? null)}: this gateway offers ${[...offered.keys()].join(', ')} (GET /paytables)`);
  if (typeof amount !== 'string' || !TWO_DECIMALS.test(amount.trim()))
    throw new OrderRefusal(400, `bad amount ${JSON.stringify(amount ?? null)}: give USDC as a string with at most two decimals, like "1.00"`);
  let stake: bigint;
  try {
    stake = parseUsdcAmount(amount);
  } catch (error) {
    throw new OrderRefusal(400, `bad amount: ${(error as Error).message}`);
  }
  if (stake < limits.minStake || stake > limits.maxStake)
    throw new OrderRefusal(400, `bad amount ${amount}: this gateway takes ${formatUsdcAmount(limits.minStake)} to ${formatUsdcAmount(limits.maxStake)} USDC`);
  if (typeof beneficiary !== 'string' || !isAddress(beneficiary.trim()))
    throw new OrderRefusal(400, `bad beneficiary ${JSON.stringify(beneficiary ?? null)}: give the Solana address of a wallet or of its USDC token account`);
  return { paytable: offered.get(paytable)!, stake, beneficiary: address(beneficiary.trim()), price: stake + limits.fee };
}
