/** What the public /v1 API asks of the test-network faucet (spec 2.4 and 8). */
import type { Address } from '@solana/kit';

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

export interface FaucetService {
  status(): FaucetStatus;
  claim(owner: Address, ip: string): Promise<FaucetClaimResult>;
}
