/**
 * The service on top of a deployed wager program, set up over JSON-RPC step by step: the test USDC mint
 * (when this deploy makes one), `initialize`, the named paytables and the pool's first liquidity. Every
 * step reads the chain first: done with the same values it is skipped, done with other values it is an
 * error naming the field, so a re-run sends nothing and never changes a live service behind its back.
 *
 * `planServiceSetup` reads and checks (dry runs, the funds check, errors before anything is sent);
 * `executeServiceSetup` sends, re-reading the pool as it goes so an interrupted liquidity seed resumes.
 */
import type { Address, Instruction, KeyPairSigner, Rpc, SolanaRpcApi } from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getMintDecoder,
  getMintSize,
  getMintToInstruction,
  getTokenSize,
} from '@solana-program/token';
import { sendStep, type PlannedTransaction } from '../chain/program-deployer';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import type { TransactionSender } from '../chain/transaction-sender';
import {
  getConfigDecoder,
  getConfigEncoder,
  getDepositRequestEncoder,
  getEpochRecordEncoder,
  getPaytableDecoder,
  getPaytableEncoder,
  getPoolDecoder,
  getPoolEncoder,
  type Config,
  type Pool,
} from '../protocol/generated/wager';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import {
  findDepositAccounts,
  findPaytableAddress,
  getClaimDepositForService,
  getCreatePaytableForService,
  getCreateUsdcMintInstructions,
  getInitializeServiceInstruction,
  getRequestDepositForService,
  getStrikeEpochForService,
  type PaytableDefinition,
  type ServiceAddresses,
  type WagerConfigValues,
} from '../protocol/wager/service-instructions';

type AnyRpc = Rpc<SolanaRpcApi>;

async function accountData(rpc: AnyRpc, account: Address): Promise<{ owner: Address; data: Uint8Array } | null> {
  const { value } = await rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? { owner: value.owner, data: new Uint8Array(Buffer.from(value.data[0], 'base64')) } : null;
}

/** The program's config, or null before `initialize`. */
export async function readConfig(rpc: AnyRpc, addresses: ServiceAddresses): Promise<Config | null> {
  const account = await accountData(rpc, addresses.config);
  return account && account.owner === addresses.program ? getConfigDecoder().decode(account.data) : null;
}

async function readPool(rpc: AnyRpc, addresses: ServiceAddresses): Promise<Pool | null> {
  const account = await accountData(rpc, addresses.pool);
  return account && account.owner === addresses.program ? getPoolDecoder().decode(account.data) : null;
}

/** A USDC mint as the program needs it: an SPL Token mint (the wager program pays out with SPL Token). */
export interface MintOnChain {
  decimals: number;
  mintAuthority: Address | null;
}

/** The mint at `mint`, or null when there is no account; throws when the account is not an SPL Token mint. */
export async function readMint(rpc: AnyRpc, mint: Address): Promise<MintOnChain | null> {
  const account = await accountData(rpc, mint);
  if (!account) return null;
  if (account.owner !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getMintSize()) throw new Error(`${mint} is not an SPL Token mint (owner ${account.owner})`);
  const decoded = getMintDecoder().decode(account.data);
  return { decimals: decoded.decimals, mintAuthority: decoded.mintAuthority.__option === 'Some' ? decoded.mintAuthority.value : null };
}

/** A token account's balance in base units, or null when the account does not exist. */
async function tokenBalance(rpc: AnyRpc, account: Address): Promise<bigint | null> {
  const { value } = await rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) return null;
  return BigInt((await rpc.getTokenAccountBalance(account, { commitment: 'confirmed' }).send()).value.amount);
}

const CONFIG_FIELDS = [
  'requestFee',
  'settleFee',
  'expireFee',
  'liquidityFee',
  'tSettle',
  'epochLength',
  'oracleRequestSize',
  'perWagerCapBps',
  'houseEdgeBps',
  'maxMultiplierBps',
] as const satisfies readonly (keyof WagerConfigValues & keyof Config)[];

/** A step done on chain with other values than this deploy's. */
export class ServiceMismatchError extends Error {}

/** The first config field on chain that differs from what this deploy wants, as the error says it. */
export function configMismatch(onChain: Config, wanted: { usdcMint: Address; oracleProgram: Address; guardian: Address; config: WagerConfigValues }): string | null {
  const pairs: [string, unknown, unknown][] = [
    ['usdcMint', onChain.usdcMint, wanted.usdcMint],
    ['oracleProgram', onChain.oracleProgram, wanted.oracleProgram],
    ['guardian', onChain.guardian, wanted.guardian],
    ...CONFIG_FIELDS.map((field): [string, unknown, unknown] => [field, onChain[field], wanted.config[field]]),
  ];
  for (const [field, chain, want] of pairs) {
    if (String(chain) !== String(want)) return `config.${field} on chain is ${String(chain)}, this deploy wants ${String(want)}`;
  }
  return null;
}

