/**
 * Paid wagers through the x402 gateway, end to end on the localnet: each caller request from the first
 * POST (402) to the 201, as @x402/fetch does it (402, pay, paid retry). Sequential first (p50/p99 of one
 * caller), then `concurrency` callers at once (paid requests per second). Every RPC call the gateway makes
 * (its own, its facilitator's, its confirmer's) goes through counting proxies: JSON-RPC over HTTP, and every
 * request over the WebSocket (subscribe, unsubscribe): calls per paid wager count both.
 * The keeper handoff is a no-op here (the localnet's wagers are not settled; only the gateway is measured).
 * Prints JSON; asserts nothing. `npm run bench:gateway [-- requests concurrency]` (default 40 4).
 */
import { createSolanaRpc, generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstructionAsync, getTransferCheckedInstruction, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createServer, request as httpRequest } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSignatureConfirmer } from '../src-main/chain/signature-confirmer';
import { createTransactionSender } from '../src-main/chain/transaction-sender';
import { serveGateway } from '../src-main/gateway/gateway-server';
import { fundLocalGateway } from '../src-main/gateway/local-gateway-funding';
import { localnetX402Client } from '../src-main/gateway/localnet-payer';
import { startLocalnet } from '../src-main/localnet/localnet';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';

const requests = Number(process.argv[2] ?? 40);
const concurrency = Number(process.argv[3] ?? 4);
const localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });

// The counting proxy in front of the localnet's JSON-RPC.
let calls: Record<string, number> = {};
const upstream = new URL(localnet.rpcUrl);
const proxy = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    const body = Buffer.concat(chunks);
    try {
      const parsed = JSON.parse(body.toString()) as { method: string } | { method: string }[];
      for (const { method } of Array.isArray(parsed) ? parsed : [parsed]) calls[method] = (calls[method] ?? 0) + 1;
    } catch {
      /* not JSON: forwarded as is */
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: '/', method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.end(body);
  });
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

// The counting proxy in front of its WebSocket: each request the gateway sends (subscribe, unsubscribe) counts.
const wsProxy = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wsProxy.on('connection', (client) => {
  const upstreamSocket = new WebSocket(localnet.wsUrl);
  const pending: string[] = [];
  upstreamSocket.on('open', () => pending.splice(0).forEach((message) => upstreamSocket.send(message)));
  upstreamSocket.on('message', (data) => client.send(data.toString()));
  upstreamSocket.on('close', () => client.close());
  client.on('message', (data) => {
    const text = data.toString();
    try {
      const { method } = JSON.parse(text) as { method: string };
      calls[`ws:${method}`] = (calls[`ws:${method}`] ?? 0) + 1;
    } catch {
      /* not JSON: forwarded as is */
    }
    if (upstreamSocket.readyState === WebSocket.OPEN) upstreamSocket.send(text);
    else pending.push(text);
  });
  client.on('close', () => upstreamSocket.close());
});
await new Promise<void>((resolve) => wsProxy.once('listening', resolve));
const wsProxyUrl = `ws://127.0.0.1:${(wsProxy.address() as AddressInfo).port}`;

const gatewayKey = await generateKeyPairSigner();
await fundLocalGateway(localnet.rpcUrl, localnet.manifest, gatewayKey);
const served = await serveGateway({
  rpcUrl: proxyUrl,
  wsUrl: wsProxyUrl,
  signer: gatewayKey,
  dbPath: join(mkdtempSync(join(tmpdir(), 'wk-bench-gateway-')), 'gateway.db'),
  deployment: localnet.manifest,
  paytables: ['coin-flip'],
  limits: { minStake: 10_000n, maxStake: 100_000_000n, fee: 0n },
  // One caller pays every sequential wager: the per-address and per-payer limits (10 paid a minute) would
  // answer 429 after a few. The bench measures the paid path, not the limits: lift them.
  rateLimits: { perAddress: { perMinute: 1_000_000, burst: 1_000_000 }, perPayer: { perMinute: 1_000_000, burst: 1_000_000 } },
  keeper: { submit: async () => undefined, lookup: async () => null },
  port: 0,
  host: '127.0.0.1',
  portFlag: '--port',
});

// Callers, each with 100 test USDC from the dev app key.
const app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
const mint = localnet.manifest.usdcMint as Address;
const ata = async (owner: Address) => (await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
const localRpc = createSolanaRpc(localnet.rpcUrl);
const confirmer = createSignatureConfirmer(localRpc);
const sender = createTransactionSender({ rpc: localRpc, confirmer, payer: app });
const callers: { signer: KeyPairSigner; pay: typeof fetch }[] = [];
for (let i = 0; i < concurrency; i++) {
  const signer = await generateKeyPairSigner();
  await sender.send([
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, mint, owner: signer.address }),
    getTransferCheckedInstruction({ source: await ata(app.address), mint, destination: await ata(signer.address), authority: app, amount: 100_000_000n, decimals: 6 }),
  ]);
  const client = localnetX402Client({ signer, rpcUrl: localnet.rpcUrl, network: localnet.manifest.network, usdcMint: mint });
  callers.push({ signer, pay: wrapFetchWithPayment(fetch, client) as typeof fetch });
}

const beneficiary = (await generateKeyPairSigner()).address;
const paidOnce = async (caller: (typeof callers)[number]) => {
  const started = performance.now();
  const response = await caller.pay(`${served.url}/wager`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paytable: 'coin-flip', amount: '0.10', beneficiary }),
  });
  if (response.status !== 201) throw new Error(`paid request answered ${response.status}: ${await response.text()}`);
  return performance.now() - started;
};

// The gateway's WebSocket requests before the first paid request (its one subscription, made at start).
const wsAtStart = Object.fromEntries(Object.entries(calls).filter(([method]) => method.startsWith('ws:')));
calls = {}; // only the measured requests count (not the start, not the callers' set-up)
const sequential: number[] = [];
for (let i = 0; i < requests; i++) sequential.push(await paidOnce(callers[0]!));
const sequentialCalls = { ...calls };

const parallelStarted = performance.now();
await Promise.all(callers.map(async (caller) => {
  for (let i = 0; i < Math.ceil(requests / concurrency); i++) await paidOnce(caller);
}));
const parallelSeconds = (performance.now() - parallelStarted) / 1000;
const parallelCount = Math.ceil(requests / concurrency) * concurrency;

confirmer.stop();
await served.stop();
proxy.close();
wsProxy.close();
await localnet.stop();
const sorted = [...sequential].sort((a, b) => a - b);
const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const total = Object.values(sequentialCalls).reduce((a, b) => a + b, 0);
console.log(
  JSON.stringify(
    {
      bench: 'gateway-paid',
      slotMs: 100,
      sequential: { requests, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(sorted.at(-1)!) },
      concurrent: { callers: concurrency, requests: parallelCount, seconds: Number(parallelSeconds.toFixed(2)), paidPerSecond: Number((parallelCount / parallelSeconds).toFixed(1)) },
      // HTTP JSON-RPC calls and WebSocket requests ("ws:" methods) together.
      rpcCallsPerPaidWager: Number((total / requests).toFixed(1)),
      rpcCallsByMethod: Object.fromEntries(Object.entries(sequentialCalls).map(([method, n]) => [method, Number((n / requests).toFixed(2))])),
      wsRequestsAtStart: wsAtStart,
    },
    null,
    2,
  ),
);
