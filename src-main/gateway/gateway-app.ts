/**
 * The gateway's HTTP API (Hono): `POST /wager` (x402 v2: 402 with PAYMENT-REQUIRED, then the paid retry
 * with PAYMENT-SIGNATURE, 201 `{ wager }` with PAYMENT-RESPONSE), `GET /wager/:address`, `GET /paytables`,
 * `GET /health`. Bad input and refusals are answered before any payment, as JSON `{ error }`.
 */
import type { Address } from '@solana/kit';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { HTTPRequestContext, x402HTTPResourceServer } from '@x402/core/server';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import type { TrustProxy } from '../api/client-ip';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import { OrderRefusal, parseWagerOrder, type GatewayLimits, type OfferedPaytable, type WagerOrder } from './gateway-order';
import type { PaymentRecord, PaymentRecords } from './payment-records';
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
  keeper: KeeperHandoff;
  log?: Logger;
  /** Which proxies in front may say who the client is (--trust-proxy, see api/client-ip.ts); default none. */
  trustProxy?: TrustProxy;
}

/** A wager order is a few hundred bytes: a body over this is refused (413) before it is read to its end. */
export const GATEWAY_MAX_BODY_BYTES = 16 * 1024;

const fail = (c: Context, status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  c.json({ error, ...extra }, status as 400, headers);

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
  paidAt: record.createdAt,
});

export function createGatewayApp(options: GatewayAppOptions): Hono {
  const { seller, purchase, records, offered, limits, log } = options;
  const app = new Hono();
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
        if (used) return fail(c, 409, `this payment was already used, for wager ${used.wager}: a new wager needs a new payment`, { wager: used.wager });
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
    const result = await seller.processHTTPRequest(context);
    if (result.type === 'payment-error') {
      const { status, headers, body: answer } = result.response;
      const reason = (answer as { error?: string } | undefined)?.error;
      const error =
        status === 402
          ? `payment required: ${formatUsdcAmount(order.price)} USDC (the stake${limits.fee > 0n ? ' plus the gateway fee' : ''}) to ${options.address}, as the PAYMENT-REQUIRED header says${reason ? ` (${reason})` : ''}`
          : (reason ?? `payment refused (${status})`);
      return c.json({ ...(typeof answer === 'object' && answer !== null ? answer : {}), error }, status as 402, headers);
    }
    if (result.type !== 'payment-verified') return fail(c, 500, 'internal error: the wager route asked for no payment');
    const settled = result.beforeHandlerSettlement?.result;
    if (!settled?.success) return fail(c, 402, `the payment did not settle: ${settled?.errorReason ?? 'no settlement'}; no wager was opened`);

    const transaction = (result.paymentPayload.payload as { transaction: string }).transaction;
    const proof = proofIdOf(transaction);
    let record: PaymentRecord;
    try {
      // Recorded before the wager is opened: a crash from here on is finished on restart.
      record = records.recordPaid({
        proof,
        settlement: settled.transaction,
        payer: settled.payer ?? '',
        amount: result.paymentRequirements.amount,
        paytable: order.paytable.name,
        stake: order.stake.toString(),
        beneficiary: order.beneficiary,
        nonce: nonceOfProof(proof).toString(),
        wager: await purchase.wagerFor(proof),
      });
    } catch (error) {
      const used = records.byProof(proof);
      if (used) return fail(c, 409, `this payment was already used, for wager ${used.wager}: a new wager needs a new payment`, { wager: used.wager });
      throw error;
    }
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
      unfinishedPayments: records.unfinished().length,
    });
  });

  app.notFound((c) => fail(c, 404, `no route ${c.req.method} ${c.req.path}: the gateway serves POST /wager, GET /wager/:address, GET /paytables, GET /health`));
  app.onError((error, c) => {
    log?.error({ error: error.message }, 'gateway error');
    return fail(c, 500, 'internal error');
  });
  return app;
}