const bucketsText = (buckets: readonly { weight: number; multiplierBps: number }[]) => buckets.map((b) => `${b.weight}x${b.multiplierBps}bps`).join(', ');

export interface ServiceSetupInput {
  rpc: AnyRpc;
  deployer: Address;
  /** The program's upgrade authority once the program step is done (`initialize` needs it to sign). */
  upgradeAuthority: Address | null;
  addresses: ServiceAddresses;
  programData: Address;
  usdcMint: Address;
  /** The mint does not exist yet: this deploy creates it (a test USDC mint, the deployer its authority). */
  createMint: boolean;
  oracleProgram: Address;
  guardian: Address;
  config: WagerConfigValues;
  paytables: PaytableDefinition[];
  /** USDC base units of first liquidity (--pool-liquidity), or null. */
  poolLiquidity: bigint | null;
}

export type StepStatus = 'create' | 'skip';

export interface ServiceSetupPlan {
  mint: StepStatus;
  initialize: StepStatus;
  paytables: { name: string; address: Address; status: StepStatus }[];
  /** `create`: seed through a deposit epoch; `skip`: the pool has liquidity (or none was asked). */
  liquidity: StepStatus;
  /** USDC to mint to the deployer for the seed (its balance falls short and it holds the mint authority). */
  mintForLiquidity: bigint;
  transactions: PlannedTransaction[];
  rentLamports: bigint;
  /** Rent and fees prefunded during the liquidity seed that come back to the deployer by its end. */
  heldLamports: bigint;
}

