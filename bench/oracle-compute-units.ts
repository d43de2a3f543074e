/**
 * Compute units of the local oracle's instructions, measured in LiteSVM (the real Agave runtime).
 * Prints figures; asserts nothing. `npm run bench:oracle [-- samples]`.
 *
 * request_v2 varies with the seed: finding the request PDA's bump costs ~1 500 CU per bump tried.
 */
import { generateKeyPairSigner, lamports } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { bootstrapLocalOracle } from '../src-main/localnet/bootstrap-oracle';
import { createLiteSvmRunner } from '../src-main/localnet/litesvm-runner';
import { findRandomnessRequestPda, getFulfillRandomnessInstructions, getRequestV2InstructionAsync } from '../src-main/protocol/oracle';
import { readProgramBytes } from '../src-main/protocol/program-artifacts';

const samples = Number(process.argv[2] ?? 50);
const runner = createLiteSvmRunner(new LiteSVM());
const payer = await generateKeyPairSigner();
const fulfiller = await generateKeyPairSigner();
const treasury = (await generateKeyPairSigner()).address;
runner.svm.airdrop(payer.address, lamports(1_000_000_000_000n));
runner.svm.airdrop(treasury, lamports(1_000_000_000n));
const { programAddress } = await bootstrapLocalOracle(runner, { payer, treasury, requestFee: 10_000n, fulfillmentAuthorities: [fulfiller.address] });

const requestUnits: number[] = [];
const fulfilUnits: number[] = [];
for (let i = 0; i < samples; i++) {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const request = await runner.sendOrThrow(payer, [await getRequestV2InstructionAsync({ payer, treasury, seed }, { programAddress })]);
  requestUnits.push(Number(request.computeUnits));
  const [requestAddress] = await findRandomnessRequestPda({ seed }, { programAddress });
  const fulfil = await runner.sendOrThrow(payer, await getFulfillRandomnessInstructions({ authority: fulfiller, request: requestAddress, seed }));
  fulfilUnits.push(Number(fulfil.computeUnits));
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { min: sorted[0]!, median: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
};
console.log(`local oracle compute units over ${samples} requests (program ${(await readProgramBytes('oracle')).length} bytes)`);
console.table({
  request_v2: summary(requestUnits),
  'fulfill (the Ed25519 precompile instruction beside it charges no CU)': summary(fulfilUnits),
});
console.log(JSON.stringify({ samples, programBytes: (await readProgramBytes('oracle')).length, request_v2: summary(requestUnits), fulfill: summary(fulfilUnits) }));
