/**
 * Opens a wager on a wager-keeper localnet with its dev app key (integrator, payer and stake owner): what
 * `wager-keeper open` and the console's demo app do. Simulated first, so a refusal names its reason.
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
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { TransactionFailedError } from '../chain/transaction-sender';
import { beneficiaryAccount } from '../chain/usdc-beneficiary';
import { refusalLine } from '../protocol/program-error-sentences';
import { getOpenWagerForApp } from '../protocol/wager';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import type { LocalnetManifest } from './localnet';

export interface OpenLocalnetWagerOptions {
  rpc: Rpc<SolanaRpcApi>;
  manifest: Pick<LocalnetManifest, 'paytables' | 'devKeys' | 'usdcMint' | 'oracle' | 'programs'>;
  paytable: string;
  /** USDC base units. */
  stake: bigint;
  /** A wallet or a USDC token account; default the app's own USDC account. */
  beneficiary?: Address;
}

/** The localnet's dev app (integrator, payer and stake owner at once), its USDC account, and its open_wager instruction. */
export async function devAppOpener(manifest: Pick<LocalnetManifest, 'devKeys' | 'usdcMint' | 'oracle'>) {
  const app = await keypairFromBytes(manifest.devKeys.app.keypair);
  const [stakeSource] = await findAssociatedTokenPda({ mint: address(manifest.usdcMint), owner: app.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return {
    app,
    stakeSource,
    /** open_wager of `stake` (USDC base units) on `paytable`, paid out to `beneficiary` (default the app's own USDC account). */
    open: (paytable: Address, stake: bigint, nonce: bigint, beneficiary: Address = stakeSource) =>
      getOpenWagerForApp({
        payer: app,
        stakeOwner: app,
        integratorAuthority: app,
        paytable,
        stakeSource,
        beneficiary,
        oracleNetworkState: address(manifest.oracle.networkState),
        stake,
        nonce,
      }),
  };
}

/** Opens one wager with the localnet's dev app key; resolves once sent with its address and beneficiary account. */
export async function openLocalnetWager(options: OpenLocalnetWagerOptions): Promise<{ wager: Address; beneficiary: Address }> {
  const { rpc, manifest, stake } = options;
  const paytable = manifest.paytables.find((p) => p.name === options.paytable);
  if (!paytable) throw new Error(`unknown paytable '${options.paytable}'; available: ${manifest.paytables.map((p) => p.name).join(', ')}`);
  const { app, stakeSource, open } = await devAppOpener(manifest);
  const beneficiary = options.beneficiary === undefined ? { account: stakeSource, create: [] } : await beneficiaryAccount(rpc, options.beneficiary, address(manifest.usdcMint), app);
  const nonce = BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000));
  const { instruction, wager } = await open(address(paytable.address), stake, nonce, beneficiary.account);
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(app, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions([...beneficiary.create, instruction], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const wire = getBase64EncodedWireTransaction(signed);
  // Simulated first so that a refusal names its reason (e.g. perWagerCap), not just "simulation failed".
  const { value: simulation } = await rpc.simulateTransaction(wire, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (simulation.err) {
    const failure = new TransactionFailedError('simulation', simulation.err, simulation.logs ?? []);
    const programs = { wager: address(manifest.programs.wager), oracle: address(manifest.programs.oracle) };
    throw new Error(`the wager was not opened: ${refusalLine(failure, programs)}`);
  }
  await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
  return { wager, beneficiary: beneficiary.account };
}
