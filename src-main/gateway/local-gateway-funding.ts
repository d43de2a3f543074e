/**
 * Working capital for a gateway on a wager-keeper localnet (what `serve` gives its gateway): SOL by
 * airdrop, test USDC minted with the localnet's mint authority from its manifest. Elsewhere the operator
 * funds the gateway's key (docs/gateway.md).
 */
import { address, lamports, type KeyPairSigner, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync, getMintToInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender } from '../chain/transaction-sender';
import type { LocalnetManifest } from '../localnet/localnet';
import { keypairFromBytes } from '../secrets/keypair-bytes';

export const LOCAL_GATEWAY_SOL = 10_000_000_000n;
export const LOCAL_GATEWAY_USDC = 10_000_000_000n; // 10 000 test USDC

export async function fundLocalGateway(rpcUrl: string, manifest: Pick<LocalnetManifest, 'usdcMint' | 'mintAuthority'>, gateway: KeyPairSigner): Promise<void> {
  const rpc = createChainRpc(rpcUrl);
  const confirmer = createSignatureConfirmer(rpc);
  try {
    await fund(rpc, confirmer, manifest, gateway);
  } finally {
    confirmer.stop();
  }
}

async function fund(
  rpc: Rpc<SolanaRpcApi>,
  confirmer: ReturnType<typeof createSignatureConfirmer>,
  manifest: Pick<LocalnetManifest, 'usdcMint' | 'mintAuthority'>,
  gateway: KeyPairSigner,
): Promise<void> {
  const airdrop = await rpc.requestAirdrop(gateway.address, lamports(LOCAL_GATEWAY_SOL), { commitment: 'confirmed' }).send();
  const outcome = await confirmer.wait(airdrop, () => false);
  if (!outcome.landed || outcome.err) throw new Error(`the gateway's SOL airdrop did not land: ${JSON.stringify(outcome)}`);
  const mint = address(manifest.usdcMint);
  const mintAuthority = await keypairFromBytes(manifest.mintAuthority);
  const [account] = await findAssociatedTokenPda({ mint, owner: gateway.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await createTransactionSender({ rpc, confirmer, payer: gateway }).send([
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: gateway, mint, owner: gateway.address }),
    getMintToInstruction({ mint, token: account, mintAuthority, amount: LOCAL_GATEWAY_USDC }),
  ]);
}
