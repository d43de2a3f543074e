/**
 * Paying a gateway on a local cluster with the x402 client libraries. @x402/svm's client pays on
 * mainnet, devnet and testnet only (it picks its RPC by network id and throws "Unsupported SVM network"
 * for any other), while a localnet is its own cluster with its own id. So this adapter — the one piece
 * written here because the library has no option for it — hands the library's own ExactSvmScheme the
 * requirements under the devnet id with the localnet's RPC URL: the transaction it builds and signs is
 * the same (the network id is not part of it), and the payload keeps the localnet's id. On devnet or
 * mainnet, use `registerExactSvmScheme` from '@x402/svm/exact/client' as is (docs/gateway.md).
 */
import type { TransactionSigner } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import type { Network, SchemeNetworkClient } from '@x402/core/types';
import { SOLANA_DEVNET_CAIP2 } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/client';

export function localnetExactScheme(signer: TransactionSigner, rpcUrl: string): SchemeNetworkClient {
  const library = new ExactSvmScheme(signer, { rpcUrl });
  return {
    scheme: 'exact',
    createPaymentPayload: (version, requirements) => library.createPaymentPayload(version, { ...requirements, network: SOLANA_DEVNET_CAIP2 }),
  };
}

export interface LocalnetPayerOptions {
  signer: TransactionSigner;
  rpcUrl: string;
  /** The localnet's CAIP-2 id (its manifest's `network`, the gateway's ready line). */
  network: string;
  /** Its test USDC mint (not a default asset of the library: allowed explicitly, up to `maxAmount` base units). */
  usdcMint: string;
  maxAmount?: bigint;
}

/** An x402 client (for `wrapFetchWithPayment` from @x402/fetch) that pays test USDC on a localnet. */
export function localnetX402Client(options: LocalnetPayerOptions): x402Client {
  const network = options.network as Network;
  return new x402Client()
    .register(network, localnetExactScheme(options.signer, options.rpcUrl))
    .setSpendControls({ allowedAssets: [{ network, asset: options.usdcMint, maxAmountPerPayment: (options.maxAmount ?? 1_000_000_000n).toString() }] });
}
