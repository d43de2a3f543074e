/**
 * The test-network faucet (spec 2.4, 4.1 rule 2, 8): 1 000 test USDC per claim, minted to the owner's
 * associated token account (created when missing), plus 0.01 SOL when the wallet holds less than
 * 0.005 SOL, at most once a day per wallet. A successful claim reports `sol` as decimal SOL ("0.01", or
 * "0" when none was sent); the ledger keeps lamports. One claim per wallet and one per IP every 5 minutes, and a
 * global limit of `perDay` claims per UTC day.
 *
 * A claim is decided by ONE SQLite IMMEDIATE transaction that checks the limits and inserts a reservation
 * row before anything is sent (see store/faucet-ledger.ts); concurrent claims therefore never exceed a
 * limit. If sending fails the reservation is deleted, so a failure does not cost the user a slot.
 *
 * The faucet spends the keeper's own SOL (the top-up, the token account's rent, the fee: about 0.012 SOL a
 * claim), so it has a daily SOL budget (`solPerDayLamports`, 0.5 SOL by default, counted from what each
 * claim cost) and pauses while the keeper's balance, less what the claim would cost, is under its floor
 * (the larger of its sweep reserve and its balance warning): the keeper must keep SOL to crank (issue 33).
 *
 * Refusal statuses (the spec leaves them open):
 * - 429 when the wallet or the IP address claimed less than 5 minutes ago (retry at that claim + 5 min);
 * - 503 when the global daily limit or the daily SOL budget is used up (retry at the next 00:00 UTC);
 * - 503 when the keeper's SOL is below its floor (retry in 10 minutes);
 * - 502 `faucet transaction failed` when the transaction failed (nothing was reserved; retry at once);
 * - 502 `faucet cannot read the chain` when the wallet's balance could not be read (retry at once).
 * When several limits refuse, the one that lifts last is reported, so `retryAt` is when a claim would be
 * allowed.
 */
import type { Address, GetBalanceApi, Instruction, KeyPairSigner, Rpc } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { LAMPORTS_PER_SIGNATURE } from '../chain/fees';
import { DAY_MS, formatSolDecimal } from '../../src-shared/units';
import { DEFAULT_KEEPER_FLOOR_LAMPORTS } from './keeper-floor';
import type { Database } from '../store/database';
import { createFaucetLedger, type FaucetRefusal } from '../store/faucet-ledger';
import type { FaucetClaimResult, FaucetService } from './faucet-service';

/** Default global limit: 500 claims per UTC day (500 000 test USDC). */
export const DEFAULT_FAUCET_PER_DAY = 500;
/** 1 000 test USDC (6 decimals). */
export const DEFAULT_GRANT_USDC = 1_000_000_000n;
/** 0.01 SOL. */
export const DEFAULT_SOL_TOP_UP = 10_000_000n;
/** A wallet holding less than 0.005 SOL gets the top-up. */
export const DEFAULT_SOL_THRESHOLD = 5_000_000n;
/** One claim per wallet and per IP within 5 minutes. */
export const CLAIM_INTERVAL_MS = 5 * 60_000;
/** At most one SOL top-up per wallet within 24 hours ("once a day", a rolling day). */
export const SOL_TOP_UP_INTERVAL_MS = DAY_MS;
/** What the claims of one UTC day may cost the keeper's key by default: 0.5 SOL (about 40 claims with a top-up). */
export const DEFAULT_FAUCET_SOL_PER_DAY = 500_000_000n;
/** Rent of the token account a claim creates for a wallet that has none (165 bytes). */
export const TOKEN_ACCOUNT_RENT_LAMPORTS = 2_039_280n;
/** The fee counted for a claim before it is sent (two signatures and room for a priority fee); replaced by the real fee. */
export const CLAIM_FEE_ALLOWANCE_LAMPORTS = 100_000n;
/** How long a claim refused for the keeper's low balance is told to wait. */
export const LOW_BALANCE_RETRY_MS = 10 * 60_000;

