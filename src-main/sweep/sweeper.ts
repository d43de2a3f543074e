/**
 * The sweep on chain: reads the keeper's balance, plans (sweep-plan.ts), sends one System Program transfer
 * with the project's sender (simulated by its preflight, resent until confirmed) and books it in the
 * `sweeps` table. The compute-unit limit is fixed, so the fee is known before sending and comes out of
 * what is sent: the keeper is left with exactly the reserve. Every sweep of a key runs under one lock
 * (sweep-lock.ts) and plans inside it, so two never spend the same balance.
 */
import { address, type KeyPairSigner, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { transactionFeeLamports } from '../chain/fees';
import type { SignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender, type TransactionSender } from '../chain/transaction-sender';
import type { BookedSweep, SweepLedger, SweepTrigger } from '../store/sweep-ledger';
import { withSweepLock } from './sweep-lock';
import { planSweep, type SweepPlan } from './sweep-plan';

/** Compute units of a sweep: the limit instruction and one transfer use 300; the limit fixes the fee. */
export const SWEEP_UNIT_LIMIT = 1_000;

export interface SweeperOptions {
  rpc: Rpc<SolanaRpcApi>;
  signer: KeyPairSigner;
  confirmer: SignatureConfirmer;
  /** Micro-lamports per compute unit (the keeper's own priority fee); 0 or absent: none. */
  priorityFeeMicroLamports?: bigint;
  ledger: SweepLedger;
  now?: () => number;
}

export interface Sweeper {
  /** The keeper's balance (confirmed). */
  balance(): Promise<bigint>;
  /** What one sweep's transaction costs. */
  readonly feeLamports: bigint;
  /** What a sweep to `destination` would send now, keeping `reserveLamports` (a SweepRefusal when it cannot). */
  plan(request: {
    destination: string | null;
    reserveLamports: bigint;
    amountLamports?: bigint;
  }): Promise<SweepPlan>;
  /** Sends the plan, waits for its confirmation and books it. */
  send(plan: SweepPlan, trigger: SweepTrigger): Promise<BookedSweep>;
  /**
   * Runs `sweep` under this key's sweep lock (sweep-lock.ts): no other sweep of the key runs meanwhile.
   * Plan inside it, so the plan reads the balance the previous sweep left.
   */
  exclusive<T>(sweep: () => Promise<T>): Promise<T>;
  /** Plans from the balance read now and sends, under the lock: what "Send now" does. */
  sweep(
    request: { destination: string | null; reserveLamports: bigint; amountLamports?: bigint },
    trigger: SweepTrigger,
  ): Promise<BookedSweep>;
}

export function createSweeper(options: SweeperOptions): Sweeper {
  const { rpc, signer, ledger } = options;
  const now = options.now ?? Date.now;
  const priority = options.priorityFeeMicroLamports ?? 0n;
  const sender: TransactionSender = createTransactionSender({
    rpc,
    confirmer: options.confirmer,
    payer: signer,
    priorityFeeMicroLamports: priority,
  });
  const feeLamports = transactionFeeLamports(priority, BigInt(SWEEP_UNIT_LIMIT));
  const balanceOf = async (of: string) =>
    (await rpc.getBalance(address(of), { commitment: 'confirmed' }).send()).value;

  const exclusive = <T>(sweep: () => Promise<T>) => withSweepLock(signer.address, sweep);

  const sweeper: Sweeper = {
    feeLamports,
    balance: () => balanceOf(signer.address),
    exclusive,
    sweep: (request, trigger) =>
      exclusive(async () => sweeper.send(await sweeper.plan(request), trigger)),
    async plan({ destination, reserveLamports, amountLamports }) {
      const balanceLamports = await balanceOf(signer.address);
      // A refusal of the address itself comes before any read of it.
      const draft = {
        keeper: signer.address,
        destination,
        balanceLamports,
        reserveLamports,
        feeLamports,
        ...(amountLamports !== undefined ? { amountLamports } : {}),
      };
      const first = planSweep(draft);
      const destinationExists = (await balanceOf(first.destination)) > 0n;
      return destinationExists ? first : planSweep({ ...draft, destinationExists });
    },
    async send(plan, trigger) {
      const transfer = getTransferSolInstruction({
        source: signer,
        destination: address(plan.destination),
        amount: plan.sendLamports,
      });
      const sent = await sender.send([transfer], { unitLimit: SWEEP_UNIT_LIMIT });
      return ledger.record({
        atMs: now(),
        destination: plan.destination,
        sentLamports: plan.sendLamports,
        feeLamports: sent.feeLamports,
        keptLamports: plan.balanceLamports - plan.sendLamports - sent.feeLamports,
        signature: sent.signature,
        trigger,
      });
    },
  };
  return sweeper;
}
