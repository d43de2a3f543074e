/**
 * A safety net for request_randomness when the oracle raised its fee after a wager was opened.
 *
 * open_wager prefunds the wager's fee account (a system-owned PDA) with
 * `request_fee + max(settle_fee, expire_fee) + oracle fee + rent(oracle_request_size) + rent(0)`, the
 * oracle fee read from its NetworkState at the open. If the oracle operator raises the fee before the
 * request, the fee account cannot pay `request_v2`, every request fails, and the wager expires: the
 * player forfeits the stake. The fee account is system-owned, so anyone may send lamports into it: the
 * caller of request_randomness adds the shortfall with a System transfer in the same transaction. What
 * is not spent goes back to the wager's payer at settle or expiry, as the program does with the prefund.
 */
import {
  getBase64Encoder,
  type Address,
  type GetMinimumBalanceForRentExemptionApi,
  type GetMultipleAccountsApi,
  type Instruction,
  type Rpc,
  type TransactionSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import type { Config } from '../generated/wager';

/** Bytes the oracle allocates for a randomness request (RandomnessV2); its rent is paid by the request. */
export const ORACLE_REQUEST_ACCOUNT_SIZE = 137n;
/** NetworkState `request_fee`, u64 LE lamports (ORAO's layout; the wager program reads the same bytes). */
export const NETWORK_STATE_REQUEST_FEE_OFFSET = 72;

/** The config fields the computation uses: the fees request_randomness and what follows it pay. */
export type FeeAccountConfig = Pick<Config, 'requestFee' | 'settleFee' | 'expireFee' | 'oracleRequestSize'>;

export interface FeeAccountNeeds {
  /** The fee account's lamports now. */
  balance: bigint;
  /** The oracle's current request fee (0 when the request account is already the oracle's: no CPI). */
  oracleFee: bigint;
  /** Rent the oracle request account still needs (0 when it is already the oracle's). */
  oracleRequestRent: bigint;
  /** `Config.request_fee`, paid to the caller. */
  requestFee: bigint;
  /** What must stay: max(settle_fee, expire_fee) + the fee account's own rent-exempt minimum (0 bytes). */
  remain: bigint;
  /** oracleFee + oracleRequestRent + requestFee + remain. */
  required: bigint;
  /** required - balance when positive, else 0. */
  shortfall: bigint;
}

/** What request_randomness will take from the fee account and leave in it, and how far short `balance` is. */
export function feeAccountNeeds(input: {
  balance: bigint;
  oracleFee: bigint;
  oracleRequestRent: bigint;
  feeAccountRent: bigint;
  config: Pick<FeeAccountConfig, 'requestFee' | 'settleFee' | 'expireFee'>;
}): FeeAccountNeeds {
  const { config } = input;
  const remain =
    (config.settleFee > config.expireFee ? config.settleFee : config.expireFee) + input.feeAccountRent;
  const required = input.oracleFee + input.oracleRequestRent + config.requestFee + remain;
  const shortfall = required > input.balance ? required - input.balance : 0n;
  return {
    balance: input.balance,
    oracleFee: input.oracleFee,
    oracleRequestRent: input.oracleRequestRent,
    requestFee: config.requestFee,
    remain,
    required,
    shortfall,
  };
}

export interface FeeAccountTopUp {
  /** System transfer of exactly `needs.shortfall` lamports from the caller to the fee account. */
  instruction: Instruction;
  lamports: bigint;
  feeAccount: Address;
  needs: FeeAccountNeeds;
}

export interface FeeAccountTopUpInput {
  rpc: Rpc<GetMultipleAccountsApi & GetMinimumBalanceForRentExemptionApi>;
  config: FeeAccountConfig;
  /** Pays the top-up (the caller of request_randomness). */
  payer: TransactionSigner;
  /** `Wager.fee_account`. */
  feeAccount: Address;
  oracle: { programAddress: Address; networkState: Address };
  /** The oracle request PDA of the wager's seed. */
  oracleRequest: Address;
}

/** Rent-exempt minimums never change on a cluster: ask each RPC once per size (a request is a hot path). */
const rentMinimums = new WeakMap<object, Map<bigint, Promise<bigint>>>();
function rentMinimum(rpc: Rpc<GetMinimumBalanceForRentExemptionApi>, size: bigint): Promise<bigint> {
  let bySize = rentMinimums.get(rpc);
  if (!bySize) rentMinimums.set(rpc, (bySize = new Map()));
  let minimum = bySize.get(size);
  if (!minimum) {
    minimum = rpc
      .getMinimumBalanceForRentExemption(size, { commitment: 'confirmed' })
      .send()
      .then((lamports) => BigInt(lamports));
    minimum.catch(() => bySize.delete(size)); // a failed read is asked again next time
    bySize.set(size, minimum);
  }
  return minimum;
}

/**
 * Reads the fee account, the oracle's NetworkState and the request PDA (one getMultipleAccounts) and the
 * two rent minimums (cached), and returns the top-up request_randomness needs, or null when the balance suffices.
 *
 * Spending mirrors request_randomness and the oracle's request_v2: when the request PDA is already an
 * account of the oracle (someone requested the seed first), the program takes it without the CPI and the
 * oracle is paid nothing; otherwise the oracle takes its fee plus the request rent the PDA does not hold
 * yet. The request account's size is the larger of the oracle's 137 bytes and `Config.oracle_request_size`.
 */
export async function getFeeAccountTopUp(input: FeeAccountTopUpInput): Promise<FeeAccountTopUp | null> {
  const { rpc, config } = input;
  const requestSize =
    config.oracleRequestSize > ORACLE_REQUEST_ACCOUNT_SIZE
      ? config.oracleRequestSize
      : ORACLE_REQUEST_ACCOUNT_SIZE;
  const [accounts, requestRent, feeAccountRent] = await Promise.all([
    rpc
      .getMultipleAccounts([input.feeAccount, input.oracle.networkState, input.oracleRequest], {
        encoding: 'base64',
        commitment: 'confirmed',
      })
      .send(),
    rentMinimum(rpc, requestSize),
    rentMinimum(rpc, 0n),
  ]);
  const [fees = null, network = null, request = null] = accounts.value;
  if (!network) throw new Error(`the oracle's network state ${input.oracle.networkState} does not exist`);
  const networkBytes = getBase64Encoder().encode(network.data[0]);
  if (networkBytes.length < NETWORK_STATE_REQUEST_FEE_OFFSET + 8)
    throw new Error(`the oracle's network state ${input.oracle.networkState} is too short`);
  const currentFee = new DataView(
    networkBytes.buffer,
    networkBytes.byteOffset,
    networkBytes.byteLength,
  ).getBigUint64(NETWORK_STATE_REQUEST_FEE_OFFSET, true);

  const alreadyRequested = request !== null && request.owner === input.oracle.programAddress;
  const requestLamports = request ? BigInt(request.lamports) : 0n;
  const needs = feeAccountNeeds({
    balance: fees ? BigInt(fees.lamports) : 0n,
    oracleFee: alreadyRequested ? 0n : currentFee,
    oracleRequestRent:
      alreadyRequested || requestLamports >= requestRent ? 0n : BigInt(requestRent) - requestLamports,
    feeAccountRent: BigInt(feeAccountRent),
    config,
  });
  if (needs.shortfall === 0n) return null;
  return {
    instruction: getTransferSolInstruction({
      source: input.payer,
      destination: input.feeAccount,
      amount: needs.shortfall,
    }),
    lamports: needs.shortfall,
    feeAccount: input.feeAccount,
    needs,
  };
}