/** Reads the service on chain and plans its set-up; throws (naming the field) when a done step differs. */
export async function planServiceSetup(input: ServiceSetupInput): Promise<ServiceSetupPlan> {
  const { rpc, addresses, deployer } = input;
  const rent = (size: number) => rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
  const transactions: PlannedTransaction[] = [];
  let rentLamports = 0n;
  let heldLamports = 0n;

  if (input.createMint) {
    transactions.push({ label: 'create test USDC mint', signatures: 2 });
    rentLamports += await rent(getMintSize());
  }

  const config = await readConfig(rpc, addresses);
  let initialize: StepStatus = 'skip';
  if (config) {
    const mismatch = configMismatch(config, input);
    if (mismatch) throw new ServiceMismatchError(mismatch);
  } else {
    if (input.upgradeAuthority !== deployer) {
      throw new Error(`initialize must be signed by the program's upgrade authority ${input.upgradeAuthority ?? '(none: immutable)'}, and the deployer is ${deployer}`);
    }
    initialize = 'create';
    transactions.push({ label: 'initialize', signatures: 1 });
    const token = await rent(getTokenSize());
    rentLamports += (await rent(getConfigEncoder().fixedSize)) + (await rent(getPoolEncoder().fixedSize)) + 3n * token + (await rent(getMintSize()));
  }

  const paytables: ServiceSetupPlan['paytables'] = [];
  for (const paytable of input.paytables) {
    const address = await findPaytableAddress(addresses.program, paytable.name);
    const account = await accountData(rpc, address);
    if (account && account.owner === addresses.program) {
      const onChain = getPaytableDecoder().decode(account.data);
      const buckets = onChain.buckets.slice(0, onChain.bucketCount);
      if (bucketsText(buckets) !== bucketsText(paytable.buckets)) {
        throw new ServiceMismatchError(`paytable ${paytable.name} on chain has buckets [${bucketsText(buckets)}], this deploy wants [${bucketsText(paytable.buckets)}] (weight x multiplier)`);
      }
      paytables.push({ name: paytable.name, address, status: 'skip' });
      continue;
    }
    if (config && config.admin !== deployer) {
      throw new Error(`paytable ${paytable.name} is missing and only config.admin ${config.admin} may create it; the deployer is ${deployer}`);
    }
    paytables.push({ name: paytable.name, address, status: 'create' });
    transactions.push({ label: `create paytable ${paytable.name}`, signatures: 1 });
    rentLamports += await rent(getPaytableEncoder().fixedSize);
  }

  let liquidity: StepStatus = 'skip';
  let mintForLiquidity = 0n;
  const pool = config ? await readPool(rpc, addresses) : null;
  if (input.poolLiquidity !== null && !(pool && pool.liquidity > 0n)) {
    liquidity = 'create';
    const [source] = await findAssociatedTokenPda({ mint: input.usdcMint, owner: deployer, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const balance = input.createMint ? null : await tokenBalance(rpc, source);
    const shortfall = input.poolLiquidity - (balance ?? 0n);
    if (shortfall > 0n) {
      const mint = input.createMint ? { mintAuthority: deployer } : await readMint(rpc, input.usdcMint);
      if (mint?.mintAuthority !== deployer) {
        throw new Error(
          `--pool-liquidity ${formatUsdcAmount(input.poolLiquidity)}: the deployer holds ${formatUsdcAmount(balance ?? 0n)} USDC of ${input.usdcMint} and is not its mint authority: fund it or seed the pool as an LP`,
        );
      }
      mintForLiquidity = shortfall;
      transactions.push({ label: 'mint test USDC for the pool', signatures: 1 });
      if (balance === null) rentLamports += await rent(getTokenSize());
    }
    transactions.push({ label: 'request_deposit', signatures: 1 }, { label: 'strike_epoch', signatures: 1 }, { label: 'claim_deposit', signatures: 1 });
    // Kept: the epoch record and the LP share account. Back by the end: the request's rent and both fees.
    rentLamports += (await rent(getEpochRecordEncoder().fixedSize)) + (await rent(getTokenSize()));
    heldLamports += (await rent(getDepositRequestEncoder().fixedSize)) + 2n * input.config.liquidityFee;
  }

  return { mint: input.createMint ? 'create' : 'skip', initialize, paytables, liquidity, mintForLiquidity, transactions, rentLamports, heldLamports };
}

export type ServiceSetupProgress =
  | { step: 'usdc-mint'; mint: Address; status: 'created' | 'exists' }
  | { step: 'initialize'; config: Address; status: 'done' | 'skipped' }
  | { step: 'paytable'; name: string; address: Address; status: 'created' | 'skipped' }
  | {
      step: 'pool-liquidity';
      status: 'skipped' | 'minted' | 'requested' | 'waiting' | 'struck' | 'claimed';
      amount?: string;
      epoch?: string;
      slot?: string;
      closeSlot?: string;
    };

export interface ServiceSetupExecution {
  rpc: AnyRpc;
  sender: TransactionSender;
  deployer: KeyPairSigner;
  /** The new mint's keypair, when the plan creates one. */
  mintKeypair: KeyPairSigner | null;
  onProgress?: (progress: ServiceSetupProgress) => void;
  /** How often the epoch close is polled (default 500 ms). */
  pollMs?: number;
}

/** Sends one step per call (sendStep) and counts the transactions sent, for the plan's tally. */
function countingStepSender(sender: Parameters<typeof sendStep>[0], programs: ErrorNamingPrograms) {
  let transactions = 0;
  return {
    send: async (label: string, ...instructions: Instruction[]) => {
      const sent = await sendStep(sender, label, instructions, programs);
      transactions++;
      return sent;
    },
    add: (count: number) => void (transactions += count),
    count: () => transactions,
  };
}

/** Sends what the plan says, step by step; returns the number of transactions sent. */
export async function executeServiceSetup(input: ServiceSetupInput, plan: ServiceSetupPlan, execution: ServiceSetupExecution): Promise<number> {
  const { rpc, sender, deployer } = execution;
  const { addresses } = input;
  const progress = execution.onProgress ?? (() => undefined);
  const steps = countingStepSender(sender, { wager: addresses.program, oracle: input.oracleProgram });
  const send = steps.send;

  if (plan.mint === 'create') {
    if (!execution.mintKeypair || execution.mintKeypair.address !== input.usdcMint) throw new Error('the test USDC mint keypair is missing');
    const lamports = await rpc.getMinimumBalanceForRentExemption(BigInt(getMintSize())).send();
    await send('create the test USDC mint', ...getCreateUsdcMintInstructions({ payer: deployer, mint: execution.mintKeypair, authority: deployer.address, lamports }));
  }
  progress({ step: 'usdc-mint', mint: input.usdcMint, status: plan.mint === 'create' ? 'created' : 'exists' });

  if (plan.initialize === 'create') {
    await send(
      'initialize',
      await getInitializeServiceInstruction({
        admin: deployer,
        addresses,
        programData: input.programData,
        usdcMint: input.usdcMint,
        guardian: input.guardian,
        oracleProgram: input.oracleProgram,
        config: input.config,
      }),
    );
  }
  progress({ step: 'initialize', config: addresses.config, status: plan.initialize === 'create' ? 'done' : 'skipped' });

  for (const paytable of plan.paytables) {
    if (paytable.status === 'create') {
      const definition = input.paytables.find((p) => p.name === paytable.name)!;
      const { instruction } = await getCreatePaytableForService({ admin: deployer, addresses, paytable: definition });
      await send(`create paytable ${paytable.name}`, instruction);
    }
    progress({ step: 'paytable', name: paytable.name, address: paytable.address, status: paytable.status === 'create' ? 'created' : 'skipped' });
  }

  if (plan.liquidity === 'create' && input.poolLiquidity !== null) {
    steps.add(await seedPoolLiquidity(input, execution, input.poolLiquidity));
  } else {
    progress({ step: 'pool-liquidity', status: 'skipped' });
  }
  return steps.count();
}

/**
 * The pool's first liquidity through the real LP path, resumable: an own request already in the live
 * epoch is not made again, a struck one is only claimed. Returns the transactions sent.
 */
async function seedPoolLiquidity(input: ServiceSetupInput, execution: ServiceSetupExecution, amount: bigint): Promise<number> {
  const { rpc, sender, deployer } = execution;
  const { addresses } = input;
  const progress = execution.onProgress ?? (() => undefined);
  const steps = countingStepSender(sender, { wager: addresses.program, oracle: input.oracleProgram });
  const send = steps.send;
  const pool = async () => {
    const read = await readPool(rpc, addresses);
    if (!read) throw new Error(`the pool ${addresses.pool} does not exist`);
    return read;
  };
  const exists = async (account: Address) => (await accountData(rpc, account)) !== null;
  const claim = async (epoch: bigint) => {
    const ownerShares = (await findAssociatedTokenPda({ mint: addresses.shareMint, owner: deployer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
    await send(
      'claim_deposit',
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: deployer, mint: addresses.shareMint, owner: deployer.address }),
      await getClaimDepositForService({ caller: deployer, addresses, epoch, owner: deployer.address, ownerShares }),
    );
    progress({ step: 'pool-liquidity', status: 'claimed', amount: formatUsdcAmount(amount), epoch: String(epoch) });
  };

  let state = await pool();
  if (state.liquidity > 0n) {
    // A run stopped between the strike and the claim: the shares are only claimed.
    if (state.epoch > 0n && (await exists((await findDepositAccounts(addresses.program, deployer.address, state.epoch - 1n)).request))) await claim(state.epoch - 1n);
    else progress({ step: 'pool-liquidity', status: 'skipped' });
    return steps.count();
  }

  let epoch = state.epoch;
  if (!(await exists((await findDepositAccounts(addresses.program, deployer.address, epoch)).request))) {
    // Requests are refused (EpochClosed) once the live epoch's close has passed: strike it first.
    if ((await rpc.getSlot({ commitment: 'confirmed' }).send()) > state.epochCloseSlot) {
      await send('strike_epoch', await getStrikeEpochForService({ caller: deployer, addresses, epoch }));
      state = await pool();
      epoch = state.epoch;
    }
    const [source] = await findAssociatedTokenPda({ mint: input.usdcMint, owner: deployer.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const shortfall = amount - ((await tokenBalance(rpc, source)) ?? 0n);
    if (shortfall > 0n) {
      await send(
        'mint test USDC for the pool',
        await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: deployer, mint: input.usdcMint, owner: deployer.address }),
        getMintToInstruction({ mint: input.usdcMint, token: source, mintAuthority: deployer, amount: shortfall }),
      );
      progress({ step: 'pool-liquidity', status: 'minted', amount: formatUsdcAmount(shortfall) });
    }
    await send('request_deposit', await getRequestDepositForService({ owner: deployer, addresses, epoch, source, amount }));
    progress({ step: 'pool-liquidity', status: 'requested', amount: formatUsdcAmount(amount), epoch: String(epoch) });
  }

  // strike_epoch is allowed once the cluster is past the epoch's close slot.
  const closeSlot = (await pool()).epochCloseSlot;
  let lastReport = 0;
  for (;;) {
    const slot = await rpc.getSlot({ commitment: 'confirmed' }).send();
    if (slot > closeSlot) break;
    if (Date.now() - lastReport > 30_000) {
      lastReport = Date.now();
      progress({ step: 'pool-liquidity', status: 'waiting', epoch: String(epoch), slot: String(slot), closeSlot: String(closeSlot) });
    }
    await new Promise((resolve) => setTimeout(resolve, execution.pollMs ?? 500));
  }
  await send('strike_epoch', await getStrikeEpochForService({ caller: deployer, addresses, epoch }));
  progress({ step: 'pool-liquidity', status: 'struck', epoch: String(epoch) });
  await claim(epoch);
  return steps.count();
}
