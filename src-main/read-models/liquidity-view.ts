/**
 * The Liquidity screen's data and actions: the pool, the live epoch, deposit and withdrawal requests,
 * share price per struck epoch, an LP's position, and the strike and claim instructions the operator sends
 * through the keeper (the same the loop's liquidity cranker sends). Whether Strike and each Claim would be
 * accepted is decided by simulating the real instruction: the program's own rule, never a copy of it.
 */
import {
  getBase64Encoder,
  type Address,
  type Base64EncodedBytes,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, getTokenDecoder } from '@solana-program/token';
import { LAMPORTS_PER_SIGNATURE } from '../chain/fees';
import { TransactionFailedError, createTransactionSender, type TransactionSender } from '../chain/transaction-sender';
import { explainRefusal } from '../protocol/program-error-sentences';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import {
  findConfigPda,
  findEpochRecordPda,
  findPoolPda,
  getClaimDepositInstructionAsync,
  getClaimWithdrawInstructionAsync,
  getConfigDecoder,
  getDepositRequestDecoder,
  getDepositRequestDiscriminatorBytes,
  getEpochRecordDecoder,
  getEpochRecordDiscriminatorBytes,
  getPoolDecoder,
  getStrikeEpochInstructionAsync,
  getWithdrawRequestDiscriminatorBytes,
  type EpochRecord,
  type Pool,
} from '../protocol/wager';
import type { ActionCheckView, ClaimBalanceView, ClaimPreviewView, LiquidityRequestView, LiquidityView, LpPositionView, WhenView } from '../../src-shared/contract/liquidity';

/** At most this many requests are simulated per view (one RPC call each); filter by owner to check others. */
export const CLAIMS_CHECKED_PER_VIEW = 20;

const bytesFilter = (discriminator: ArrayLike<number>) => ({
  memcmp: { offset: 0n, bytes: Buffer.from(Uint8Array.from(discriminator)).toString('base64') as Base64EncodedBytes, encoding: 'base64' as const },
});

