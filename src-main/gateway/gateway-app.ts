/**
 * The gateway's HTTP API (Hono): `POST /wager` (x402 v2: 402 with PAYMENT-REQUIRED, then the paid retry
 * with PAYMENT-SIGNATURE, 201 `{ wager }` with PAYMENT-RESPONSE, or 202 `{ wager, settlement, state:
 * "pending" }` when the payment's confirmation has not been seen yet), `GET /wager/:address`, `GET
 * /paytables`, `GET /health`. Bad input and refusals are answered before any payment, as JSON `{ error }`;
 * `POST /wager` is rate limited per client address and per payer (429 with Retry-After).
 */
import type { Address } from '@solana/kit';
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import type { HTTPRequestContext, x402HTTPResourceServer } from '@x402/core/server';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import { clientKey, type TrustProxy } from '../api/client-ip';
import { createRateLimiter, type BucketConfig } from '../api/rate-limiter';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import { OrderRefusal, parseWagerOrder, type GatewayLimits, type OfferedPaytable, type WagerOrder } from './gateway-order';
import type { PaymentRecord, PaymentRecords } from './payment-records';
import { paymentRefusalSentence, signedPayerOf } from './payment-guard';
import type { PaymentLedger } from './payment-ledger';
import { MIN_GATEWAY_LAMPORTS, nonceOfProof, proofIdOf, type OpenPlan, type WagerPurchase } from './wager-purchase';
import type { OrderAdapter } from './x402-seller';

/** Where the gateway hands the wagers it opened (its keeper: in this process, or another's /v1). */
export interface KeeperHandoff {
  submit(wager: Address): Promise<void>;
  /** The keeper's record of a wager (its /v1 answer), or null when it has none. */
  lookup(wager: Address): Promise<unknown>;
}

export interface GatewayAppOptions {
  address: Address;
  network: string;
  usdcMint: Address;
  offered: ReadonlyMap<string, OfferedPaytable>;
  limits: GatewayLimits;
  seller: x402HTTPResourceServer;
  purchase: WagerPurchase;
  records: PaymentRecords;
  /** Records each payment against its order before it is broadcast (payment-ledger.ts). */
  ledger: PaymentLedger;
  keeper: KeeperHandoff;
  log?: Logger;
  /** Which proxies in front may say who the client is (--trust-proxy, see api/client-ip.ts); default none. */
  trustProxy?: TrustProxy;
  rateLimits?: Partial<GatewayRateLimits>;
  /** The clock of the rate limits (tests). */
  now?: () => number;
}

/** POST /wager's token buckets: every request per client address, and paid requests per payer. */
export interface GatewayRateLimits {
  perAddress: BucketConfig;
  perPayer: BucketConfig;
}

/**
 * An honest caller makes two requests per wager (the 402, then the paid retry): 30 wagers a minute from
 * one address, 10 from one payer, in bursts of 10 and 5. Each request costs the gateway a simulation.
 */
export const DEFAULT_GATEWAY_RATE_LIMITS: GatewayRateLimits = {
  perAddress: { perMinute: 60, burst: 20 },
  perPayer: { perMinute: 10, burst: 5 },
};

/** A wager order is a few hundred bytes: a body over this is refused (413) before it is read to its end. */
export const GATEWAY_MAX_BODY_BYTES = 16 * 1024;

