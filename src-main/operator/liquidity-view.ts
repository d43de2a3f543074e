/**
 * The Liquidity screen's data and actions: the pool, the live epoch (can it be struck, and if not why),
 * deposit and withdrawal requests with their status, share price per struck epoch, and the strike and
 * claim instructions the operator sends through the keeper (the same the loop's liquidity cranker sends).
 */
import { getBase64Encoder, type Address, type Base64EncodedBytes, type Instruction, type KeyPairSigner, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda } from '@solana-program/token';
import {
  findEpochRecordPda,
  findPoolPda,
  getClaimDepositInstructionAsync,
  getClaimWithdrawInstructionAsync,
  getDepositRequestDecoder,
  getDepositRequestDiscriminatorBytes,
  getEpochRecordDecoder,
  getEpochRecordDiscriminatorBytes,
  getPoolDecoder,
  getStrikeEpochInstructionAsync,
  getWithdrawRequestDiscriminatorBytes,
  type Pool,
} from '../protocol/wager';
import type { LiquidityRequestView, LiquidityView } from './operator-interface';

const bytesFilter = (discriminator: ArrayLike<number>) => ({
  memcmp: { offset: 0n, bytes: Buffer.from(Uint8Array.from(discriminator)).toString('base64') as Base64EncodedBytes, encoding: 'base64' as const },
});

/** USDC per share with 6 decimals (shares and USDC both have 6), as a decimal string. */
export function sharePrice(liquidity: bigint, shares: bigint): string | null {
  if (shares === 0n) return null;
  const micro = (liquidity * 1_000_000n) / shares;
  return `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
}

/**
 * Why the live epoch cannot be struck at `slot`, or null when it can: strike_epoch needs the close slot
 * passed and no wager opened before the close still open (the program's own two checks).
 */
export function whyNotStrikeable(pool: Pick<Pool, 'epoch' | 'epochCloseSlot' | 'openWagers'>, slot: bigint): string | null {
  if (slot <= pool.epochCloseSlot) {
    const left = pool.epochCloseSlot - slot + 1n;
    return `the epoch closes at slot ${pool.epochCloseSlot.toLocaleString('en-US')} (in ${left.toLocaleString('en-US')} slot${left === 1n ? '' : 's'})`;
  }
  const open = Number(pool.openWagers[Number(pool.epoch & 1n)] ?? 0n);
  if (open > 0) return `${open} wager${open === 1 ? '' : 's'} opened before the close ${open === 1 ? 'is' : 'are'} still open`;
  return null;
}

async function readPool(rpc: Rpc<SolanaRpcApi>, program: Address): Promise<Pool> {
  const [pool] = await findPoolPda({ programAddress: program });
  const { value } = await rpc.getAccountInfo(pool, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) throw new Error(`the pool ${pool} does not exist on this cluster: is the wager program deployed here?`);
  return getPoolDecoder().decode(getBase64Encoder().encode(value.data[0]));
}

export async function readLiquidity(rpc: Rpc<SolanaRpcApi>, program: Address, owner: string | null): Promise<LiquidityView> {
  const [pool, slot] = await Promise.all([readPool(rpc, program), rpc.getSlot({ commitment: 'confirmed' }).send()]);
  const whyNot = whyNotStrikeable(pool, slot);
  type Filter = { dataSize: bigint } | ReturnType<typeof bytesFilter>;
  const accountsOf = (filters: Filter[]) =>
    rpc.getProgramAccounts(program, { encoding: 'base64', commitment: 'confirmed', filters }).send();
  // The three reads are independent: one round trip instead of three.
  const [deposits, withdrawals, records] = await Promise.all([
    accountsOf([{ dataSize: 64n }, bytesFilter(getDepositRequestDiscriminatorBytes())]),
    accountsOf([{ dataSize: 64n }, bytesFilter(getWithdrawRequestDiscriminatorBytes())]),
    accountsOf([bytesFilter(getEpochRecordDiscriminatorBytes())]),
  ]);
  const requests: LiquidityRequestView[] = [];
  for (const [kind, found] of [['deposit', deposits], ['withdraw', withdrawals]] as const) {
    for (const { pubkey, account } of found) {
      // Deposit and withdraw requests share one layout (owner, epoch, amount).
      const request = getDepositRequestDecoder().decode(getBase64Encoder().encode(account.data[0]));
      if (owner && request.owner !== owner) continue;
      requests.push({
        address: pubkey,
        kind,
        owner: request.owner,
        epoch: Number(request.epoch),
        amount: request.amount.toString(),
        status: request.epoch < pool.epoch ? 'struck: claimable' : 'waiting for the epoch to be struck',
      });
    }
  }
  const history = records
    .map(({ account }) => getEpochRecordDecoder().decode(getBase64Encoder().encode(account.data[0])))
    .filter((record) => record.struck === 1)
    .map((record) => ({ epoch: Number(record.epoch), sharePrice: sharePrice(record.liquidity, record.shares) }))
    .sort((a, b) => a.epoch - b.epoch);
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
    epoch: { epoch: Number(pool.epoch), closeSlot: Number(pool.epochCloseSlot), currentSlot: Number(slot), strikeable: whyNot === null, whyNot },
    requests: requests.sort((a, b) => a.epoch - b.epoch || a.address.localeCompare(b.address)),
    history,
  };
}

export async function strikeInstruction(rpc: Rpc<SolanaRpcApi>, program: Address, caller: KeyPairSigner): Promise<{ subject: string; instructions: Instruction[] }> {
  const pool = await readPool(rpc, program);
  const [epochRecord] = await findEpochRecordPda({ epoch: pool.epoch }, { programAddress: program });
  return { subject: `epoch ${pool.epoch}`, instructions: [await getStrikeEpochInstructionAsync({ caller, epochRecord }, { programAddress: program })] };
}

export async function claimInstruction(
  rpc: Rpc<SolanaRpcApi>,
  program: Address,
  caller: KeyPairSigner,
  usdcMint: Address,
  request: Address,
): Promise<{ kind: 'deposit' | 'withdraw'; instructions: Instruction[] }> {
  const { value } = await rpc.getAccountInfo(request, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value || value.owner !== program) throw new Error(`${request} is not a liquidity request of this pool (already claimed?)`);
  const bytes = getBase64Encoder().encode(value.data[0]);
  const isDeposit = getDepositRequestDiscriminatorBytes().every((byte, i) => bytes[i] === byte);
  const decoded = getDepositRequestDecoder().decode(bytes);
  const pool = await readPool(rpc, program);
  if (decoded.epoch >= pool.epoch) throw new Error(`its epoch ${decoded.epoch} is not struck yet: strike the epoch first`);
  const [epochRecord] = await findEpochRecordPda({ epoch: decoded.epoch }, { programAddress: program });
  const mint = isDeposit ? pool.shareMint : usdcMint;
  const [destination] = await findAssociatedTokenPda({ mint, owner: decoded.owner, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const instruction = isDeposit
    ? await getClaimDepositInstructionAsync({ caller, epochRecord, request, owner: decoded.owner, ownerShares: destination }, { programAddress: program })
    : await getClaimWithdrawInstructionAsync({ caller, epochRecord, request, owner: decoded.owner, ownerUsdc: destination }, { programAddress: program });
  return { kind: isDeposit ? 'deposit' : 'withdraw', instructions: [instruction] };
}
