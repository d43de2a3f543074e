/**
 * `wager-keeper open --rpc URL --paytable NAME --amount 1.00 [--beneficiary ADDRESS]`: opens a wager on
 * the localnet with its dev app key (integrator, payer and stake owner), prints {"wager", "beneficiary"}.
 *
 * The payout goes to a USDC token account. --beneficiary may name one (a token account of the localnet's
 * USDC mint, used as is) or a wallet (a system-owned or not yet existing address): then its associated
 * token account is the beneficiary, created in the same transaction when missing (idempotently, paid by
 * the app key). Without --beneficiary the app's own USDC account is.
 */
import {
  address,
  appendTransactionMessageInstructions,
  getBase64Encoder,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  isAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTokenDecoder,
  getTokenSize,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { TransactionFailedError } from '../chain/transaction-sender';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { customErrorName } from '../protocol/program-errors';
import { getOpenWagerForApp } from '../protocol/wager';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import { parseUsdcAmount } from '../protocol/usdc-amount';
import { parseFlags, UsageError } from './cli-flags';

const SYSTEM_PROGRAM_ADDRESS = '11111111111111111111111111111111';

/** The flags of `open` (the usage text in cli.ts lists each; a test checks). */
export const OPEN_OPTIONS = {
  rpc: { type: 'string', default: 'http://127.0.0.1:8899' },
  paytable: { type: 'string' },
  amount: { type: 'string' },
  beneficiary: { type: 'string' },
} as const;

/**
 * The USDC token account that receives the payout for `--beneficiary ADDRESS`, and the instruction that
 * creates it when ADDRESS is a wallet (none when ADDRESS is already a USDC token account).
 */
async function beneficiaryAccount(rpc: Rpc<SolanaRpcApi>, target: Address, usdcMint: Address, payer: KeyPairSigner): Promise<{ account: Address; create: Instruction[] }> {
  const { value } = await rpc.getAccountInfo(target, { encoding: 'base64' }).send();
  if (value && value.owner === TOKEN_PROGRAM_ADDRESS) {
    const data = getBase64Encoder().encode(value.data[0]);
    if (data.length !== getTokenSize()) throw new Error(`${target} is a token program account but not a token account (a mint?); give a wallet or a USDC token account`);
    const { mint } = getTokenDecoder().decode(data);
    if (mint !== usdcMint) throw new Error(`${target} is a token account of mint ${mint}, not of the localnet's test USDC (${usdcMint})`);
    return { account: target, create: [] };
  }
  if (value && value.owner !== SYSTEM_PROGRAM_ADDRESS)
    throw new Error(`${target} is an account of program ${value.owner}: give a wallet or a USDC token account`);
  // A wallet (or an address nothing was sent to yet): its associated token account, created if missing.
  const [account] = await findAssociatedTokenPda({ mint: usdcMint, owner: target, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return { account, create: [await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint: usdcMint, owner: target })] };
}

export async function openCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, OPEN_OPTIONS);
  if (!values.paytable) throw new UsageError('missing --paytable NAME');
  if (!values.amount) throw new UsageError('missing --amount (like 1.00)');
  // SPEC 2.5: a stake is a decimal amount of USDC in two-decimal form (cents), e.g. 1.00 or 2.5.
  if (!/^\s*\d+(\.\d{1,2})?\s*$/.test(values.amount))
    throw new UsageError(`--amount is a USDC amount with at most two decimals (like 1.99), got '${values.amount}'`);
  let stake: bigint;
  try {
    stake = parseUsdcAmount(values.amount);
  } catch (error) {
    throw new UsageError(`--amount: ${(error as Error).message}`, { cause: error });
  }
  if (values.beneficiary !== undefined && !isAddress(values.beneficiary)) throw new UsageError('--beneficiary must be a base58 address');

  const rpc = createSolanaRpc(values.rpc);
  const manifest = await fetchLocalnetManifest(values.rpc).catch((error: Error) => {
    throw new Error(`${values.rpc} is not a reachable wager-keeper localnet: ${error.message}`);
  });
  const paytable = manifest.paytables.find((p) => p.name === values.paytable);
  if (!paytable) throw new Error(`unknown paytable '${values.paytable}'; available: ${manifest.paytables.map((p) => p.name).join(', ')}`);

  const app = await keypairFromBytes(manifest.devKeys.app.keypair);
  const usdcMint = address(manifest.usdcMint);
  const [stakeSource] = await findAssociatedTokenPda({ mint: usdcMint, owner: app.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const beneficiary = values.beneficiary === undefined ? { account: stakeSource, create: [] } : await beneficiaryAccount(rpc, address(values.beneficiary), usdcMint, app);
  const nonce = BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000));
  const { instruction, wager } = await getOpenWagerForApp({
    payer: app,
    stakeOwner: app,
    integratorAuthority: app,
    paytable: address(paytable.address),
    stakeSource,
    beneficiary: beneficiary.account,
    oracleNetworkState: address(manifest.oracle.networkState),
    stake,
    nonce,
  });
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(app, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions([...beneficiary.create, instruction], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const wire = getBase64EncodedWireTransaction(signed);
  // Simulated first so that a refusal names its reason (e.g. perWagerCap), not just "simulation failed".
  const { value: simulation } = await rpc.simulateTransaction(wire, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (simulation.err) {
    const failure = new TransactionFailedError('simulation', simulation.err, simulation.logs ?? []);
    const programs = { wager: address(manifest.programs.wager), oracle: address(manifest.programs.oracle) };
    const reason = failure.customCode === undefined ? failure.message : customErrorName(failure.failingProgram, failure.customCode, programs);
    throw new Error(`the wager was not opened: ${reason}`);
  }
  await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
  console.log(JSON.stringify({ wager, beneficiary: beneficiary.account }));
  return 0;
}