const fail = (c: Context, status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  c.json({ error, ...extra }, status as 400, headers);

/** What each state means, for GET /wager/:address. */
const STATE_SENTENCES: Record<PaymentRecord['state'], string> = {
  pending: 'the payment was sent and its confirmation is awaited: the wager opens once it lands; if it never lands (its blockhash expires), nothing was taken and the state becomes dropped',
  paid: 'the payment landed; the wager is being opened',
  opened: 'the wager is open',
  refunded: 'the wager could not be opened and the payment was refunded to its payer',
  dropped: 'the payment never landed (or failed on chain): no USDC moved and no wager was opened; pay again with a new payment',
};

/** What GET /wager/:address shows of a payment: its reference, never the proof itself. */
const paymentView = (record: PaymentRecord) => ({
  settlement: record.settlement,
  payer: record.payer,
  amount: formatUsdcAmount(BigInt(record.amount)),
  paytable: record.paytable,
  stake: formatUsdcAmount(BigInt(record.stake)),
  beneficiary: record.beneficiary,
  state: record.state,
  openSignature: record.openSignature,
  refundSignature: record.refundSignature,
  error: record.error,
  meaning: STATE_SENTENCES[record.state],
  paidAt: record.createdAt,
});

/** The errorReason of a failed settlement's PAYMENT-RESPONSE header (its body is empty). */
function settlementReason(headers: Record<string, string>): string | undefined {
  const header = Object.entries(headers).find(([name]) => name.toLowerCase() === 'payment-response')?.[1];
  if (!header) return undefined;
  try {
    return decodePaymentResponseHeader(header).errorReason;
  } catch {
    return undefined;
  }
}

/** Why a payment was refused, in words, followed by its x402 reason code (for scripts). */
function refusalWords(reason: string): string {
  const sentence = paymentRefusalSentence(reason);
  return sentence === reason ? reason : `${sentence} (${reason.split(': ')[0]})`;
}

/** Seconds for Retry-After, at least 1. */
const retryAfter = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

export function createGatewayApp(options: GatewayAppOptions): Hono {
  const { seller, purchase, records, ledger, offered, limits, log } = options;
  const rateLimits: GatewayRateLimits = { ...DEFAULT_GATEWAY_RATE_LIMITS, ...options.rateLimits };
  const limiter = createRateLimiter(options.now ?? Date.now);
  const app = new Hono();
  /** The 202 of a payment sent whose confirmation was not seen: never "no wager", it may yet open. */
  const pendingAnswer = (c: Context, record: PaymentRecord) =>
    c.json(
      {
        wager: record.wager,
        settlement: record.settlement,
        state: 'pending',
        message: `your payment ${record.settlement} was sent but its confirmation was not seen yet: wager ${record.wager} opens once it lands (or the payment is refunded if the wager cannot be opened); if it never lands, nothing is taken. Follow it with GET /wager/${record.wager}; do not pay again meanwhile`,
      },
      202,
    );
  const usedAnswer = (c: Context, used: PaymentRecord) => {
    if (used.state === 'pending') return pendingAnswer(c, used);
    if (used.state === 'dropped') return fail(c, 409, `this payment never landed (${used.error ?? 'dropped'}): no USDC moved; a wager needs a new payment`, { wager: used.wager, state: used.state });
    return fail(c, 409, `this payment was already used, for wager ${used.wager}: a new wager needs a new payment`, { wager: used.wager });
  };
  // Every route and method: a declared Content-Length over the limit is refused before any of the body is
  // read (a GET's too, which bodyLimit lets through), a chunked body as soon as it passes the limit.
  const tooLarge = (c: Context) => fail(c, 413, `body too large: a wager order is at most ${GATEWAY_MAX_BODY_BYTES} bytes of JSON`);
  const streamed = bodyLimit({ maxSize: GATEWAY_MAX_BODY_BYTES, onError: tooLarge });
  app.use('*', async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > GATEWAY_MAX_BODY_BYTES) return tooLarge(c);
    return streamed(c, next);
  });

  app.post('/wager', async (c) => {
    const perAddress = limiter.take(`address ${clientKey(c, options.trustProxy ?? false)}`, rateLimits.perAddress);
    if (!perAddress.allowed)
      return fail(c, 429, `too many wager requests from your address: try again in ${retryAfter(perAddress.retryAfterMs)} s (at most ${rateLimits.perAddress.perMinute} a minute)`, {}, { 'Retry-After': retryAfter(perAddress.retryAfterMs) });
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return fail(c, 400, 'the body must be JSON: { "paytable": NAME, "amount": "1.00", "beneficiary": ADDRESS }');
    }
    const paymentHeader = c.req.header('payment-signature') ?? c.req.header('x-payment');
    let order: WagerOrder;
    let plan: OpenPlan;
    /** A paid retry's nonce (from its proof): its check simulates the very open it would send. */
    let nonce: bigint | undefined;
    /** A paid retry's payment transaction, its proof and its payer (only when the payer's signature holds). */
    let paid: { transaction: string; proof: string; payer: Address | undefined } | undefined;
    try {
      order = parseWagerOrder(body, offered, limits);
      if (paymentHeader) {
        let transaction: unknown;
        try {
          transaction = (decodePaymentSignatureHeader(paymentHeader).payload as { transaction?: unknown }).transaction;
        } catch {
          return fail(c, 400, 'the PAYMENT-SIGNATURE header does not decode as an x402 v2 payment payload');
        }
        const proof = typeof transaction === 'string' ? proofIdOf(transaction) : undefined;
        const used = proof ? records.byProof(proof) : undefined;
        if (proof) nonce = nonceOfProof(proof);
        if (used) return usedAnswer(c, used);
        if (typeof transaction === 'string' && proof) {
          paid = { transaction, proof, payer: await signedPayerOf(transaction) };
          if (paid.payer) {
            const perPayer = limiter.take(`payer ${paid.payer}`, rateLimits.perPayer);
            if (!perPayer.allowed)
              return fail(c, 429, `too many wagers paid by ${paid.payer}: try again in ${retryAfter(perPayer.retryAfterMs)} s (at most ${rateLimits.perPayer.perMinute} a minute); this payment was not sent`, {}, { 'Retry-After': retryAfter(perPayer.retryAfterMs) });
          }
        }
      }
      // Refuse before payment (and again before settling a paid retry: the pool may have changed since the 402).
      plan = await purchase.check(order, nonce);
    } catch (error) {
      if (error instanceof OrderRefusal) return fail(c, error.status, error.message, error.extra);
      throw error;
    }

    const adapter: OrderAdapter = {
      getHeader: (name) => c.req.header(name),
      getMethod: () => c.req.method,
      getPath: () => c.req.path,
      getUrl: () => c.req.url,
      getAcceptHeader: () => c.req.header('accept') ?? '',
      getUserAgent: () => c.req.header('user-agent') ?? '',
      getBody: () => order,
    };
    const context: HTTPRequestContext = {
      adapter,
      path: c.req.path,
      method: c.req.method,
      paymentHeader,
    };
    // The payment is recorded against this order (pending) before it is broadcast: payment-ledger.ts.
    const intent = paid && {
      proof: paid.proof,
      transaction: paid.transaction,
      payer: paid.payer ?? '',
      amount: order.price.toString(),
      paytable: order.paytable.name,
      stake: order.stake.toString(),
      beneficiary: order.beneficiary,
      nonce: nonceOfProof(paid.proof).toString(),
      wager: await purchase.wagerFor(paid.proof),
    };
    const result = intent ? await ledger.settling(intent, () => seller.processHTTPRequest(context)) : await seller.processHTTPRequest(context);
    const sent = paid && records.byProof(paid.proof);
    const settled = result.type === 'payment-verified' ? result.beforeHandlerSettlement?.result : undefined;
    // Sent, and then not seen confirmed: the money may move, so the answer is never "refused".
    if (sent?.state === 'pending' && !settled?.success) return pendingAnswer(c, sent);
    if (result.type === 'payment-error') {
      const { status, headers, body: answer } = result.response;
      const reason = (answer as { error?: string } | undefined)?.error ?? settlementReason(headers);
      const price = `${formatUsdcAmount(order.price)} USDC (the stake${limits.fee > 0n ? ' plus the gateway fee' : ''}) to ${options.address}, as the PAYMENT-REQUIRED header says`;
      const error =
        status !== 402
          ? (reason ?? `payment refused (${status})`)
          : sent?.state === 'dropped'
            ? `${sent.error ?? `the payment failed on chain (${reason})`}: no wager was opened; pay again with a new payment`
            : paymentHeader && reason
              ? `payment refused: ${refusalWords(reason)}; nothing was sent and no USDC moved: pay ${price}`
              : `payment required: ${price}${reason ? ` (${reason})` : ''}`;
      return c.json({ ...(typeof answer === 'object' && answer !== null ? answer : {}), error }, status as 402, headers);
    }
    if (result.type !== 'payment-verified') return fail(c, 500, 'internal error: the wager route asked for no payment');
    if (!settled?.success || sent?.state !== 'pending') return fail(c, 500, 'internal error: a settled payment has no pending record; GET /health counts unfinished payments');

    // Landed: marked paid, then opened with no wait in between (the resolver leaves a payment being opened alone).
    let record = records.markPaid(sent.proof);
    log?.info({ settlement: record.settlement, payer: record.payer, amount: record.amount, wager: record.wager }, 'payment settled');
    // Fault injection for the crash test (docs/gateway.md): die between the payment and the wager, as a power cut would.
    if (process.env.WAGER_KEEPER_GATEWAY_FAULT === 'crash-after-payment') process.kill(process.pid, 'SIGKILL');
    try {
      record = await purchase.finish(record, order, { justRecorded: true, plan });
    } catch (error) {
      log?.warn({ wager: record.wager, error: (error as Error).message }, 'wager not opened yet; retried in the background');
      return fail(c, 503, `your payment ${record.settlement} is recorded, but the wager could not be opened yet (${(error as Error).message}); the gateway retries: GET /wager/${record.wager}`, {
        wager: record.wager,
      });
    }
    if (record.state === 'refunded')
      return fail(c, 409, `${record.error}; your payment was refunded in transaction ${record.refundSignature}`, { refund: record.refundSignature });
    await options.keeper.submit(record.wager as Address).catch((error: Error) => log?.warn({ wager: record.wager, error: error.message }, 'the keeper did not take the wager; it finds it itself'));
    const echoed = await seller.processSettlement(result.paymentPayload, result.paymentRequirements, result.declaredExtensions, { request: context }, undefined, result.beforeHandlerSettlement);
    return c.json({ wager: record.wager }, 201, echoed.success ? echoed.headers : {});
  });

  app.get('/wager/:address', async (c) => {
    const record = records.byWager(c.req.param('address'));
    if (!record) return fail(c, 404, 'no payment of this gateway opened this wager (GET /wager/ADDRESS takes the address POST /wager answered)');
    const keeper = record.state === 'opened' ? await options.keeper.lookup(record.wager as Address).catch(() => null) : null;
    return c.json({ wager: record.wager, payment: paymentView(record), keeper });
  });

  app.get('/paytables', (c) =>
    c.json({
      network: options.network,
      asset: options.usdcMint,
      payTo: options.address,
      fee: formatUsdcAmount(limits.fee),
      paytables: [...offered.values()].map((paytable) => ({
        name: paytable.name,
        address: paytable.address,
        buckets: paytable.buckets,
        minAmount: formatUsdcAmount(limits.minStake),
        maxAmount: formatUsdcAmount(limits.maxStake),
        price: limits.fee > 0n ? `amount + ${formatUsdcAmount(limits.fee)} USDC` : 'amount',
      })),
    }),
  );

  app.get('/health', async (c) => {
    const funds = await purchase.balances();
    const canFund = funds.lamports >= MIN_GATEWAY_LAMPORTS && funds.usdc >= limits.minStake;
    return c.json({
      gateway: options.address,
      network: options.network,
      sol: { lamports: funds.lamports.toString(), minimum: MIN_GATEWAY_LAMPORTS.toString() },
      usdc: { account: funds.usdcAccount, amount: formatUsdcAmount(funds.usdc) },
      canFund,
      unfinishedPayments: records.unfinished().length + records.pending().length,
    });
  });

  app.notFound((c) => fail(c, 404, `no route ${c.req.method} ${c.req.path}: the gateway serves POST /wager, GET /wager/:address, GET /paytables, GET /health`));
  app.onError((error, c) => {
    log?.error({ error: error.message }, 'gateway error');
    return fail(c, 500, 'internal error');
  });
  return app;
}
