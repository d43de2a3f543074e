/** A fresh LiteSVM chain with the local oracle deployed and configured, for each test. */
import { generateKeyPairSigner, lamports, type Address, type KeyPairSigner } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { bootstrapLocalOracle } from '../../../src-main/localnet/bootstrap-oracle';
import { createLiteSvmRunner, type LiteSvmRunner, type TransactionOutcome } from '../../../src-main/localnet/litesvm-runner';
import { ORACLE_ERRORS } from '../../idl/oracle-idl';

export const REQUEST_FEE = 10_000n;

export interface OracleTestChain {
  runner: LiteSvmRunner;
  payer: KeyPairSigner;
  fulfiller: KeyPairSigner;
  treasury: Address;
  programAddress: Address;
  networkState: Address;
}

export interface OracleTestChainOptions {
  /** Default REQUEST_FEE. */
  requestFee?: bigint;
  /** Default true: the treasury is an existing, rent-exempt account. */
  fundTreasury?: boolean;
}

export async function createOracleTestChain(options: OracleTestChainOptions = {}): Promise<OracleTestChain> {
  const runner = createLiteSvmRunner(new LiteSVM());
  const payer = await generateKeyPairSigner();
  runner.svm.airdrop(payer.address, lamports(100_000_000_000n));
  const fulfiller = await generateKeyPairSigner();
  const treasury = (await generateKeyPairSigner()).address;
  if (options.fundTreasury ?? true) runner.svm.airdrop(treasury, lamports(1_000_000_000n));
  const oracle = await bootstrapLocalOracle(runner, {
    payer,
    treasury,
    requestFee: options.requestFee ?? REQUEST_FEE,
    fulfillmentAuthorities: [fulfiller.address],
  });
  return { runner, payer, fulfiller, treasury, ...oracle };
}

/**
 * The Ed25519 signature-verify precompile's error codes (Agave's `PrecompileError`, in declaration
 * order): a transaction the precompile refuses ends with `Custom(code)` at the precompile's index.
 */
export const PRECOMPILE_ERRORS = [
  'InvalidPublicKey',
  'InvalidRecoveryId',
  'InvalidSignature',
  'InvalidDataOffsets',
  'InvalidInstructionDataSize',
] as const;

/** The precompile error a failed transaction ended with, with the index of the failing instruction. */
export function precompileErrorOf(outcome: TransactionOutcome): { instructionIndex?: number; name: string } | undefined {
  const code = outcome.ok ? undefined : outcome.failure?.customCode;
  if (code === undefined) return undefined;
  const instructionIndex = outcome.failure?.instructionIndex;
  return { ...(instructionIndex !== undefined && { instructionIndex }), name: PRECOMPILE_ERRORS[code] ?? `Custom(${code})` };
}

/** The oracle error name (as in the IDL) a failed transaction ended with, or the runtime's error name. */
export function errorNameOf(outcome: TransactionOutcome): string | undefined {
  if (outcome.ok) return undefined;
  const code = outcome.failure?.customCode;
  if (code === undefined) return outcome.failure?.name;
  return ORACLE_ERRORS.find(([, c]) => c === code)?.[0] ?? `Custom(${code})`;
}

export const randomSeed = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32));

export const balanceOf = (chain: OracleTestChain, address: Address): bigint => chain.runner.svm.getBalance(address) ?? 0n;
