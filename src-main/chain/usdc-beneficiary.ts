/**
 * The USDC account a wager pays out to, from what a caller gives: a USDC token account as is, or a wallet
 * (its associated token account, created in the same transaction when missing). Shared by `open
 * --beneficiary` and the x402 gateway.
 */
import { getBase64Encoder, type Address, type Instruction, type KeyPairSigner, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync, getTokenDecoder, getTokenSize, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

/**
 * The USDC token account that receives the payout for `--beneficiary ADDRESS`, and the instruction that
 * creates it when ADDRESS is a wallet (none when ADDRESS is already a USDC token account).
 */
export async function beneficiaryAccount(rpc: Rpc<SolanaRpcApi>, target: Address, usdcMint: Address, payer: KeyPairSigner): Promise<{ account: Address; create: Instruction[] }> {
  const { value } = await rpc.getAccountInfo(target, { encoding: 'base64' }).send();
  if (value && value.owner === TOKEN_PROGRAM_ADDRESS) {
    const data = getBase64Encoder().encode(value.data[0]);
    if (data.length !== getTokenSize()) throw new Error(`${target} is a token program account but not a token account (a mint?); give a wallet or a USDC token account`);
    const { mint } = getTokenDecoder().decode(data);
    if (mint !== usdcMint) throw new Error(`${target} is a token account of mint ${mint}, not of this cluster's USDC (${usdcMint})`);
    return { account: target, create: [] };
  }
  if (value && value.owner !== SYSTEM_PROGRAM_ADDRESS)
    throw new Error(`${target} is an account of program ${value.owner}: give a wallet or a USDC token account`);
  // A wallet (or an address nothing was sent to yet): its associated token account, created if missing.
  const [account] = await findAssociatedTokenPda({ mint: usdcMint, owner: target, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return { account, create: [await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint: usdcMint, owner: target })] };
}

