/**
 * open_wager with its addresses worked out: the wager PDA of (integrator authority, nonce), its fee
 * account PDA, and both bumps (the program checks the bumps with one hash each instead of searching);
 * config, pool and vault derived under `programAddress` too (the generated defaults use the localnet's id).
 */
import type { Address, Instruction, TransactionSigner } from '@solana/kit';
import { WAGER_PROGRAM_ADDRESS, findConfigPda, findPoolPda, findVaultPda, findWagerFeesPda, findWagerPda, getOpenWagerInstructionAsync } from '../generated/wager';

export interface OpenWagerForAppInput {
  payer: TransactionSigner;
  stakeOwner: TransactionSigner;
  integratorAuthority: TransactionSigner;
  paytable: Address;
  stakeSource: Address;
  beneficiary: Address;
  oracleNetworkState: Address;
  /** USDC base units. */
  stake: bigint;
  nonce: bigint;
  programAddress?: Address;
}

export async function getOpenWagerForApp(input: OpenWagerForAppInput): Promise<{ instruction: Instruction; wager: Address; wagerFees: Address }> {
  const programAddress = input.programAddress ?? WAGER_PROGRAM_ADDRESS;
  const [wager, wagerBump] = await findWagerPda({ integratorAuthority: input.integratorAuthority.address, nonce: input.nonce }, { programAddress });
  const [wagerFees, feesBump] = await findWagerFeesPda({ wager }, { programAddress });
  const [[config], [pool], [vault]] = await Promise.all([findConfigPda({ programAddress }), findPoolPda({ programAddress }), findVaultPda({ programAddress })]);
  const { payer, stakeOwner, integratorAuthority, paytable, stakeSource, beneficiary, oracleNetworkState, stake, nonce } = input;
  const instruction = await getOpenWagerInstructionAsync(
    { payer, stakeOwner, integratorAuthority, config, pool, vault, paytable, stakeSource, beneficiary, oracleNetworkState, stake, nonce, wager, wagerFees, wagerBump, feesBump },
    { programAddress },
  );
  return { instruction, wager, wagerFees };
}
