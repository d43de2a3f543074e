/**
 * The x402 v2 side of the gateway, from the x402 libraries: a facilitator in this process (the gateway's
 * key verifies, pays the fee of and settles the caller's payment transaction), a resource server with the
 * SVM "exact" scheme, and `POST /wager` priced per request (the stake plus the gateway's fee, in the
 * cluster's USDC, to the gateway's address). Payments settle before the wager is opened
 * (`extra.paymentFlow: "upfront"`), so a replayed proof fails at settlement and never reaches the opening.
 */
import { createSolanaRpc, type Address, type KeyPairSigner } from '@solana/kit';
import { x402Facilitator } from '@x402/core/facilitator';
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient, type HTTPAdapter, type HTTPRequestContext } from '@x402/core/server';
import type { Network } from '@x402/core/types';
import { toFacilitatorSvmSigner } from '@x402/svm';
import { registerExactSvmScheme as registerFacilitatorScheme } from '@x402/svm/exact/facilitator';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import type { WagerOrder } from './gateway-order';

export const WAGER_ROUTE = 'POST /wager';

/** An adapter that also hands the x402 price function the order checked before pricing. */
export interface OrderAdapter extends HTTPAdapter {
  getBody(): WagerOrder;
}

export interface X402SellerOptions {
  rpcUrl: string;
  network: Network;
  signer: KeyPairSigner;
  usdcMint: Address;
  /** Seconds a caller has to pay after the 402. */
  maxTimeoutSeconds?: number;
}

export async function createX402Seller(options: X402SellerOptions): Promise<x402HTTPResourceServer> {
  const { network, signer } = options;
  const facilitator = new x402Facilitator();
  registerFacilitatorScheme(facilitator, {
    signer: toFacilitatorSvmSigner(signer, { [network]: createSolanaRpc(options.rpcUrl) } as Parameters<typeof toFacilitatorSvmSigner>[1]),
    networks: network,
  });
  // In process: no HTTP facilitator to reach (the gateway is its own facilitator, as the spike measured).
  const facilitatorClient: FacilitatorClient = {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // The facilitator types its networks as plain strings; they are the CAIP-2 ids registered above.
    getSupported: async () => facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>,
  };
  const resourceServer = new x402ResourceServer(facilitatorClient).register(network, new ExactSvmScheme());
  const server = new x402HTTPResourceServer(resourceServer, {
    [WAGER_ROUTE]: {
      accepts: {
        scheme: 'exact',
        network,
        payTo: signer.address,
        // A custom network id needs an explicit asset amount (a "$1.00" money string resolves only on known networks).
        price: (context: HTTPRequestContext) => ({ amount: (context.adapter as OrderAdapter).getBody().price.toString(), asset: options.usdcMint }),
        maxTimeoutSeconds: options.maxTimeoutSeconds ?? 60,
        extra: { paymentFlow: 'upfront' },
      },
      description: 'Opens a fixed-odds wager for the beneficiary; the price is the stake plus the gateway fee',
      mimeType: 'application/json',
    },
  });
  await server.initialize();
  return server;
}
