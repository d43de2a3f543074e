/**
 * The x402 gateway assembled: reads the cluster (genesis hash → CAIP-2 network id; the deployment's
 * wager program, USDC mint, oracle and paytables, checked against the program's config and accounts), opens its payment records, makes sure its USDC
 * account exists (callers pay into it), builds the x402 seller and the HTTP app, and finishes payments a
 * crash or a lost confirmation left half done (pending: resolved by signature status; paid: opened or
 * refunded), at start and then every few seconds until none is left. On mainnet-beta it refuses to start
 * with a `--fee` below what a wager costs it in SOL (gateway-costs.ts).
 */
import { address, createSolanaRpcSubscriptions, getBase64Encoder, type Address, type KeyPairSigner } from '@solana/kit';
import { connectToChain, createChainRpc, defaultWebSocketUrl } from '../chain/rpc-connection';
import type { ChainEndpoints } from '../chain/rpc-endpoints';
import { getCreateAssociatedTokenIdempotentInstructionAsync } from '@solana-program/token';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { solanaNetworkId } from '../chain/network-id';
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender } from '../chain/transaction-sender';
import { fetchConfig, fetchNetworkStateBytes } from '../keeper/chain-view';
import { MAINNET_BETA_GENESIS_HASH } from '../../src-shared/cluster-identity';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import { checkFeeCoversCost, wagerCost } from './gateway-costs';
import { createPaymentLedger } from './payment-ledger';
import { paymentFate } from './payment-resolver';
import type { KeeperService } from '../keeper/keeper-service';
import { findNetworkStatePda } from '../protocol/oracle';
import type { Deployment } from '../protocol/deployment';
import { deploymentPaytable } from '../deployment/deployment-resolver';
import { encodePaytableName, findConfigPda, findPaytablePda, getPaytableDecoder } from '../protocol/wager';
import { createGatewayApp, type GatewayRateLimits, type KeeperHandoff } from './gateway-app';
import type { TrustProxy } from '../api/client-ip';
import type { GatewayLimits, OfferedPaytable } from './gateway-order';
import { openPaymentRecords, type PaymentRecord } from './payment-records';
import { createSubscribedConfirmer } from '../chain/subscribed-confirmer';
import { createWagerPurchase } from './wager-purchase';
import { createX402Seller } from './x402-seller';

/** How often payments a crash, a lost confirmation (or an unreachable RPC) left unfinished are retried. */
const RECOVERY_INTERVAL_MS = 5_000;
/** How long the start waits for the confirmation subscription before it serves anyway (polling meanwhile). */
const SUBSCRIBE_WAIT_MS = 3_000;

export interface GatewayOptions {
  rpcUrl: string;
  /** The cluster's WebSocket (a logs subscription confirms the gateway's transactions); default: the RPC's host, port + 1. */
  wsUrl?: string;
  /** Several read endpoints with failover and send endpoints (--rpc/--ws/--send-rpc repeated, issue 27). */
  endpoints?: ChainEndpoints;
  signer: KeyPairSigner;
  /** The gateway's SQLite file of payments. */
  dbPath: string;
  /** Where the service is on this cluster: programs, USDC mint, paytables. */
  deployment: Pick<Deployment, 'programs' | 'usdcMint' | 'paytables'>;
  /** The paytable names offered (each one of the deployment's). */
  paytables: readonly string[];
  limits: GatewayLimits;
  keeper: KeeperHandoff;
  log?: Logger;
  /** --trust-proxy: which proxies in front may say who the client is, for the gateway's per-address limits. */
  trustProxy?: TrustProxy;
  /** USD per SOL, to check `limits.fee` against a wager's SOL cost on mainnet-beta (--sol-price). */
  solPriceUsd?: number;
  /** POST /wager's limits per address and per payer (defaults in gateway-app.ts). */
  rateLimits?: Partial<GatewayRateLimits>;
  /** How long a paid request waits for its payment's confirmation before it answers 202 (tests). */
  paymentConfirmMs?: number;
  /** Between two passes over unfinished payments (default 5 s; tests). */
  recoveryIntervalMs?: number;
}