export const FAUCET_ERRORS = {
  wallet: 'this wallet already claimed in the last 5 minutes',
  ip: 'this IP address already claimed in the last 5 minutes',
  daily: "the faucet's daily limit is used up",
  budget: "the faucet's SOL budget for today is used up (it spends the keeper's SOL): try again after 00:00 UTC",
  keeperLow: "the keeper's SOL is below its warning line; the faucet pauses so the keeper can crank: try again later",
  sendFailed: 'faucet transaction failed',
  chainUnreadable: 'faucet cannot read the chain',
} as const;

const REFUSAL_STATUS = { wallet: 429, ip: 429, daily: 503, budget: 503 } as const;

/**
 * Sends `instructions` in one transaction (every signer is embedded in the instructions' accounts; the
 * sender's own key pays the fee) and resolves with the signature once confirmed, with the fee it paid
 * when known (the claim's cost is then exact). The keeper's transaction sender is one.
 */
export type SendInstructions = (
  instructions: readonly Instruction[],
) => Promise<string | { signature: string; feeLamports?: bigint }>;

export interface FaucetOptions {
  rpc: Rpc<GetBalanceApi>;
  mint: Address;
  mintAuthority: KeyPairSigner;
  /** Pays the fees, the associated token account rent and the SOL top-up. */
  payer: KeyPairSigner;
  db: Database;
  now?: () => number;
  perDay?: number;
  grantUsdc?: bigint;
  solTopUp?: bigint;
  solThreshold?: bigint;
  /** Sends one transaction paid by `payer` (the keeper's sender with the keeper's key). */
  sendTransaction: SendInstructions;
  /** Lamports the claims of one UTC day may cost `payer` (default DEFAULT_FAUCET_SOL_PER_DAY). */
  solPerDayLamports?: bigint;
  /**
   * The balance `payer` keeps for cranking, read at each claim: no claim that would leave less (default
   * DEFAULT_KEEPER_FLOOR_LAMPORTS; the keeper passes the larger of its sweep reserve and balance warning).
   */
  keeperFloorLamports?: () => bigint;
  /** Where failures are reported for the operator (default: console.error). Never shown to the claimant. */
  onError?: (message: string, error: unknown) => void;
}

