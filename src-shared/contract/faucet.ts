/**
 * The console contract, faucet: which faucet serves this cluster and claims from it (the status and claim
 * answers are the public /v1/faucet ones).
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/**
 * Which faucet the Faucet screen uses: this keeper's own when it holds the test mint's authority; else
 * the deployment's public keeper (`keeperApi`), asked from the main process; else none, and why. The
 * status and a claim's answer have the types /v1/faucet answers with (type-only imports, erased from the UI bundle).
 */
export type FaucetView =
  | { source: 'this keeper'; status: FaucetStatus }
  | { source: 'deployment keeper'; keeperApi: string; status: FaucetStatus | null; error: string | null }
  | { source: 'none'; reason: string };

/** A claim's answer and who answered it ("this keeper", or the deployment keeper's URL). */
export type FaucetClaimView = FaucetClaimResult & { answeredBy: string };

export interface FaucetStatus {
  /** USDC base units granted per claim, decimal string. */
  usdc: string;
  perDay: number;
  remainingToday: number;
}

export type FaucetClaimResult =
  /** `usdc`: base units sent, decimal integer; `sol`: SOL sent, decimal ("0.01"; "0" when none was sent). */
  | { ok: true; signature: string; usdc: string; sol: string }
  | { ok: false; status: number; error: string; retryAt: number };

/** Faucet's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface FaucetApi {
  /** Which faucet serves this cluster (this keeper's, the deployment keeper's, or none and why) and its status. */
  faucetStatus(): Promise<FaucetView>;
  /** Claims test USDC (and the SOL top-up) for a wallet; a refusal says why and when to retry. */
  faucetClaim(args: { owner: string }): Promise<FaucetClaimView>;
}

/** Faucet's method names, in the order the transports list them. */
export const FAUCET_METHODS = ['faucetStatus', 'faucetClaim'] as const satisfies readonly (keyof FaucetApi)[];
