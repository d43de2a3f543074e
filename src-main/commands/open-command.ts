/**
 * `wager-keeper open --rpc URL --paytable NAME --amount 1.00 [--beneficiary ADDRESS]`: opens a wager on
 * the localnet with its dev app key (integrator, payer and stake owner), prints {"wager": address}.
 */
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  isAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
} from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { parseArgs } from 'node:util';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { getOpenWagerForApp } from '../protocol/wager';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import { parseUsdcAmount } from '../protocol/usdc-amount';

export async function openCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { rpc: { type: 'string', default: 'http://127.0.0.1:8899' }, paytable: { type: 'string' }, amount: { type: 'string' }, beneficiary: { type: 'string' } },
  });
  if (!values.paytable) throw new Error('missing --paytable');
  if (!values.amount) throw new Error('missing --amount');
  const stake = parseUsdcAmount(values.amount);
  if (values.beneficiary !== undefined && !isAddress(values.beneficiary)) throw new Error('--beneficiary must be a base58 address');

  const rpc = createSolanaRpc(values.rpc);
  const manifest = await fetchLocalnetManifest(values.rpc).catch((error: Error) => {
    throw new Error(`${values.rpc} is not a reachable wager-keeper localnet: ${error.message}`);
  });
  const paytable = manifest.paytables.find((p) => p.name === values.paytable);
  if (!paytable) throw new Error(`unknown paytable '${values.paytable}'; available: ${manifest.paytables.map((p) => p.name).join(', ')}`);

  const app = await keypairFromBytes(manifest.devKeys.app.keypair);
  const usdcMint = address(manifest.usdcMint);
  const [stakeSource] = await findAssociatedTokenPda({ mint: usdcMint, owner: app.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const nonce = BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000));
  const { instruction, wager } = await getOpenWagerForApp({
    payer: app,
    stakeOwner: app,
    integratorAuthority: app,
    paytable: address(paytable.address),
    stakeSource,
    beneficiary: (values.beneficiary as Address | undefined) ?? stakeSource,
    oracleNetworkState: address(manifest.oracle.networkState),
    stake,
    nonce,
  });
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(app, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions([instruction], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
  console.log(JSON.stringify({ wager }));
  return 0;
}