export function createFaucet(options: FaucetOptions): FaucetService {
  const now = options.now ?? Date.now;
  const perDay = options.perDay ?? DEFAULT_FAUCET_PER_DAY;
  const grantUsdc = options.grantUsdc ?? DEFAULT_GRANT_USDC;
  const solTopUp = options.solTopUp ?? DEFAULT_SOL_TOP_UP;
  const solThreshold = options.solThreshold ?? DEFAULT_SOL_THRESHOLD;
  const onError = options.onError ?? ((message, error) => console.error(`faucet: ${message}:`, error));
  if (!Number.isInteger(perDay) || perDay < 0) throw new Error('perDay must be a non-negative integer');
  const solPerDayLamports = options.solPerDayLamports ?? DEFAULT_FAUCET_SOL_PER_DAY;
  if (solPerDayLamports < 0n) throw new Error('solPerDayLamports must not be negative');
  const keeperFloor = options.keeperFloorLamports ?? (() => DEFAULT_KEEPER_FLOOR_LAMPORTS);
  const ledger = createFaucetLedger(options.db, {
    perDay,
    claimIntervalMs: CLAIM_INTERVAL_MS,
    solIntervalMs: SOL_TOP_UP_INTERVAL_MS,
    solPerDayLamports,
    legacyOverheadLamports: TOKEN_ACCOUNT_RENT_LAMPORTS + CLAIM_FEE_ALLOWANCE_LAMPORTS,
  });
  const { payer, mintAuthority, mint } = options;

  const refused = (refusal: FaucetRefusal): FaucetClaimResult => ({
    ok: false,
    status: REFUSAL_STATUS[refusal.reason],
    error: FAUCET_ERRORS[refusal.reason],
    retryAt: refusal.retryAt,
  });

  return {
    status: () => ({
      usdc: grantUsdc.toString(),
      perDay,
      remainingToday: Math.max(0, perDay - ledger.claimsOnDay(now())),
    }),

    async claim(owner, ip) {
      // Early answer without touching the chain (the least a claim costs: its fee); the binding decision is the reservation below.
      const early = ledger.refusal(owner, ip, now(), CLAIM_FEE_ALLOWANCE_LAMPORTS);
      if (early) return refused(early);

      let balance: bigint;
      let keeperBalance: bigint;
      let hasTokenAccount: boolean;
      let token: Address;
      try {
        [token] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
        const balanceOf = async (of: Address) => (await options.rpc.getBalance(of, { commitment: 'confirmed' }).send()).value;
        // A token account that does not exist holds no lamports: the claim then pays its rent.
        [balance, keeperBalance, hasTokenAccount] = await Promise.all([
          balanceOf(owner),
          balanceOf(payer.address),
          balanceOf(token).then((lamports) => lamports > 0n),
        ]);
      } catch (error) {
        onError(`cannot read the balance of ${owner}`, error);
        return { ok: false, status: 502, error: FAUCET_ERRORS.chainUnreadable, retryAt: now() };
      }

      const solIfAllowed = balance < solThreshold ? solTopUp : 0n;
      const overheadLamports = (hasTokenAccount ? 0n : TOKEN_ACCOUNT_RENT_LAMPORTS) + CLAIM_FEE_ALLOWANCE_LAMPORTS;
      // The keeper's balance less the claims being sent and this one must stay above its floor.
      const floor = keeperFloor();
      // Not logged per claim: the balance alert already tells the operator, and a crowd would flood the log.
      if (keeperBalance - ledger.reservedCost() - solIfAllowed - overheadLamports < floor)
        return { ok: false, status: 503, error: FAUCET_ERRORS.keeperLow, retryAt: now() + LOW_BALANCE_RETRY_MS };

      const reservation = ledger.reserve({
        owner,
        ip,
        atMs: now(),
        usdc: grantUsdc,
        solIfAllowed,
        overheadLamports,
      });
      if (!reservation.ok) return refused(reservation);

      try {
        const instructions = [
          await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint, owner }),
          getMintToInstruction({ mint, token, mintAuthority, amount: grantUsdc }),
          ...(reservation.sol > 0n
            ? [getTransferSolInstruction({ source: payer, destination: owner, amount: reservation.sol })]
            : []),
        ];
        const sent = await options.sendTransaction(instructions);
        const { signature, feeLamports } = typeof sent === 'string' ? { signature: sent, feeLamports: undefined } : sent;
        // The real cost once the fee is known: the top-up, the rent if the account was created, the fee (the
        // sender's counts one signature; the mint authority's is a second one unless it is the payer).
        const secondSignature = mintAuthority.address === payer.address ? 0n : LAMPORTS_PER_SIGNATURE;
        ledger.confirm(
          reservation.id,
          signature,
          feeLamports === undefined
            ? undefined
            : reservation.sol + (hasTokenAccount ? 0n : TOKEN_ACCOUNT_RENT_LAMPORTS) + feeLamports + secondSignature,
        );
        // spec 2.4's `sol`, the SOL amount sent: a bare decimal ("0.01", "1.5", "0").
        return { ok: true, signature, usdc: grantUsdc.toString(), sol: formatSolDecimal(reservation.sol) };
      } catch (error) {
        // Give the slot back. (If the transaction landed after all, e.g. a confirmation timeout, the
        // wallet may claim again early: the safe side for a test faucet.)
        ledger.release(reservation.id);
        onError(`claim for ${owner} failed`, error);
        return { ok: false, status: 502, error: FAUCET_ERRORS.sendFailed, retryAt: now() };
      }
    },
  };
}
