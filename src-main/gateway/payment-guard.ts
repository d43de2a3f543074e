/**
 * What the gateway accepts in a payment transaction, since it is the fee payer of every payment: the SVM
 * "exact" scheme's own caps (compute-unit limit, compute-unit price, signer count: the library's options),
 * and, where the library has no option, the gateway's own check run before the library's: only
 * compute-budget (unit limit, unit price), one Token / Token-2022 `transferChecked` and Memo instructions,
 * no address lookup tables. The library lets Lighthouse assertions through; here they are refused, like any
 * other program, before anything is signed or broadcast. A refusal is a 402 naming why (docs/gateway.md).
 */
import {
  decompileTransactionMessage,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  verifySignature,
  type Address,
  type SignatureBytes,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { FacilitatorContext, Network, PaymentPayload, PaymentRequirements, SchemeNetworkFacilitator, SettleResponse, VerifyResponse } from '@x402/core/types';

/**
 * The most compute units a payment may ask for. An honest x402 client (@x402/svm's) asks 20,000 (its
 * transferChecked, Memo and compute budget use 692 on our localnet, about 6,500 with mainnet's SPL Token
 * program): the cap is twice that ask. The gateway pays for the units asked, not the units used.
 */
export const MAX_PAYMENT_COMPUTE_UNITS = 40_000;
/** The highest compute-unit price a payment may set (µlamports per unit); the library's own cap is 5,000,000. */
export const MAX_PAYMENT_PRICE_MICROLAMPORTS = 50_000;
/** The payer and the gateway: every signature costs the fee payer 5,000 lamports. */
export const MAX_PAYMENT_SIGNERS = 2;

export const TOKEN_2022_PROGRAM_ADDRESS = 'TokenzQdBNbLqP5VEhdkAS6EPFLC3sKCZvJgx8R2Ph2M' as Address;
export const MEMO_PROGRAM_ADDRESS = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;
const LIGHTHOUSE_PROGRAM_ADDRESS = 'L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95';

/** Compute budget: SetComputeUnitLimit (2) and SetComputeUnitPrice (3); the token programs' TransferChecked (12). */
const COMPUTE_UNIT_LIMIT = 2;
const COMPUTE_UNIT_PRICE = 3;
const TRANSFER_CHECKED = 12;

/** The gateway's own refusal codes (the library's are `invalid_exact_svm_…`). */
export const ErrInstructionNotAllowed = 'gateway_payment_instruction_not_allowed';
export const ErrLookupTablesNotAllowed = 'gateway_payment_lookup_tables_not_allowed';
export const ErrPaymentUndecodable = 'gateway_payment_undecodable';

const CAPS = `a payment is one USDC transferChecked with compute-budget and Memo instructions only, at most ${MAX_PAYMENT_COMPUTE_UNITS.toLocaleString('en-US')} compute units at ${MAX_PAYMENT_PRICE_MICROLAMPORTS.toLocaleString('en-US')} µlamports per unit, signed by its payer and the gateway`;

/** Why a payment was refused, in words, from the reason code x402 carries (`code` or `code: detail`). */
export function paymentRefusalSentence(reason: string): string {
  const [code = '', ...rest] = reason.split(': ');
  const detail = rest.join(': ');
  const words: Record<string, string> = {
    [ErrInstructionNotAllowed]: `it has an instruction the gateway does not accept (${detail}): ${CAPS}`,
    [ErrLookupTablesNotAllowed]: `it uses address lookup tables, which the gateway does not accept: ${CAPS}`,
    [ErrPaymentUndecodable]: 'its transaction does not decode as a Solana transaction',
    invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high: `it asks for more compute units than the gateway pays for: ${CAPS}`,
    invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high: `its compute-unit price is above what the gateway pays: ${CAPS}`,
    invalid_exact_svm_payload_excessive_signers: `it needs more signatures than the payer's and the gateway's: ${CAPS}`,
    invalid_exact_svm_payload_amount_mismatch: 'it pays another amount than the price',
    invalid_exact_svm_payload_mint_mismatch: 'it pays in another token than the asked USDC',
    invalid_exact_svm_payload_recipient_mismatch: "it pays another account than the gateway's USDC account",
    invalid_exact_svm_transaction_failed: "the chain's preflight refused it (an expired blockhash, or the payer's USDC short)",
  };
  return words[code] ?? reason;
}

/** The payment's transaction, decoded: its signatures, message and instructions (null: not decodable). */
function decodePayment(transactionBase64: string) {
  try {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(transactionBase64));
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    return { transaction, compiled };
  } catch {
    return null;
  }
}

