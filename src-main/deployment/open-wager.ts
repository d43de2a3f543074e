/**
 * Opens one wager on any deployment: `wager-keeper open` and the console's demo app. The stake owner
 * pays (fees, rent, the oracle fee) and stakes its USDC; the app key is the integrator authority (the
 * wager's address is derived from it and a nonce). Simulated first, so a refusal names its reason.
 */
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Deployment } from '../protocol/deployment';
import { deploymentPaytable } from './deployment-resolver';
import { refusalLine } from '../protocol/program-error-sentences';
import { findNetworkStatePda } from '../protocol/oracle';
import { getOpenWagerForApp } from '../protocol/wager';
import { TransactionFailedError } from '../chain/transaction-sender';
import { beneficiaryAccount } from '../chain/usdc-beneficiary';

export interface OpenWagerOptions {
  rpc: Rpc<SolanaRpcApi>;
  deployment: Pick<Deployment, 'programs' | 'paytables' | 'usdcMint'>;
  /** A paytable name of the deployment. */
  paytable: string;
  /** USDC base units. */
  stake: bigint;
  /** Pays and stakes from its associated USDC account. */
  stakeOwner: KeyPairSigner;
  /** The integrator authority (default: the stake owner). */
  app?: KeyPairSigner;
  /** A wallet or a USDC token account; default the stake owner's own USDC account. */
  beneficiary?: Address;
}

/** Opens one wager; resolves once sent with its address and the beneficiary token account. */
export async function openWager(options: OpenWagerOptions): Promise<{ wager: Address; beneficiary: Address }> {
  const { rpc, deployment, stake, stakeOwner } = options;
  const app = options.app ?? stakeOwner;
  const paytable = deploymentPaytable(deployment, options.paytable);
  const programs = { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) };
  const usdcMint = address(deployment.usdcMint);
  const [stakeSource] = await findAssociatedTokenPda({ mint: usdcMint, owner: stakeOwner.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const beneficiary = options.beneficiary === undefined ? { account: stakeSource, create: [] } : await beneficiaryAccount(rpc, options.beneficiary, usdcMint, stakeOwner);
  const [oracleNetworkState] = await findNetworkStatePda({ programAddress: programs.oracle });
  const nonce = BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000));
  const { instruction, wager } = await getOpenWagerForApp({
    payer: stakeOwner,
    stakeOwner,
    integratorAuthority: app,
    paytable,
    stakeSource,
    beneficiary: beneficiary.account,
    oracleNetworkState,
    stake,
    nonce,
    programAddress: programs.wager,
  });
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(stakeOwner, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions([...beneficiary.create, instruction], m),
  );
  const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
  // Simulated first so that a refusal names its reason (e.g. perWagerCap), not just "simulation failed".
  const { value: simulation } = await rpc.simulateTransaction(wire, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (simulation.err) {
    const failure = new TransactionFailedError('simulation', simulation.err, simulation.logs ?? []);
    throw new Error(`the wager was not opened: ${refusalLine(failure, programs)}`);
  }
  await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
  return { wager, beneficiary: beneficiary.account };
}