/** USDC per share with 6 decimals (shares and USDC both have 6), as a decimal string. */
export function sharePrice(liquidity: bigint, shares: bigint): string | null {
  if (shares === 0n) return null;
  const micro = (liquidity * 1_000_000n) / shares;
  return `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
}

/** Shares a deposit of `usdc` gets at (L, S), and USDC a withdrawal of `shares` gets: liquidity.c's formulas (floor, +1 virtual). */
export const sharesFor = (usdc: bigint, liquidity: bigint, shares: bigint): bigint => (usdc * (shares + 1n)) / (liquidity + 1n);
export const usdcFor = (withdrawn: bigint, liquidity: bigint, shares: bigint): bigint => (withdrawn * (liquidity + 1n)) / (shares + 1n);

/**
 * When a refused strike may be accepted: the close slot, or the wagers opened before it still open. The
 * simulation decides whether it is refused; this only says when that changes.
 */
export function whenStrikeable(code: string, pool: Pick<Pool, 'epoch' | 'epochCloseSlot' | 'openWagers'>, slot: bigint): WhenView | null {
  const epoch = Number(pool.epoch);
  if (code === 'epochNotClosed') return { kind: 'close', epoch, closeSlot: Number(pool.epochCloseSlot), slotsLeft: Number(pool.epochCloseSlot - slot + 1n) };
  if (code === 'epochHasOpenWagers') return { kind: 'openWagers', epoch, count: Number(pool.openWagers[Number(pool.epoch & 1n)] ?? 0n) };
  return null;
}

/** Simulates instructions as the keeper would send them (its key and RPC): only `simulate` is used, nothing is sent. */
export type Simulate = TransactionSender['simulate'];

/** A simulation-only sender with the keeper's key (the same sender code the keeper uses; it never confirms). */
export function simulatorFor(rpc: Rpc<SolanaRpcApi>, payer: KeyPairSigner): Simulate {
  const neverSends = { wait: () => Promise.reject(new Error('simulation only')), stop: () => undefined };
  return createTransactionSender({ rpc, payer, confirmer: neverSends }).simulate;
}

/** Runs the simulation: allowed, or the refusal named with its sentence (and when, from `when`). */
async function check(simulate: Simulate, instructions: Instruction[], programs: ErrorNamingPrograms, when: (code: string) => WhenView | null): Promise<ActionCheckView> {
  try {
    await simulate(instructions);
    return { allowed: true, refusal: null, when: null };
  } catch (error) {
    if (!(error instanceof TransactionFailedError)) {
      const message = (error as Error).message;
      return { allowed: false, refusal: { code: message, sentence: `The chain could not be asked (${message}): try again in a moment.` }, when: null };
    }
    const refusal = explainRefusal(error, programs);
    return { allowed: false, refusal, when: when(refusal.code) };
  }
}

async function readPool(rpc: Rpc<SolanaRpcApi>, program: Address): Promise<Pool> {
  const [pool] = await findPoolPda({ programAddress: program });
  const { value } = await rpc.getAccountInfo(pool, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) throw new Error(`the pool ${pool} does not exist on this cluster: is the wager program deployed here?`);
  return getPoolDecoder().decode(getBase64Encoder().encode(value.data[0]));
}

async function readLiquidityFee(rpc: Rpc<SolanaRpcApi>, program: Address): Promise<bigint> {
  const [config] = await findConfigPda({ programAddress: program });
  const { value } = await rpc.getAccountInfo(config, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? getConfigDecoder().decode(getBase64Encoder().encode(value.data[0])).liquidityFee : 0n;
}

/** Token balances of `accounts` (0 for an account that does not exist yet). */
async function tokenBalances(rpc: Rpc<SolanaRpcApi>, accounts: Address[]): Promise<bigint[]> {
  const { value } = await rpc.getMultipleAccounts(accounts, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value.map((account) => (account ? getTokenDecoder().decode(getBase64Encoder().encode(account.data[0])).amount : 0n));
}

const ata = async (mint: Address, owner: Address) => (await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

export interface LiquidityContext {
  rpc: Rpc<SolanaRpcApi>;
  program: Address;
  usdcMint: Address;
  /** The keeper's key: the caller of the simulated (and sent) strike and claims. */
  caller: KeyPairSigner;
  simulate: Simulate;
  programs: ErrorNamingPrograms;
}

export async function readLiquidity(context: LiquidityContext, owner: string | null): Promise<LiquidityView> {
  const { rpc, program } = context;
  const [pool, slot, liquidityFee] = await Promise.all([readPool(rpc, program), rpc.getSlot({ commitment: 'confirmed' }).send(), readLiquidityFee(rpc, program)]);
  type Filter = { dataSize: bigint } | ReturnType<typeof bytesFilter>;
  const accountsOf = (filters: Filter[]) => rpc.getProgramAccounts(program, { encoding: 'base64', commitment: 'confirmed', filters }).send();
  // The reads are independent: one round trip instead of several.
  const [deposits, withdrawals, records, strike] = await Promise.all([
    accountsOf([{ dataSize: 64n }, bytesFilter(getDepositRequestDiscriminatorBytes())]),
    accountsOf([{ dataSize: 64n }, bytesFilter(getWithdrawRequestDiscriminatorBytes())]),
    accountsOf([bytesFilter(getEpochRecordDiscriminatorBytes())]),
    strikeInstruction(rpc, program, context.caller).then(({ instructions }) => check(context.simulate, instructions, context.programs, (code) => whenStrikeable(code, pool, slot))),
  ]);
  const recordsByEpoch = new Map<bigint, EpochRecord & { lamports: bigint }>();
  for (const { account } of records) {
    const record = getEpochRecordDecoder().decode(getBase64Encoder().encode(account.data[0]));
    recordsByEpoch.set(record.epoch, { ...record, lamports: account.lamports });
  }
  const found: { address: Address; kind: 'deposit' | 'withdraw'; owner: Address; epoch: bigint; amount: bigint }[] = [];
  for (const [kind, accounts] of [['deposit', deposits], ['withdraw', withdrawals]] as const) {
    for (const { pubkey, account } of accounts) {
      // Deposit and withdraw requests share one layout (owner, epoch, amount).
      const request = getDepositRequestDecoder().decode(getBase64Encoder().encode(account.data[0]));
      if (owner && request.owner !== owner) continue;
      found.push({ address: pubkey, kind, owner: request.owner, epoch: request.epoch, amount: request.amount });
    }
  }
  found.sort((a, b) => Number(a.epoch - b.epoch) || a.address.localeCompare(b.address));
  const whenClaimable = (epoch: bigint) => (code: string): WhenView | null =>
    code === 'epochNotStruck' && epoch === pool.epoch ? (strike.allowed ? null : strike.when) : null;
  const requests: LiquidityRequestView[] = await Promise.all(
    found.map(async (request, index): Promise<LiquidityRequestView> => {
      const record = recordsByEpoch.get(request.epoch);
      const struck = record?.struck === 1;
      const claim =
        index < CLAIMS_CHECKED_PER_VIEW
          ? await check(context.simulate, (await claimInstructionFor(context, pool, request)).instructions, context.programs, whenClaimable(request.epoch))
          : null;
      return {
        address: request.address,
        kind: request.kind,
        owner: request.owner,
        epoch: Number(request.epoch),
        amount: request.amount.toString(),
        status: struck ? 'struck: claimable' : 'waiting for the epoch to be struck',
        claim,
        preview: struck && record ? claimPreview(request.kind, request.amount, record, liquidityFee) : null,
      };
    }),
  );
  const history = [...recordsByEpoch.values()]
    .filter((record) => record.struck === 1)
    .map((record) => ({ epoch: Number(record.epoch), sharePrice: sharePrice(record.liquidity, record.shares) }))
    .sort((a, b) => a.epoch - b.epoch);
  const liveRecord = recordsByEpoch.get(pool.epoch);
  return {
    pool: {
      liquidity: pool.liquidity.toString(),
      lockedLiability: pool.lockedLiability.toString(),
      freeLiquidity: (pool.liquidity > pool.lockedLiability ? pool.liquidity - pool.lockedLiability : 0n).toString(),
      totalShares: pool.totalShares.toString(),
      sharePrice: sharePrice(pool.liquidity, pool.totalShares),
      pendingDeposits: pool.pendingDeposits.toString(),
      pendingWithdrawShares: pool.pendingWithdrawShares.toString(),
    },
    epoch: {
      epoch: Number(pool.epoch),
      closeSlot: Number(pool.epochCloseSlot),
      currentSlot: Number(slot),
      strike,
      // The record holds the strike fee above its rent; without requests there is no record and no fee.
      strikeFeeLamports: liveRecord ? Number(liquidityFee) : 0,
    },
    requests,
    history,
    position: owner ? await lpPosition(context, pool, owner as Address, found) : null,
  };
}

/** What a struck request's claim will pay (its epoch's L and S) and the fees around it. */
export function claimPreview(kind: 'deposit' | 'withdraw', amount: bigint, record: Pick<EpochRecord, 'liquidity' | 'shares'>, liquidityFee: bigint): ClaimPreviewView {
  const shares = kind === 'deposit' ? sharesFor(amount, record.liquidity, record.shares) : amount;
  const usdc = kind === 'deposit' ? usdcFor(shares, record.liquidity, record.shares) : usdcFor(amount, record.liquidity, record.shares);
  return {
    shares: shares.toString(),
    usdc: usdc.toString(),
    sharePrice: sharePrice(record.liquidity, record.shares),
    callerFeeLamports: Number(liquidityFee),
    transactionFeeLamports: Number(LAMPORTS_PER_SIGNATURE),
  };
}

async function lpPosition(context: LiquidityContext, pool: Pool, owner: Address, requests: { kind: 'deposit' | 'withdraw'; amount: bigint }[]): Promise<LpPositionView> {
  const [shares, usdc] = await tokenBalances(context.rpc, [await ata(pool.shareMint, owner), await ata(context.usdcMint, owner)]);
  const sum = (kind: 'deposit' | 'withdraw') => requests.filter((r) => r.kind === kind).reduce((total, r) => total + r.amount, 0n);
  return {
    owner,
    shares: shares!.toString(),
    valueNow: usdcFor(shares!, pool.liquidity, pool.totalShares).toString(),
    pendingDeposits: sum('deposit').toString(),
    pendingWithdrawShares: sum('withdraw').toString(),
    usdc: usdc!.toString(),
  };
}

export async function strikeInstruction(rpc: Rpc<SolanaRpcApi>, program: Address, caller: KeyPairSigner, pool?: Pool): Promise<{ epoch: bigint; subject: string; instructions: Instruction[] }> {
  const live = pool ?? (await readPool(rpc, program));
  const [epochRecord] = await findEpochRecordPda({ epoch: live.epoch }, { programAddress: program });
  return { epoch: live.epoch, subject: `epoch ${live.epoch}`, instructions: [await getStrikeEpochInstructionAsync({ caller, epochRecord }, { programAddress: program })] };
}

/** The claim of a decoded request, and the owner's account it pays into. */
async function claimInstructionFor(
  context: Pick<LiquidityContext, 'program' | 'usdcMint' | 'caller'>,
  pool: Pool,
  request: { address: Address; kind: 'deposit' | 'withdraw'; owner: Address; epoch: bigint },
): Promise<{ instructions: Instruction[]; destination: Address }> {
  const { program, caller } = context;
  const [epochRecord] = await findEpochRecordPda({ epoch: request.epoch }, { programAddress: program });
  const destination = await ata(request.kind === 'deposit' ? pool.shareMint : context.usdcMint, request.owner);
  const accounts = { caller, epochRecord, request: request.address, owner: request.owner };
  const instruction =
    request.kind === 'deposit'
      ? await getClaimDepositInstructionAsync({ ...accounts, ownerShares: destination }, { programAddress: program })
      : await getClaimWithdrawInstructionAsync({ ...accounts, ownerUsdc: destination }, { programAddress: program });
  return { instructions: [instruction], destination };
}

/** The claim of the request at `address`, as read now (the program refuses it when it is not claimable). */
export async function claimInstruction(
  context: Pick<LiquidityContext, 'rpc' | 'program' | 'usdcMint' | 'caller'>,
  address: Address,
): Promise<{ kind: 'deposit' | 'withdraw'; instructions: Instruction[]; destination: Address }> {
  const { rpc, program } = context;
  const { value } = await rpc.getAccountInfo(address, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value || value.owner !== program) throw new Error(`${address} is not a liquidity request of this pool: it may have been claimed already (refresh the list)`);
  const bytes = getBase64Encoder().encode(value.data[0]);
  const kind = getDepositRequestDiscriminatorBytes().every((byte, i) => bytes[i] === byte) ? 'deposit' : 'withdraw';
  const decoded = getDepositRequestDecoder().decode(bytes);
  const pool = await readPool(rpc, program);
  const built = await claimInstructionFor(context, pool, { address, kind, owner: decoded.owner, epoch: decoded.epoch });
  return { kind, ...built };
}

/** The owner's balance of what a landed claim paid into `destination`. */
export async function balanceAfterClaim(rpc: Rpc<SolanaRpcApi>, kind: 'deposit' | 'withdraw', destination: Address): Promise<ClaimBalanceView> {
  const [amount] = await tokenBalances(rpc, [destination]);
  return { account: destination, amount: amount!.toString(), unit: kind === 'deposit' ? 'shares' : 'USDC' };
}
