/**
 * The USDC account a wager pays out to, from what a caller gives: a USDC token account as is, or a wallet
 * (its associated token account, created in the same transaction when missing); anything else is refused
 * with a BeneficiaryRefused saying what it is. One rule for `open --beneficiary` (which reads the account)
 * and the x402 gateway (which has it already, from its check's simulation).
 */
import {
  getBase64Encoder,
  type Address,
  type Base64EncodedDataResponse,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTokenDecoder,
  getTokenSize,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

/** An account as an RPC answers it in base64 (null: none at that address). */
export type AccountView = { owner: Address; lamports: bigint; data: Base64EncodedDataResponse } | null;

/** Where a wager pays out: a USDC token account, and the instructions creating it (a wallet's associated account). */
export interface Beneficiary {
  account: Address;
  create: Instruction[];
}

/** The address given cannot receive this cluster's USDC; the message says what it is and what to give. */
export class BeneficiaryRefused extends Error {}

/** The beneficiary for `target`, whose account (as read) is `account`. */
export async function beneficiaryFromAccount(
  target: Address,
  account: AccountView,
  usdcMint: Address,
  payer: KeyPairSigner,
): Promise<Beneficiary> {
  if (account && account.owner === TOKEN_PROGRAM_ADDRESS) {
    const data = getBase64Encoder().encode(account.data[0]);
    if (data.length !== getTokenSize())
      throw new BeneficiaryRefused(
        `${target} is a token program account but not a token account (a mint?); give a wallet or a USDC token account`,
      );
    const { mint } = getTokenDecoder().decode(data);
    if (mint !== usdcMint)
      throw new BeneficiaryRefused(
        `${target} is a token account of mint ${mint}, not of this cluster's USDC (${usdcMint})`,
      );
    return { account: target, create: [] };
  }
  if (account && account.owner !== SYSTEM_PROGRAM_ADDRESS)
    throw new BeneficiaryRefused(
      `${target} is an account of program ${account.owner}: give a wallet or a USDC token account`,
    );
  // A wallet (or an address nothing was sent to yet): its associated token account, created if missing.
  const [ata] = await findAssociatedTokenPda({
    mint: usdcMint,
    owner: target,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return {
    account: ata,
    create: [
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint: usdcMint, owner: target }),
    ],
  };
}

/** `--beneficiary ADDRESS`: reads its account, then the same rule. */
export async function beneficiaryAccount(
  rpc: Rpc<SolanaRpcApi>,
  target: Address,
  usdcMint: Address,
  payer: KeyPairSigner,
): Promise<Beneficiary> {
  const { value } = await rpc.getAccountInfo(target, { encoding: 'base64' }).send();
  return beneficiaryFromAccount(target, value, usdcMint, payer);
}
