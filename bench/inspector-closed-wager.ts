/**
 * How the Inspector answers for a closed wager that the keeper never tracked (found only in the chain's
 * history): time and RPC calls, per answer. The embedded localnet in process; wagers opened with the dev
 * app key and settled by a keeper with its own store, then inspected through a fresh counting RPC client
 * (the same inspection `inspect` and the console use). Then what opening a step costs (its transaction in
 * full, read only when the step opens) and the failed-attempts section. Prints JSON; asserts nothing.
 * `npm run bench:inspector [-- wagers]` (default 10).
 */
import { address, createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKeeperCore } from '../src-main/runtime/keeper-core';
import { openLocalnetWager } from '../src-main/localnet/dev-app-wager';
import { startLocalnet } from '../src-main/localnet/localnet';
import { inspectWager } from '../src-main/read-models/wager-inspection';
import { readWagerTransaction } from '../src-main/read-models/wager-transaction';
import { chainFailedAttempts } from '../src-main/read-models/wager-transaction-attempts';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';

const count = Number(process.argv[2] ?? 10);
const localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
const keeper = await startKeeperCore({
  rpcUrl: localnet.rpcUrl,
  wsUrl: localnet.wsUrl,
  signer: await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair),
  programAddress: address(localnet.manifest.programs.wager),
  dbPath: join(mkdtempSync(join(tmpdir(), 'wk-bench-inspector-')), 'keeper.db'),
});
const baseRpc = keeper.connection.rpc;
const wagers: string[] = [];
for (let i = 0; i < count; i++) {
  const { wager } = await openLocalnetWager({ rpc: baseRpc, manifest: localnet.manifest, paytable: 'dice', stake: 1_000_000n });
  await keeper.keeper.submitWager(wager);
  wagers.push(wager);
}
// Wait until every wager is closed on chain.
for (;;) {
  const { value } = await baseRpc.getMultipleAccounts(wagers.map((w) => address(w)), { encoding: 'base64' }).send();
  if (value.every((account) => account === null)) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await keeper.stop();

let calls: Record<string, number> = {};
const inner = createDefaultRpcTransport({ url: localnet.rpcUrl });
const counting: RpcTransport = (request) => {
  const method = (request.payload as { method: string }).method;
  calls[method] = (calls[method] ?? 0) + 1;
  return inner(request);
};
const rpc = createSolanaRpcFromTransport(counting);
const answers: { ms: number; calls: number; ended: unknown }[] = [];
const byMethod: Record<string, number> = {};
const programs = { wager: address(localnet.manifest.programs.wager), oracle: address(localnet.manifest.programs.oracle) };
/** Opening the settle step, then the failed-attempts section: time and RPC calls of each. */
const lazy = { step: [] as number[], stepCalls: 0, attempts: [] as number[], attemptsCalls: 0 };
const totalCalls = () => Object.values(calls).reduce((a, b) => a + b, 0);
for (const wager of wagers) {
  calls = {};
  const started = performance.now();
  const { report } = await inspectWager(rpc, localnet.rpcUrl, address(wager), { programs });
  answers.push({ ms: performance.now() - started, calls: totalCalls(), ended: report.ended });
  for (const [method, n] of Object.entries(calls)) byMethod[method] = (byMethod[method] ?? 0) + n;
  const parties = { stakeOwner: String(report.stakeOwner), beneficiary: String(report.beneficiary), app: String(report.app), payer: String(report.payer) };
  calls = {};
  const stepStarted = performance.now();
  await readWagerTransaction(rpc, String(report.settleSignature), { wager: address(wager), parties, programs, usdcMint: localnet.manifest.usdcMint, keeper: null, cluster: 'localnet', rpcUrl: localnet.rpcUrl });
  lazy.step.push(performance.now() - stepStarted);
  lazy.stepCalls = totalCalls();
  calls = {};
  const attemptsStarted = performance.now();
  await chainFailedAttempts(rpc, address(wager), programs);
  lazy.attempts.push(performance.now() - attemptsStarted);
  lazy.attemptsCalls = totalCalls();
}
const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
await localnet.stop();
const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      bench: 'inspector-closed-wager',
      wagers: count,
      allSettled: answers.every((a) => a.ended === 'settled'),
      answerMs: { min: Math.round(ms[0]!), median: Math.round(ms[Math.floor(ms.length / 2)]!), max: Math.round(ms.at(-1)!) },
      rpcCallsPerAnswer: answers[0]!.calls,
      rpcCallsByMethod: Object.fromEntries(Object.entries(byMethod).map(([method, n]) => [method, n / count])),
      openStep: { medianMs: median(lazy.step), rpcCalls: lazy.stepCalls, what: 'getTransaction of the settle transaction' },
      failedAttempts: { medianMs: median(lazy.attempts), rpcCalls: lazy.attemptsCalls, what: 'getSignaturesForAddress on the wager, plus one getTransaction per failed one (none here)' },
    },
    null,
    2,
  ),
);
