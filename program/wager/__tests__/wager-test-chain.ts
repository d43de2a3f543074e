/**
 * A fresh LiteSVM chain for wager-program tests: the local oracle and the wager program deployed through
 * the upgradeable loader, a USDC mint, the standard paytables, pool liquidity seeded through a real
 * deposit epoch, and helpers that drive a wager through its steps the way a keeper would.
 */
import { generateKeyPairSigner, lamports, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTokenDecoder } from '@solana-program/token';
import { LiteSVM } from 'litesvm';
import { bootstrapLocalOracle } from '../../../src-main/localnet/bootstrap-oracle';
import {
  DEFAULT_WAGER_CONFIG,
  STANDARD_PAYTABLES,
  bootstrapWagerProgram,
  createPaytable,
  createUsdcMint,
  mintTokens,
  seedLiquidity,
  type WagerConfigValues,
} from '../../../src-main/localnet/bootstrap-wager';
import { createLiteSvmRunner, type LiteSvmRunner, type TransactionOutcome } from '../../../src-main/localnet/litesvm-runner';
import { getFulfillRandomnessInstructions } from '../../../src-main/protocol/oracle';
import { oracleErrorName, wagerErrorName } from '../../../src-main/protocol/program-errors';
import {
  WAGER_PROGRAM_ADDRESS,
  findPoolPda,
  getClaimPayoutForWager,
  getConfigDecoder,
  getExpireForWager,
  getOpenWagerForApp,
  getPoolDecoder,
  getRequestRandomnessForWager,
  getSettleForWager,
  getWagerDecoder,
  findConfigPda,
  type Pool,
  type SlotHash,
  type Wager,
} from '../../../src-main/protocol/wager';

export const ORACLE_FEE = 10_000n;
export const SEED_LIQUIDITY = 1_000_000_000_000n; // 1 000 000 USDC
export const SOL = 1_000_000_000n;

export interface WagerTestChain {
  runner: LiteSvmRunner;
  admin: KeyPairSigner;
  guardian: KeyPairSigner;
  usdc: { address: Address; authority: KeyPairSigner };
  oracle: { programAddress: Address; networkState: Address; treasury: Address; fulfiller: KeyPairSigner };
  paytables: Record<string, Address>;
  /** The app: signs every open as integrator authority. */
  app: KeyPairSigner;
  /** A player: stake owner, payer of its wagers, and owner of the beneficiary account. */
  player: KeyPairSigner;
  playerUsdc: Address;
  /** A third party cranking the permissionless steps. */
  keeper: KeyPairSigner;
  lp: KeyPairSigner;
  lpShares: Address;
}

export interface ChainOptions {
  config?: Partial<WagerConfigValues>;
  liquidity?: bigint;
}

export async function createWagerTestChain(options: ChainOptions = {}): Promise<WagerTestChain> {
  const runner = createLiteSvmRunner(new LiteSVM());
  const fund = async (sol: bigint) => {
    const signer = await generateKeyPairSigner();
    runner.svm.airdrop(signer.address, lamports(sol * SOL));
    return signer;
  };
  const admin = await fund(100n);
  const [guardian, app, player, keeper, lp, fulfiller, mintAuthority] = await Promise.all([
    fund(1n), fund(1n), fund(10n), fund(10n), fund(10n), fund(1n), fund(1n),
  ]);
  const treasury = (await fund(1n)).address;
  const oracle = await bootstrapLocalOracle(runner, { payer: admin, treasury, requestFee: ORACLE_FEE, fulfillmentAuthorities: [fulfiller.address] });
  const usdc = { address: await createUsdcMint(runner, admin, mintAuthority.address), authority: mintAuthority };
  await bootstrapWagerProgram(runner, {
    admin,
    guardian: guardian.address,
    usdcMint: usdc.address,
    oracleProgram: oracle.programAddress,
    config: options.config,
  });
  const paytables: Record<string, Address> = {};
  for (const paytable of STANDARD_PAYTABLES) paytables[paytable.name] = await createPaytable(runner, admin, paytable);
  const lpShares = options.liquidity === 0n ? ('' as Address) : await seedLiquidity(runner, lp, usdc, options.liquidity ?? SEED_LIQUIDITY);
  const playerUsdc = await mintTokens(runner, player, usdc, player.address, 10_000_000_000n);
  return {
    runner, admin, guardian, usdc, paytables, app, player, playerUsdc, keeper, lp, lpShares,
    oracle: { ...oracle, treasury, fulfiller },
  };
}

export const lamportsOf = (chain: WagerTestChain, address: Address): bigint => chain.runner.svm.getBalance(address) ?? 0n;

export function usdcOf(chain: WagerTestChain, tokenAccount: Address): bigint {
  const account = chain.runner.svm.getAccount(tokenAccount);
  return account.exists ? getTokenDecoder().decode(account.data).amount : 0n;
}

