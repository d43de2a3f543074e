/**
 * The SOL the keeper keeps for cranking, below which its faucet pauses (issue 33): the larger of its
 * sweep reserve (Settings → Earnings or --sweep-keep, else 7 days of fees at the measured spend, at least
 * 0.05 SOL) and its balance warning (Settings → Alerts or --alert-balance-warning, 0.5 SOL by default).
 * The faucet spends the keeper's own SOL; the keeper's wagers expire if it cannot pay its fees.
 */
import { DEFAULT_ALERT_THRESHOLDS } from '../../src-shared/alert-types';
import type { EarningsLedger } from '../store/earnings-ledger';
import { measuredSpend, reserveFor } from '../sweep/sweep-plan';
import { RESERVE_FLOOR_LAMPORTS } from '../../src-shared/settings/sweep';
import { LAMPORTS_PER_SOL } from '../../src-shared/units';

/** How long one reading of the measured spend serves (it reads 7 days of earnings). */
const SPEND_READ_MS = 60_000;

/** SOL (a threshold's number) as lamports, rounded up: a floor never comes out lower than set. */
export const solToLamports = (sol: number): bigint => BigInt(Math.ceil(sol * LAMPORTS_PER_SOL));

/** The floor without settings: the default balance warning, or the reserve floor if that were higher. */
export const DEFAULT_KEEPER_FLOOR_LAMPORTS = ((warning: bigint) =>
  warning > RESERVE_FLOOR_LAMPORTS ? warning : RESERVE_FLOOR_LAMPORTS)(solToLamports(DEFAULT_ALERT_THRESHOLDS.balanceWarningSol));

export interface KeeperFloorInputs {
  earnings: Pick<EarningsLedger, 'totals'>;
  /** The reserve a person set (lamports), or null for the measured one; read at each claim. */
  keepLamports(): bigint | null;
  /** The balance warning threshold in SOL; read at each claim. */
  balanceWarningSol(): number;
  now?: () => number;
}

/** The keeper's floor in lamports, read again at each call (settings may change while it runs). */
export function createKeeperFloor(inputs: KeeperFloorInputs): () => bigint {
  const now = inputs.now ?? Date.now;
  let spend: { atMs: number; value: ReturnType<typeof measuredSpend> } | undefined;
  return () => {
    const at = now();
    if (!spend || at - spend.atMs >= SPEND_READ_MS) spend = { atMs: at, value: measuredSpend(inputs.earnings, at) };
    const reserve = reserveFor(inputs.keepLamports(), spend.value).lamports;
    const warning = solToLamports(inputs.balanceWarningSol());
    return reserve > warning ? reserve : warning;
  };
}