/**
 * The reason (`code: detail`) this payment transaction is refused by the gateway's own rules, or undefined
 * when they accept it (the library's checks then run: layout, caps, asset, amount, recipient, signatures).
 */
export function refusePaymentInstructions(transactionBase64: string): string | undefined {
  const decoded = decodePayment(transactionBase64);
  if (!decoded) return ErrPaymentUndecodable;
  const lookups = (decoded.compiled as { addressTableLookups?: readonly unknown[] }).addressTableLookups ?? [];
  if (lookups.length > 0) return ErrLookupTablesNotAllowed;
  let instructions;
  try {
    instructions = decompileTransactionMessage(decoded.compiled).instructions;
  } catch {
    return ErrPaymentUndecodable;
  }
  let transfers = 0;
  for (const [index, instruction] of instructions.entries()) {
    const program = instruction.programAddress;
    const kind = instruction.data?.[0];
    const position = `instruction ${index + 1}`;
    if (program === COMPUTE_BUDGET_PROGRAM_ADDRESS) {
      if (kind !== COMPUTE_UNIT_LIMIT && kind !== COMPUTE_UNIT_PRICE) return `${ErrInstructionNotAllowed}: ${position} is a compute-budget instruction other than the unit limit and price`;
      continue;
    }
    if (program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS) {
      if (kind !== TRANSFER_CHECKED) return `${ErrInstructionNotAllowed}: ${position} is a token instruction other than transferChecked`;
      if (++transfers > 1) return `${ErrInstructionNotAllowed}: ${position} is a second transfer`;
      continue;
    }
    if (program === MEMO_PROGRAM_ADDRESS) continue;
    const name = program === LIGHTHOUSE_PROGRAM_ADDRESS ? 'Lighthouse' : 'an unknown program';
    return `${ErrInstructionNotAllowed}: ${position} calls ${program} (${name})`;
  }
  return undefined;
}

/**
 * The payment's payer (the transferChecked's authority), only when its signature on the transaction is
 * valid: a caller cannot spend another address's per-payer allowance by naming it in an unsigned payment.
 */
export async function signedPayerOf(transactionBase64: string): Promise<Address | undefined> {
  const decoded = decodePayment(transactionBase64);
  if (!decoded) return undefined;
  let instructions;
  try {
    instructions = decompileTransactionMessage(decoded.compiled).instructions;
  } catch {
    return undefined;
  }
  const transfer = instructions.find(
    (ix) => (ix.programAddress === TOKEN_PROGRAM_ADDRESS || ix.programAddress === TOKEN_2022_PROGRAM_ADDRESS) && ix.data?.[0] === TRANSFER_CHECKED,
  );
  // transferChecked's accounts: source, mint, destination, authority.
  const payer = transfer?.accounts?.[3]?.address;
  const signature = payer ? decoded.transaction.signatures[payer] : undefined;
  if (!payer || !signature) return undefined;
  try {
    const key = await getPublicKeyFromAddress(payer);
    return (await verifySignature(key, signature as SignatureBytes, decoded.transaction.messageBytes)) ? payer : undefined;
  } catch {
    return undefined;
  }
}

const transactionOf = (payload: PaymentPayload) => (payload.payload as { transaction?: unknown }).transaction;

/**
 * The library's exact scheme (built with the caps) behind the gateway's own check: a payment the check
 * refuses is answered invalid at verification and at settlement, never signed nor sent.
 */
export class GuardedSvmScheme implements SchemeNetworkFacilitator {
  readonly scheme: string;
  readonly caipFamily: string;
  constructor(private readonly inner: SchemeNetworkFacilitator) {
    this.scheme = inner.scheme;
    this.caipFamily = inner.caipFamily;
  }

  getExtra(network: Network) {
    return this.inner.getExtra(network);
  }

  getSigners(network: string) {
    return this.inner.getSigners(network);
  }

  private refusal(payload: PaymentPayload): string | undefined {
    const transaction = transactionOf(payload);
    return typeof transaction === 'string' ? refusePaymentInstructions(transaction) : ErrPaymentUndecodable;
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements, context?: FacilitatorContext): Promise<VerifyResponse> {
    const refused = this.refusal(payload);
    if (refused) return { isValid: false, invalidReason: refused, invalidMessage: paymentRefusalSentence(refused), payer: '' };
    return this.inner.verify(payload, requirements, context);
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements, context?: FacilitatorContext): Promise<SettleResponse> {
    const refused = this.refusal(payload);
    if (refused) return { success: false, errorReason: refused, errorMessage: paymentRefusalSentence(refused), transaction: '', network: requirements.network, payer: '' };
    return this.inner.settle(payload, requirements, context);
  }
}
