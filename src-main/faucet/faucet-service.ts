/** What the public /v1 API asks of the test-network faucet (spec 2.4 and 8). */
import type { FaucetClaimResult, FaucetStatus } from '../../src-shared/contract/faucet';
import type { Address } from '@solana/kit';

export type { FaucetClaimResult, FaucetStatus };

export interface FaucetService {
  status(): FaucetStatus;
  claim(owner: Address, ip: string): Promise<FaucetClaimResult>;
}
