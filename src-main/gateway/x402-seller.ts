/**
 * The x402 v2 side of the gateway, from the x402 libraries: a facilitator in this process (the gateway's
 * key verifies, pays the fee of and settles the caller's payment transaction), a resource server with the
 * SVM "exact" scheme, and `POST /wager` priced per request (the stake plus the gateway's fee, in the
 * cluster's USDC, to the gateway's address). Payments settle before the wager is opened
 * (`extra.paymentFlow: "upfront"`), so a replayed proof fails at settlement and never reaches the opening.
 */
import {
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  type Address,
  type Base64EncodedWireTransaction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { x402Facilitator } from '@x402/core/facilitator';
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient, type HTTPAdapter, type HTTPRequestContext } from '@x402/core/server';
import type { Network } from '@x402/core/types';
import { toFacilitatorSvmSigner, TransactionOnchainFailureError, type FacilitatorSvmSigner } from '@x402/svm';
import { registerExactSvmScheme as registerFacilitatorScheme } from '@x402/svm/exact/facilitator';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import type { WagerOrder } from './gateway-order';
import type { SubscribedConfirmer } from '../chain/subscribed-confirmer';

export const WAGER_ROUTE = 'POST /wager';

/** An adapter that also hands the x402 price function the order checked before pricing. */
export interface OrderAdapter extends HTTPAdapter {
  getBody(): WagerOrder;
}

export interface X402SellerOptions {
  rpc: Rpc<SolanaRpcApi>;
  /** Confirms the payment transactions (by subscription). */
  confirmer: SubscribedConfirmer;
  network: Network;
  signer: KeyPairSigner;
  usdcMint: Address;
  /** Seconds a caller has to pay after the 402. */
  maxTimeoutSeconds?: number;
}

/** How long a payment may take to confirm before its settlement is reported pending (the library's own budget). */
const PAYMENT_CONFIRM_MS = 30_000;

/**
 * The library's facilitator signer, with the chain side done as the gateway does it: no separate
 * simulation of the payment (the send's preflight runs the same simulation, signatures checked too, and a
 * failing payment is refused there without landing or costing a fee; the library still checks the
 * transaction's layout, asset, amount, recipient and signatures first), and confirmation by subscription
 * instead of polling.
 */
function gatewayFacilitatorSigner(options: X402SellerOptions): FacilitatorSvmSigner {
  const { rpc, confirmer, network, signer } = options;
  const library = toFacilitatorSvmSigner(signer, { [network]: rpc } as unknown as Parameters<typeof toFacilitatorSvmSigner>[1]);
  return {
    ...library,
    simulateTransaction: async () => undefined,
    async sendTransaction(transaction) {
      try {
        return await rpc.sendTransaction(transaction as Base64EncodedWireTransaction, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
      } catch (error) {
        // Refused by preflight: nothing was sent. Anything else (an answer lost, a retried send told "already
        // processed") may have landed: its confirmation decides, or the money could move with no wager.
        if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE) && !isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED))
          throw error;
        return getSignatureFromTransaction(getTransactionDecoder().decode(getBase64Encoder().encode(transaction)));
      }
    },
    async confirmTransaction(signature) {
      const deadline = Date.now() + PAYMENT_CONFIRM_MS;
      const outcome = await confirmer.wait(signature as Parameters<SubscribedConfirmer['wait']>[0], () => Date.now() > deadline);
      if (!outcome.landed) throw new Error(`the payment ${signature} was not confirmed within ${PAYMENT_CONFIRM_MS / 1000} s`);
      if (outcome.err)
        throw new TransactionOnchainFailureError(`Transaction failed onchain: ${JSON.stringify(outcome.err, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
    },
  };
}

export async function createX402Seller(options: X402SellerOptions): Promise<x402HTTPResourceServer> {
  const { network, signer } = options;
  const facilitator = new x402Facilitator();
  registerFacilitatorScheme(facilitator, {
    signer: gatewayFacilitatorSigner(options),
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
