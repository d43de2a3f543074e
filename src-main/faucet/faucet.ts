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
 * Refusal statuses (the spec leaves them open):
 * - 429 when the wallet or the IP address claimed less than 5 minutes ago (retry at that claim + 5 min);
 * - 503 when the global daily limit is used up (retry at the next 00:00 UTC);
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
import { formatUnits } from '../protocol/units';
import type { Database } from '../store/database';
import { createFaucetLedger, DAY_MS, type FaucetRefusal } from '../store/faucet-ledger';
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

export const FAUCET_ERRORS = {
  wallet: 'this wallet already claimed in the last 5 minutes',
  ip: 'this IP address already claimed in the last 5 minutes',
  daily: "the faucet's daily limit is used up",
  sendFailed: 'faucet transaction failed',
  chainUnreadable: 'faucet cannot read the chain',
} as const;

const REFUSAL_STATUS = { wallet: 429, ip: 429, daily: 503 } as const;

const SOL_DECIMALS = 9;

/**
 * Lamports as a decimal SOL amount, the claim result's `sol` (spec 2.4: "SOL amount sent"): no trailing
 * zeros, no decimal point for whole amounts.
 * @example formatSol(10_000_000n) // "0.01"; formatSol(0n) // "0"; formatSol(1_500_000_000n) // "1.5"
 */
export const formatSol = (lamports: bigint): string => formatUnits(lamports, SOL_DECIMALS);

/**
 * Sends `instructions` in one transaction (every signer is embedded in the instructions' accounts; the
 * sender's own key pays the fee) and resolves with the signature once confirmed. The keeper's
 * transaction sender is one.
 */
export type SendInstructions = (instructions: readonly Instruction[]) => Promise<string>;

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
  const ledger = createFaucetLedger(options.db, {
    perDay,
    claimIntervalMs: CLAIM_INTERVAL_MS,
    solIntervalMs: SOL_TOP_UP_INTERVAL_MS,
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
      // Early answer without touching the chain; the binding decision is the reservation below.
      const early = ledger.refusal(owner, ip, now());
      if (early) return refused(early);

      let balance: bigint;
      try {
        balance = (await options.rpc.getBalance(owner, { commitment: 'confirmed' }).send()).value;
      } catch (error) {
        onError(`cannot read the balance of ${owner}`, error);
        return { ok: false, status: 502, error: FAUCET_ERRORS.chainUnreadable, retryAt: now() };
      }

      const reservation = ledger.reserve({
        owner,
        ip,
        atMs: now(),
        usdc: grantUsdc,
        solIfAllowed: balance < solThreshold ? solTopUp : 0n,
      });
      if (!reservation.ok) return refused(reservation);

      try {
        const [token] = await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
        const instructions = [
          await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint, owner }),
          getMintToInstruction({ mint, token, mintAuthority, amount: grantUsdc }),
          ...(reservation.sol > 0n
            ? [getTransferSolInstruction({ source: payer, destination: owner, amount: reservation.sol })]
            : []),
        ];
        const signature = await options.sendTransaction(instructions);
        ledger.confirm(reservation.id, signature);
        return { ok: true, signature, usdc: grantUsdc.toString(), sol: formatSol(reservation.sol) };
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