export interface Gateway {
  app: Hono;
  address: Address;
  network: string;
  /** Finishes every recorded payment whose wager is neither opened nor refunded (returns what it did). */
  finishUnfinished(): Promise<PaymentRecord[]>;
  stop(): Promise<void>;
}

/** Hands wagers to the keeper of this process. */
export const inProcessKeeper = (keeper: Pick<KeeperService, 'submitWager' | 'lookupWager'>): KeeperHandoff => ({
  submit: async (wager) => void (await keeper.submitWager(wager)),
  lookup: (wager) => keeper.lookupWager(wager),
});

/** Hands wagers to a keeper's public /v1 API at `baseUrl`. */
export const remoteKeeper = (baseUrl: string): KeeperHandoff => ({
  async submit(wager) {
    const response = await fetch(`${baseUrl}/v1/wagers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wager }) });
    if (!response.ok) throw new Error(`the keeper at ${baseUrl} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  },
  async lookup(wager) {
    const response = await fetch(`${baseUrl}/v1/wagers/${wager}`);
    return response.ok ? response.json() : null;
  },
});

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { signer, log } = options;
  const { endpoints } = options;
  const connection = endpoints && (endpoints.reads.length > 1 || endpoints.sends.length > 0) ? connectToChain(endpoints) : undefined;
  const rpc = connection?.rpc ?? createChainRpc(options.rpcUrl);
  const { deployment } = options;
  const program = address(deployment.programs.wager);
  const genesisHash = await rpc.getGenesisHash().send();
  const network = solanaNetworkId(genesisHash);
  const config = await fetchConfig(rpc, (await findConfigPda({ programAddress: program }))[0]);
  // The deployment document and the program's own config must agree, or payments would be taken in the wrong mint.
  if (config.usdcMint !== deployment.usdcMint)
    throw new Error(`the deployment names USDC mint ${deployment.usdcMint}, but the wager program's config on this cluster uses ${config.usdcMint}: the deployment file is out of date`);
  const oracleProgram = address(deployment.programs.oracle);
  const [oracleNetworkState] = await findNetworkStatePda({ programAddress: oracleProgram });
  if (genesisHash === MAINNET_BETA_GENESIS_HASH) {
    const networkState = await fetchNetworkStateBytes(rpc, oracleNetworkState, oracleProgram);
    const cost = wagerCost({
      requestFee: config.requestFee,
      settleFee: config.settleFee,
      expireFee: config.expireFee,
      oracleFee: new DataView(networkState.buffer, networkState.byteOffset + 72, 8).getBigUint64(0, true), // NetworkState request fee, bytes 72..80
      oracleRequestRent: await rpc.getMinimumBalanceForRentExemption(config.oracleRequestSize).send(),
    });
    checkFeeCoversCost({ mainnet: true, fee: options.limits.fee, cost, solPriceUsd: options.solPriceUsd, formatUsdc: formatUsdcAmount });
  }

  const offered = new Map<string, OfferedPaytable>();
  for (const name of options.paytables) {
    let paytable: Address;
    try {
      paytable = deploymentPaytable(deployment, name);
    } catch (error) {
      throw new Error(`--paytables: ${(error as Error).message}`, { cause: error });
    }
    const { value } = await rpc.getAccountInfo(paytable, { encoding: 'base64', commitment: 'confirmed' }).send();
    if (!value || value.owner !== program) throw new Error(`--paytables: the deployment's paytable '${name}' (${paytable}) is not an account of the wager program on this cluster`);
    const { buckets, bucketCount } = getPaytableDecoder().decode(getBase64Encoder().encode(value.data[0]));
    offered.set(name, { name, address: paytable, buckets: buckets.slice(0, bucketCount) });
  }

  const records = openPaymentRecords(options.dbPath);
  // Subscriptions confirm; the poller steps in only if the WebSocket fails or stays silent.
  const confirmer = createSubscribedConfirmer(connection?.subscriptions ?? createSolanaRpcSubscriptions(options.wsUrl ?? defaultWebSocketUrl(options.rpcUrl)), signer.address, createSignatureConfirmer(rpc));
  const sender = createTransactionSender({ rpc, confirmer, payer: signer });
  // Subscribed before the first payment (or given up for now: polling until the WebSocket answers).
  await Promise.race([confirmer.ready, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref())]);
  const purchase = createWagerPurchase(
    { rpc, sender, confirmer, signer, program, usdcMint: config.usdcMint, oracleNetworkState, programs: { wager: program, oracle: oracleProgram } },
    records,
  );
  // Callers pay into the gateway's USDC account: it must exist before the first 402 is answered.
  if (!(await purchase.balances()).usdcAccountExists)
    await sender.send([await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: signer, mint: config.usdcMint, owner: signer.address })]);
  const ledger = createPaymentLedger(records);
  const seller = await createX402Seller({ rpc, confirmer, network, signer, usdcMint: config.usdcMint, broadcasts: ledger, paymentConfirmMs: options.paymentConfirmMs });
  const app = createGatewayApp({
    address: signer.address,
    network,
    usdcMint: config.usdcMint,
    offered,
    limits: options.limits,
    seller,
    purchase,
    records,
    ledger,
    keeper: options.keeper,
    log,
    trustProxy: options.trustProxy ?? false,
    rateLimits: options.rateLimits,
  });

  /** Pending payments (broadcast, confirmation not seen) no request waits for: landed → paid, never landed → dropped. */
  const resolvePending = async () => {
    for (const record of records.pending().filter((r) => !ledger.isSettling(r.proof))) {
      try {
        const fate = await paymentFate(rpc, record);
        if (fate.landed) {
          records.markPaid(record.proof);
          log?.info({ wager: record.wager, settlement: record.settlement }, 'a pending payment landed; opening its wager');
        } else if (fate.dropped) {
          records.markDropped(record.proof, fate.dropped);
          log?.info({ wager: record.wager, settlement: record.settlement, reason: fate.dropped }, 'a pending payment was dropped');
        }
      } catch (error) {
        log?.warn({ wager: record.wager, error: (error as Error).message }, 'a pending payment is still undecided; retrying later');
      }
    }
  };
  /** Not a request's to finish: one settling its payment or opening its wager now finishes it itself. */
  const untaken = (record: PaymentRecord) => !purchase.isOpening(record.proof) && !ledger.isSettling(record.proof);

  let finishing: Promise<PaymentRecord[]> | undefined;
  const finishUnfinished = () =>
    (finishing ??= (async () => {
      const done: PaymentRecord[] = [];
      await resolvePending();
      for (const listed of records.unfinished()) {
        // Read again: a request may have finished it while the previous one was opened.
        const record = records.byProof(listed.proof);
        if (!record || record.state !== 'paid' || !untaken(record)) continue;
        const [paytable] = await findPaytablePda({ name: encodePaytableName(record.paytable) }, { programAddress: program });
        const order = { paytable: offered.get(record.paytable) ?? { name: record.paytable, address: paytable, buckets: [] }, stake: BigInt(record.stake), beneficiary: address(record.beneficiary) };
        try {
          const finished = await purchase.finish(record, order);
          log?.info({ wager: finished.wager, state: finished.state, settlement: finished.settlement }, 'finished a payment left unfinished');
          if (finished.state === 'opened') await options.keeper.submit(finished.wager as Address).catch(() => undefined);
          done.push(finished);
        } catch (error) {
          log?.warn({ wager: record.wager, error: (error as Error).message }, 'a payment is still unfinished; retrying later');
        }
      }
      return done;
    })().finally(() => (finishing = undefined)));

  await finishUnfinished();
  const waiting = () => [...records.pending(), ...records.unfinished()].some(untaken);
  const retry = setInterval(() => void (waiting() && finishUnfinished()), options.recoveryIntervalMs ?? RECOVERY_INTERVAL_MS);
  retry.unref();

  return {
    app,
    address: signer.address,
    network,
    finishUnfinished,
    async stop() {
      clearInterval(retry);
      await finishing?.catch(() => undefined);
      confirmer.stop();
      connection?.close();
      records.close();
    },
  };
}
