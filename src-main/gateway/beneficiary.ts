/**
 * What a beneficiary address is, from its account as the gateway already read it (in the check's
 * simulation, or a re-read after a refusal): a USDC token account as is, or a wallet (its associated USDC
 * account, created in the open when missing). The same rules as `open --beneficiary`
 * (src-main/chain/usdc-beneficiary.ts, which reads the account itself); anything else is refused (400).
 */
import { getBase64Encoder, type Address, type Base64EncodedDataResponse, type Instruction, type KeyPairSigner } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync, getTokenDecoder, getTokenSize } from '@solana-program/token';
import { OrderRefusal } from './gateway-order';

/** An account as an RPC answers it in base64 (null: none at that address). */
export type AccountView = { owner: Address; lamports: bigint; data: Base64EncodedDataResponse } | null;

/** Where a wager pays out: a USDC token account, and the instructions creating it (a wallet's associated account). */
export interface Beneficiary {
  account: Address;
  create: Instruction[];
}

export async function beneficiaryFrom(target: Address, account: AccountView, usdcMint: Address, payer: KeyPairSigner): Promise<Beneficiary> {
  if (account && account.owner === TOKEN_PROGRAM_ADDRESS) {
    const data = getBase64Encoder().encode(account.data[0]);
    if (data.length !== getTokenSize()) throw new OrderRefusal(400, `bad beneficiary: ${target} is a token program account but not a token account (a mint?); give a wallet or a USDC token account`);
    const { mint } = getTokenDecoder().decode(data);
    if (mint !== usdcMint) throw new OrderRefusal(400, `bad beneficiary: ${target} is a token account of mint ${mint}, not of this cluster's USDC (${usdcMint})`);
    return { account: target, create: [] };
  }
  if (account && account.owner !== SYSTEM_PROGRAM_ADDRESS)
    throw new OrderRefusal(400, `bad beneficiary: ${target} is an account of program ${account.owner}: give a wallet or a USDC token account`);
  const [ata] = await findAssociatedTokenPda({ mint: usdcMint, owner: target, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return { account: ata, create: [await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint: usdcMint, owner: target })] };
}
