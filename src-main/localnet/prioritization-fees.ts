/**
 * What getRecentPrioritizationFees answers, as Agave computes it (runtime/src/prioritization_fee.rs and
 * prioritization_fee_cache.rs, PrioritizationFeeCache::get_prioritization_fees): each slot keeps the lowest
 * compute-unit price of its transactions (the block's minimum) and the lowest of those writing each
 * account; asked for some accounts, a slot answers its block minimum raised to the highest of those
 * accounts' minimums (an account no transaction of the slot wrote adds nothing). So a keeper asking for
 * the accounts its crank writes sees what it took to write them, not what the cheapest transfer paid.
 * Vote transactions are left out (Agave does not prioritise them), and so is one with a compute-unit
 * limit of 0 (its price says nothing). Pure: the local chain keeps the map and passes the slots.
 */

export interface SlotPrioritizationFees {
  /** The lowest compute-unit price (micro-lamports per CU) of the slot's transactions. */
  blockMinimum: bigint;
  /** The lowest compute-unit price of the slot's transactions writing each account. */
  writableMinimums: Map<string, bigint>;
}

const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';

/**
 * Agave's is_simple_vote_transaction, near enough for the localnet: at most two signatures and nothing but
 * the Vote program invoked.
 */
export function isSimpleVoteTransaction(signatures: number, invokedPrograms: readonly string[]): boolean {
  return signatures <= 2 && invokedPrograms.length === 1 && invokedPrograms[0] === VOTE_PROGRAM;
}

/** Books one transaction's compute-unit price in its slot (PrioritizationFee::update). */
export function addPrioritizationFee(
  slots: Map<bigint, SlotPrioritizationFees>,
  slot: bigint,
  computeUnitPrice: bigint,
  writable: readonly string[],
): void {
  let fees = slots.get(slot);
  if (!fees) slots.set(slot, (fees = { blockMinimum: computeUnitPrice, writableMinimums: new Map() }));
  if (computeUnitPrice < fees.blockMinimum) fees.blockMinimum = computeUnitPrice;
  for (const account of writable) {
    const lowest = fees.writableMinimums.get(account);
    if (lowest === undefined || computeUnitPrice < lowest)
      fees.writableMinimums.set(account, computeUnitPrice);
  }
}

/**
 * Slots `first`..`last`, oldest first, each with max(block minimum, the minimums of `accounts` written in
 * it) (get_prioritization_fees); a slot without a transaction answers 0.
 */
export function recentPrioritizationFeesOf(
  slots: ReadonlyMap<bigint, SlotPrioritizationFees>,
  first: bigint,
  last: bigint,
  accounts: readonly string[],
): { slot: bigint; prioritizationFee: bigint }[] {
  const answer = [];
  for (let slot = first; slot <= last; slot++) {
    const fees = slots.get(slot);
    let fee = fees?.blockMinimum ?? 0n;
    for (const account of accounts) {
      const accountFee = fees?.writableMinimums.get(account);
      if (accountFee !== undefined && accountFee > fee) fee = accountFee;
    }
    answer.push({ slot, prioritizationFee: fee });
  }
  return answer;
}