export function readWager(chain: WagerTestChain, address: Address): Wager | null {
  const account = chain.runner.svm.getAccount(address);
  return account.exists && account.data.length > 0 ? getWagerDecoder().decode(account.data) : null;
}

export async function readPool(chain: WagerTestChain): Promise<Pool> {
  const account = chain.runner.svm.getAccount((await findPoolPda())[0]);
  if (!account.exists) throw new Error('no pool');
  return getPoolDecoder().decode(account.data);
}

export async function readConfig(chain: WagerTestChain) {
  const account = chain.runner.svm.getAccount((await findConfigPda())[0]);
  if (!account.exists) throw new Error('no config');
  return getConfigDecoder().decode(account.data);
}

/**
 * The error name of a failed transaction: the wager program's name for its own errors, `oracle.<name>`
 * when the error came from the oracle (both number theirs from 6000), else the runtime's name.
 */
export function errorNameOf(outcome: TransactionOutcome): string | undefined {
  if (outcome.ok) return undefined;
  const code = outcome.failure?.customCode;
  if (code === undefined) return outcome.failure?.name;
  // The first "failed" line names the program where the error arose (callers repeat it after).
  const origin = outcome.logs.find((line) => / failed: /.test(line))?.split(' ')[1];
  if (origin && origin !== WAGER_PROGRAM_ADDRESS) return `oracle.${oracleErrorName(code) ?? `Custom(${code})`}`;
  return wagerErrorName(code) ?? `Custom(${code})`;
}

let nextNonce = 1n;

export interface OpenOptions {
  paytable?: string;
  stake?: bigint;
  nonce?: bigint;
  beneficiary?: Address;
  payer?: KeyPairSigner;
  /** Replace accounts of the built instruction, by name, to attempt substitutions. */
  override?: (ix: Instruction) => Instruction;
}

export async function openWagerInstruction(chain: WagerTestChain, options: OpenOptions = {}) {
  const nonce = options.nonce ?? nextNonce++;
  const { instruction, wager, wagerFees } = await getOpenWagerForApp({
    payer: options.payer ?? chain.player,
    stakeOwner: chain.player,
    integratorAuthority: chain.app,
    paytable: chain.paytables[options.paytable ?? 'coin-flip']!,
    stakeSource: chain.playerUsdc,
    beneficiary: options.beneficiary ?? chain.playerUsdc,
    oracleNetworkState: chain.oracle.networkState,
    stake: options.stake ?? 1_000_000n,
    nonce,
  });
  return { instruction: options.override ? options.override(instruction) : instruction, wager, wagerFees, nonce };
}

export async function openWager(chain: WagerTestChain, options: OpenOptions = {}) {
  const built = await openWagerInstruction(chain, options);
  const outcome = await chain.runner.send(options.payer ?? chain.player, [built.instruction]);
  return { ...built, outcome };
}

function mustRead(chain: WagerTestChain, wager: Address): Wager {
  const record = readWager(chain, wager);
  if (!record) throw new Error(`no wager at ${wager}`);
  return record;
}

export async function requestRandomness(chain: WagerTestChain, wager: Address, caller = chain.keeper, slotHashes?: readonly SlotHash[]) {
  const built = await getRequestRandomnessForWager({
    caller,
    wagerAddress: wager,
    wager: mustRead(chain, wager),
    oracle: chain.oracle,
    slotHashes: slotHashes ?? chain.runner.svm.getSlotHashes(),
  });
  return { ...built, outcome: await chain.runner.send(caller, [built.instruction]) };
}

export async function fulfil(chain: WagerTestChain, wager: Address) {
  const record = mustRead(chain, wager);
  const instructions = await getFulfillRandomnessInstructions({
    authority: chain.oracle.fulfiller,
    request: record.oracleRequest,
    seed: Uint8Array.from(record.seed),
  });
  return chain.runner.sendOrThrow(chain.admin, instructions);
}

export async function settle(chain: WagerTestChain, wager: Address, caller = chain.keeper) {
  const ix = await getSettleForWager({ caller, wagerAddress: wager, wager: mustRead(chain, wager) });
  return chain.runner.send(caller, [ix]);
}

export async function expire(chain: WagerTestChain, wager: Address, caller = chain.keeper) {
  const ix = await getExpireForWager({ caller, wagerAddress: wager, wager: mustRead(chain, wager) });
  return chain.runner.send(caller, [ix]);
}

export async function claimPayout(chain: WagerTestChain, wager: Address, caller = chain.keeper) {
  const ix = await getClaimPayoutForWager({ caller, wagerAddress: wager, wager: mustRead(chain, wager) });
  return chain.runner.send(caller, [ix]);
}

export { DEFAULT_WAGER_CONFIG };
