/**
 * What a beneficiary address is, from its account as the gateway already read it (in the check's
 * simulation, or a re-read after a refusal): the rule of src-main/chain/usdc-beneficiary.ts, its refusal
 * answered 400 `bad beneficiary: …`.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import {
  BeneficiaryRefused,
  beneficiaryFromAccount,
  type AccountView,
  type Beneficiary,
} from '../chain/usdc-beneficiary';
import { OrderRefusal } from './gateway-order';

export type { AccountView, Beneficiary };

export async function beneficiaryFrom(
  target: Address,
  account: AccountView,
  usdcMint: Address,
  payer: KeyPairSigner,
): Promise<Beneficiary> {
  try {
    return await beneficiaryFromAccount(target, account, usdcMint, payer);
  } catch (error) {
    if (error instanceof BeneficiaryRefused) throw new OrderRefusal(400, `bad beneficiary: ${error.message}`);
    throw error;
  }
}
