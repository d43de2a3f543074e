/**
 * The x402 v2 side of the gateway, from the x402 libraries: a facilitator in this process (the gateway's
 * key verifies, pays the fee of and settles the caller's payment transaction), a resource server with the
 * SVM "exact" scheme, and `POST /wager` priced per request (the stake plus the gateway's fee, in the
 * cluster's USDC, to the gateway's address). Payments settle before the wager is opened
 * (`extra.paymentFlow: "upfront"`), so a replayed proof fails at settlement and never reaches the opening.
 * The scheme is the library's with caps, behind the gateway's own instruction check (payment-guard.ts);
 * every payment is handed to `broadcasts` (recorded) before it is sent.
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
import { ExactSvmScheme as FacilitatorExactSvmScheme } from '@x402/svm/exact/facilitator';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import type { WagerOrder } from './gateway-order';
import { GuardedSvmScheme, MAX_PAYMENT_COMPUTE_UNITS, MAX_PAYMENT_PRICE_MICROLAMPORTS, MAX_PAYMENT_SIGNERS } from './payment-guard';
import type { SubscribedConfirmer } from '../chain/subscribed-confirmer';

export const WAGER_ROUTE = 'POST /wager';

/** An adapter that also hands the x402 price function the order checked before pricing. */
export interface OrderAdapter extends HTTPAdapter {
  getBody(): WagerOrder;
}

/** What happens to a payment transaction on its way to the chain, for the gateway's records. */
export interface PaymentBroadcasts {
  /** About to be sent (fully signed, base64, and its signature): must be recorded first; a throw sends nothing. */
  broadcasting(transaction: string, signature: string): void;
  /** Refused by the send's preflight: nothing was broadcast. */
  unsent(signature: string, reason: string): void;
  /** Landed and failed on chain: the USDC did not move. */
  failed(signature: string, reason: string): void;
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
  broadcasts: PaymentBroadcasts;
  /** How long a settlement waits for its payment's confirmation before it is reported pending (twice: the library retries once). */
  paymentConfirmMs?: number;
}

/** How long a payment may take to confirm before its settlement is reported pending (the library retries once: 2 x 15 s). */
const PAYMENT_CONFIRM_MS = 15_000;

/** Fault injection for the tests (docs/gateway.md): die right after the payment is sent, lose the send, or never see it confirmed. */
const fault = () => process.env.WAGER_KEEPER_GATEWAY_FAULT;

/**
 * The library's facilitator signer, with the chain side done as the gateway does it: no separate
 * simulation of the payment (the send's preflight runs the same simulation, signatures checked too, and a
 * failing payment is refused there without landing or costing a fee; the library still checks the
 * transaction's layout, asset, amount, recipient and signatures first), and confirmation by subscription
 * instead of polling.
 */
function gatewayFacilitatorSigner(options: X402SellerOptions): FacilitatorSvmSigner {
  const { rpc, confirmer, network, signer, broadcasts } = options;
  const confirmMs = options.paymentConfirmMs ?? PAYMENT_CONFIRM_MS;
  const library = toFacilitatorSvmSigner(signer, { [network]: rpc } as unknown as Parameters<typeof toFacilitatorSvmSigner>[1]);
  return {
    ...library,
    simulateTransaction: async () => undefined,
    async sendTransaction(transaction) {
      const signature = getSignatureFromTransaction(getTransactionDecoder().decode(getBase64Encoder().encode(transaction)));
      // Recorded before it is sent: whatever happens next (a crash, a confirmation never seen), the record
      // and the signature's status say whether the money moved.
      broadcasts.broadcasting(transaction, signature);
      if (fault() === 'lost-broadcast') return signature; // as if the send never reached a leader
      try {
        await rpc.sendTransaction(transaction as Base64EncodedWireTransaction, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
      } catch (error) {
        // Refused by preflight: nothing was sent. Anything else (an answer lost, a retried send told "already
        // processed") may have landed: its confirmation decides, or the money could move with no wager.
        if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE) && !isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)) {
          broadcasts.unsent(signature, (error as Error).message);
          throw error;
        }
      }
      if (fault() === 'crash-after-broadcast') process.kill(process.pid, 'SIGKILL');
      return signature;
    },
    async confirmTransaction(signature) {
      if (fault() === 'unconfirmed-payment') throw new Error(`the payment ${signature} was not confirmed (fault injected)`);
      const deadline = Date.now() + confirmMs;
      const outcome = await confirmer.wait(signature as Parameters<SubscribedConfirmer['wait']>[0], () => Date.now() > deadline);
      if (!outcome.landed) throw new Error(`the payment ${signature} was not confirmed within ${confirmMs / 1000} s`);
      if (outcome.err) {
        const reason = JSON.stringify(outcome.err, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
        broadcasts.failed(signature, reason);
        throw new TransactionOnchainFailureError(`Transaction failed onchain: ${reason}`);
      }
    },
  };
}

export async function createX402Seller(options: X402SellerOptions): Promise<x402HTTPResourceServer> {
  const { network, signer } = options;
  const facilitator = new x402Facilitator();
  // v2 only (the library's register also adds v1, which has no caps); the caps are the library's options.
  const library = new FacilitatorExactSvmScheme(gatewayFacilitatorSigner(options), undefined, {
    maxComputeUnits: MAX_PAYMENT_COMPUTE_UNITS,
    maxPriorityFeeMicroLamports: MAX_PAYMENT_PRICE_MICROLAMPORTS,
    maxRequiredSignatures: MAX_PAYMENT_SIGNERS,
  });
  facilitator.register(network, new GuardedSvmScheme(library));
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
