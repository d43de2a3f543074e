/**
 * One request and fulfilment on the local VRF oracle in an in-process runtime: what `wager-keeper
 * oracle-demo` prints, and a quick way to see the whole oracle path work on a new machine.
 */
import { generateKeyPairSigner, getBase16Decoder, lamports } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import {
  findRandomnessRequestPda,
  getFulfillRandomnessInstructions,
  getRandomnessV2Decoder,
  getRequestV2InstructionAsync,
  verifyRandomness,
} from '../protocol/oracle';
import { bootstrapLocalOracle } from './bootstrap-oracle';
import { createLiteSvmRunner } from './litesvm-runner';

export interface OracleDemoResult {
  oracleProgram: string;
  fulfilmentAuthority: string;
  request: string;
  seed: string;
  randomness: string;
  verifiedOffline: boolean;
  computeUnits: { requestV2: number; fulfill: number };
}

export async function runOracleDemo(): Promise<OracleDemoResult> {
  const runner = createLiteSvmRunner(new LiteSVM());
  const payer = await generateKeyPairSigner();
  const fulfiller = await generateKeyPairSigner();
  const treasury = (await generateKeyPairSigner()).address;
  runner.svm.airdrop(payer.address, lamports(10_000_000_000n));
  runner.svm.airdrop(treasury, lamports(1_000_000_000n));
  const { programAddress } = await bootstrapLocalOracle(runner, { payer, treasury, requestFee: 10_000n, fulfillmentAuthorities: [fulfiller.address] });

  const seed = crypto.getRandomValues(new Uint8Array(32));
  const requested = await runner.sendOrThrow(payer, [await getRequestV2InstructionAsync({ payer, treasury, seed }, { programAddress })]);
  const [request] = await findRandomnessRequestPda({ seed }, { programAddress });
  const fulfilled = await runner.sendOrThrow(payer, await getFulfillRandomnessInstructions({ authority: fulfiller, request, seed, oracleProgram: programAddress }));

  const account = runner.svm.getAccount(request);
  const state = getRandomnessV2Decoder().decode(account.exists ? account.data : new Uint8Array());
  if (state.request.__kind !== 'Fulfilled') throw new Error('the request was not fulfilled');
  const hex = getBase16Decoder();
  return {
    oracleProgram: programAddress,
    fulfilmentAuthority: fulfiller.address,
    request,
    seed: hex.decode(seed),
    randomness: hex.decode(state.request.randomness),
    verifiedOffline: await verifyRandomness(fulfiller.address, seed, state.request.randomness),
    computeUnits: { requestV2: Number(requested.computeUnits), fulfill: Number(fulfilled.computeUnits) },
  };
}
