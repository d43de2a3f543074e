/**
 * The console contract, oracle: a wager-keeper localnet's own oracle fulfiller, stalled and resumed to see
 * the expiry path.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** A wager-keeper localnet's own oracle fulfiller (only there can the console stall and resume it). */
export interface LocalOracleView {
  stalled: boolean;
  /** Requests the fulfiller has not fulfilled yet. */
  pending: number;
}

/** Oracle's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface OracleApi {
  /** The local oracle of a wager-keeper localnet, or null on any other cluster. */
  localOracle(): Promise<LocalOracleView | null>;
  /** Stalls or resumes the local oracle (a wager-keeper localnet only), to see the expiry path. */
  setLocalOracleStalled(args: { stalled: boolean }): Promise<LocalOracleView>;
}

/** Oracle's method names, in the order the transports list them. */
export const ORACLE_METHODS = ['localOracle', 'setLocalOracleStalled'] as const satisfies readonly (keyof OracleApi)[];
