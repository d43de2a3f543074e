/**
 * Model-based property test of the wager program's books, in LiteSVM. fast-check draws sequences of
 * what players, LPs and keepers do (open, request, fulfil, settle, expire, let slots pass, deposit,
 * withdraw, strike, claim, close and re-create a beneficiary, claim a parked payout, replay a finished
 * step); a model predicts each step's outcome (success, or the exact refusal) and every balance, and
 * after each step the chain must agree with the model and with these invariants:
 *
 *  - vault USDC == liquidity + openStakes + pendingDeposits + owedWithdrawals. The excess ("dust") must be
 *    >= 0; it is in fact exactly 0: the program never rounds money into the vault without booking it:
 *    the only USDC rounding (withdraw claims, each floored, against the strike's floored aggregate)
 *    leaves its remainder inside owedWithdrawals, which this test tracks as `owedDust`.
 *  - escrow USDC == pendingPayouts.
 *  - lockedLiability == Σ maxPayout and openStakes == Σ stake over open wagers (Open / Requested), and
 *    openWagers[parity] counts them by the epoch each was opened in.
 *  - every beneficiary receives each payout exactly once (its balance is tracked to the base unit, and
 *    finished wagers are replayed and must be refused).
 *  - liquidity moves only by wager outcomes (+stake − payout, +stake on expiry) and at strikes (deposits
 *    in, withdrawals out at the strike price); the share price never falls at a strike.
 *  - shares, as strike_epoch / claim_deposit / claim_withdraw define them:
 *      totalShares == supply − (shareEscrow − pendingWithdrawShares) + Σ unclaimed struck deposits' shares + shareDust
 *      shareEscrow == pendingWithdrawShares + Σ unclaimed struck withdrawals' shares
 *      owedWithdrawals == Σ unclaimed struck withdrawals' USDC + owedDust
 *    where shareDust (owedDust) is, over struck epochs, the strike's floor(Σ) minus the claims' Σ floor():
 *    shares counted in totalShares that no claim mints (USDC set aside that no claim pays), fewer than
 *    the epoch's request count each.
 *
 * On failure fast-check prints the seed and path; replay with FC_SEED=<seed> FC_PATH=<path>.
 */
import { generateKeyPairSigner, lamports, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getCloseAccountInstruction, getMintDecoder, getTransferInstruction } from '@solana-program/token';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ensureTokenAccount, mintTokens } from '../../../src-main/localnet/bootstrap-wager';
import type { TransactionOutcome } from '../../../src-main/localnet/litesvm-runner';
import { getFulfillRandomnessInstructions, signRandomness } from '../../../src-main/protocol/oracle';
import {
  SlotHashUnavailableError,
  drawBucket,
  findDepositRequestPda,
  findEpochRecordPda,
  findEscrowPda,
  findShareEscrowPda,
  findShareMintPda,
  findVaultPda,
  findWithdrawRequestPda,
  getClaimDepositInstructionAsync,
  getClaimPayoutForWager,
  getClaimWithdrawInstructionAsync,
  getExpireForWager,
  getPaytableDecoder,
  getRequestDepositInstructionAsync,
  getRequestRandomnessForWager,
  getRequestWithdrawInstructionAsync,
  getSettleForWager,
  getStrikeEpochInstructionAsync,
  payoutFor,
  type Paytable,
  type Pool,
  type Wager,
} from '../../../src-main/protocol/wager';
import {
  DEFAULT_WAGER_CONFIG,
  SOL,
  createWagerTestChain,
  errorNameOf,
  lamportsOf,
  openWager,
  readPool,
  readWager,
  usdcOf,
  type WagerTestChain,
} from './wager-test-chain';

const CONFIG = { ...DEFAULT_WAGER_CONFIG, epochLength: 300n };
/**
 * Two pool sizes: 2 000 USDC (LP balances of 500 USDC), and 0.02 USDC (LP balances of 0.06 USDC) where
 * stakes are a few hundred base units and every floor in the share price and the payouts shows.
 */
const SCALES = {
  large: { seeded: 2_000_000_000n, lpUsdc: 500_000_000n },
  small: { seeded: 20_000n, lpUsdc: 60_000n },
} as const;
type Scale = keyof typeof SCALES;
const PAYTABLES = ['coin-flip', 'dice', 'wheel'] as const;
const ADVANCES = [1, 2, 5, 40, 151, 200, 320] as const;

// ---- Steps ------------------------------------------------------------------------------------------

const KINDS = {
  progress: 20, open: 5, request: 3, fulfil: 3, settle: 3, expire: 2, advance: 7, deposit: 3, withdraw: 3, strike: 4,
  claimDeposit: 3, claimWithdraw: 3, closeBeneficiary: 4, reopenBeneficiary: 2, claimPayout: 3, replay: 1,
} as const;
type Kind = keyof typeof KINDS;
/**
 * `a` picks the target and `b` the amount (per mille of what is available; > 1000 overreaches the cap).
 * `progress` moves a wager one step along its life (request, fulfil, settle or claim the parked payout),
 * so that random sequences reach settlements; the single-step kinds also hit refusals.
 */
interface Step { kind: Kind; a: number; b: number }

const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.oneof(...(Object.entries(KINDS) as [Kind, number][]).map(([kind, weight]) => ({ weight, arbitrary: fc.constant(kind) }))),
  a: fc.nat({ max: 1_000_000 }),
  b: fc.integer({ min: 1, max: 1_200 }),
});

/** Hand-written sequences run before the random ones, so every run of the file reaches these paths. */
const step = (kind: Kind, a = 0, b = 500): Step => ({ kind, a, b });
const times = (n: number, s: Step) => Array.from({ length: n }, () => s);
const EXAMPLES: Step[][] = [
  // Eight coin flips to a beneficiary closed before settlement: wins park, re-creating it lets them be claimed.
  [
    ...times(8, step('open', 0, 100)), step('advance', 1), ...times(8, step('request')), ...times(8, step('fulfil')),
    step('closeBeneficiary'), ...times(8, step('settle')), step('claimPayout'), step('reopenBeneficiary'),
    ...times(8, step('claimPayout')), step('replay'), step('replay', 1),
  ],
  // An epoch with two depositors (one twice), a withdrawal, a wager before and one after the close; claims;
  // then an epoch where all three LPs withdraw, held up by the late wager until it expires.
  [
    step('deposit', 1, 500), step('deposit', 2, 300), step('withdraw', 0, 100), step('deposit', 1, 200),
    step('open', 3, 500), ...times(3, step('progress')), step('claimDeposit', 0, 4), step('strike'),
    step('advance', 6), step('open', 3, 500), step('strike'),
    step('claimDeposit', 0, 1), step('claimDeposit', 1, 1), step('claimWithdraw', 0, 1), step('claimDeposit', 0, 4),
    step('withdraw', 1, 1000), step('withdraw', 2, 333), step('withdraw', 0, 37), step('advance', 6), step('strike'),
    step('progress'), step('strike'), ...times(3, step('claimWithdraw', 0, 1)), step('claimWithdraw', 0, 4),
  ],
];

// ---- Model ------------------------------------------------------------------------------------------

type Status = 'open' | 'requested' | 'fulfilled' | 'pending' | 'closed';
interface ModelWager {
  address: Address;
  stake: bigint;
  maxPayout: bigint;
  payout: bigint | null; // predicted at request time from the seed (the oracle's randomness is its signature)
  epoch: bigint;
  openSlot: bigint;
  expirySlot: bigint;
  beneficiary: Address;
  status: Status;
  record: Wager; // last on-chain record seen, to replay steps after the wager closed
}
interface ModelRequest { deposit: boolean; lp: number; epoch: bigint; amount: bigint; claimed: boolean }
interface StruckEpoch { liquidity: bigint; shares: bigint }
interface Lp { signer: KeyPairSigner; usdc: Address; shares: Address }

interface World {
  chain: WagerTestChain;
  accounts: { vault: Address; escrow: Address; shareMint: Address; shareEscrow: Address };
  paytables: Map<Address, Paytable>;
  lps: Lp[];
  fragileOwner: KeyPairSigner;
  fragile: Address; // a beneficiary that can be closed after open and re-created later
  sink: Address; // where the fragile beneficiary's USDC goes before it is closed
  fragileOpen: boolean;
  // The model of the pool.
  pool: {
    liquidity: bigint; totalShares: bigint; pendingDeposits: bigint; pendingWithdrawShares: bigint;
    owedWithdrawals: bigint; pendingPayouts: bigint; epoch: bigint; closeSlot: bigint; liveHasRecord: boolean;
    /** Outcomes of wagers opened after the live epoch's close that closed before its strike (in `liquidity`
     *  too): the strike prices without them, then resets them. */
    postCloseCredits: bigint; postCloseDebits: bigint;
  };
  shareDust: bigint;
  owedDust: bigint;
  struckRequests: { deposit: number; withdraw: number };
  epochs: Map<bigint, StruckEpoch>;
  wagers: ModelWager[];
  requests: ModelRequest[];
  /** Expected token balances of every account an actor holds. */
  balances: Map<Address, bigint>;
  log: string[];
  counts: Record<'strikes' | 'settled' | 'parked' | 'claimedPayouts' | 'expired' | 'liquidityClaims', number>;
}

const sharesFor = (usdc: bigint, e: StruckEpoch) => (usdc * (e.shares + 1n)) / (e.liquidity + 1n);
const usdcFor = (shares: bigint, e: StruckEpoch) => (shares * (e.liquidity + 1n)) / (e.shares + 1n);
const isOpen = (w: ModelWager) => w.status === 'open' || w.status === 'requested' || w.status === 'fulfilled';
const pick = <T>(items: T[], a: number): T | undefined => (items.length === 0 ? undefined : items[a % items.length]);
const credit = (world: World, account: Address, amount: bigint) => world.balances.set(account, (world.balances.get(account) ?? 0n) + amount);

function openTotals(world: World) {
  const open = world.wagers.filter(isOpen);
  return {
    stakes: open.reduce((s, w) => s + w.stake, 0n),
    locked: open.reduce((s, w) => s + w.maxPayout, 0n),
    byParity: [0n, 1n].map((p) => BigInt(open.filter((w) => (w.epoch & 1n) === p).length)),
  };
}

/** open_wager's free liquidity: backing minus locked liability minus pending withdrawals at today's price. */
function freeLiquidity(world: World): bigint {
  const { stakes, locked } = openTotals(world);
  const p = world.pool;
  const backing = p.liquidity + stakes;
  if (backing <= locked) return 0n;
  const reserve = usdcFor(p.pendingWithdrawShares, { liquidity: p.liquidity, shares: p.totalShares });
  return backing - locked > reserve ? backing - locked - reserve : 0n;
}

const maxPayoutOf = (stake: bigint, paytable: Paytable) => (stake * BigInt(paytable.maxMultiplierBps)) / 10_000n;
/** What PerWagerCap compares with the cap: the max payout itself. */
const exposureOf = (stake: bigint, paytable: Paytable) => maxPayoutOf(stake, paytable);

/** The largest stake whose exposure fits `allowed`. */
function largestStake(allowed: bigint, paytable: Paytable): bigint {
  let lo = 0n;
  let hi = 1n << 40n;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (exposureOf(mid, paytable) <= allowed) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

// ---- Chain helpers: every permissionless step is cranked by the keeper, fees paid by the admin ----

async function send(world: World, instructions: Instruction[]): Promise<TransactionOutcome> {
  return world.chain.runner.send(world.chain.admin, instructions);
}

function expectOk(outcome: TransactionOutcome) {
  expect(outcome.ok, `${outcome.failure?.message}\n${outcome.logs.join('\n')}`).toBe(true);
}

function expectRefused(outcome: TransactionOutcome, error: string): bigint {
  expect(errorNameOf(outcome), outcome.logs.join('\n')).toBe(error);
  return 0n; // a refused step pays nobody
}

/** Runs `body` and checks the keeper's lamports moved by exactly the fee it predicts. */
async function paysKeeper(world: World, body: () => Promise<bigint>) {
  const keeper = world.chain.keeper.address;
  const before = lamportsOf(world.chain, keeper);
  const fee = await body();
  expect(lamportsOf(world.chain, keeper) - before, 'fee paid to the keeper').toBe(fee);
}

function refreshRecord(world: World, w: ModelWager) {
  const record = readWager(world.chain, w.address);
  if (record) w.record = record;
}

// ---- Setup ------------------------------------------------------------------------------------------

async function createWorld(scale: Scale): Promise<World> {
  const chain = await createWagerTestChain({ liquidity: SCALES[scale].seeded, config: { epochLength: CONFIG.epochLength } });
  const [vault] = await findVaultPda();
  const [escrow] = await findEscrowPda();
  const [shareMint] = await findShareMintPda();
  const [shareEscrow] = await findShareEscrowPda();
  const paytables = new Map<Address, Paytable>();
  for (const name of PAYTABLES) {
    const account = chain.runner.svm.getAccount(chain.paytables[name]!);
    if (!account.exists) throw new Error(`no paytable ${name}`);
    paytables.set(chain.paytables[name]!, getPaytableDecoder().decode(account.data));
  }
  const lps: Lp[] = [{ signer: chain.lp, usdc: await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, chain.lp.address), shares: chain.lpShares }];
  for (let i = 0; i < 2; i++) {
    const signer = await generateKeyPairSigner();
    chain.runner.svm.airdrop(signer.address, lamports(10n * SOL));
    lps.push({
      signer,
      usdc: await mintTokens(chain.runner, chain.admin, chain.usdc, signer.address, SCALES[scale].lpUsdc),
      shares: await ensureTokenAccount(chain.runner, chain.admin, shareMint, signer.address),
    });
  }
  const fragileOwner = await generateKeyPairSigner();
  chain.runner.svm.airdrop(fragileOwner.address, lamports(SOL));
  const fragile = await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, fragileOwner.address);
  const sink = await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, chain.admin.address);

  const pool = await readPool(chain);
  const balances = new Map<Address, bigint>();
  for (const account of [chain.playerUsdc, fragile, sink, ...lps.flatMap((lp) => [lp.usdc, lp.shares])]) balances.set(account, usdcOf(chain, account));
  return {
    chain, accounts: { vault, escrow, shareMint, shareEscrow }, paytables, lps, fragileOwner, fragile, sink, fragileOpen: true,
    pool: {
      liquidity: pool.liquidity, totalShares: pool.totalShares, pendingDeposits: 0n, pendingWithdrawShares: 0n,
      owedWithdrawals: 0n, pendingPayouts: 0n, epoch: pool.epoch, closeSlot: pool.epochCloseSlot, liveHasRecord: false,
      postCloseCredits: 0n, postCloseDebits: 0n,
    },
    shareDust: 0n, owedDust: 0n, struckRequests: { deposit: 0, withdraw: 0 },
    epochs: new Map(), wagers: [], requests: [], balances, log: [],
    counts: { strikes: 0, settled: 0, parked: 0, claimedPayouts: 0, expired: 0, liquidityClaims: 0 },
  };
}

// ---- Step execution: predict, act, compare --------------------------------------------------------

async function runStep(world: World, step: Step): Promise<void> {
  const { chain } = world;
  const slot = chain.runner.slot();
  switch (step.kind) {
    case 'progress': {
      const w = pick(world.wagers.filter((x) => x.status !== 'closed'), step.a);
      if (!w) return;
      // Past its window an unfulfilled wager is expired (or, half the time if requested, fulfilled late).
      const late = slot > w.expirySlot && (w.status === 'open' || (w.status === 'requested' && step.b % 2 === 0));
      const next = late ? 'expire' : ({ open: 'request', requested: 'fulfil', fulfilled: 'settle', pending: 'claimPayout' } as const)[w.status as Exclude<Status, 'closed'>];
      if (next === 'request' && slot < w.openSlot + 2n) {
        chain.runner.advanceSlots(Number(w.openSlot + 2n - slot));
        world.log.push(`advance ${w.openSlot + 2n - slot}`);
      }
      const candidates = world.wagers.filter(next === 'settle' || next === 'expire' ? isOpen : (x) => x.status === w.status);
      return runStep(world, { kind: next, a: candidates.indexOf(w), b: step.b });
    }

    case 'advance': {
      const slots = ADVANCES[step.a % ADVANCES.length]!;
      chain.runner.advanceSlots(slots);
      world.log.push(`advance ${slots}`);
      return;
    }

    case 'open': {
      const name = PAYTABLES[step.a % PAYTABLES.length]!;
      const paytable = world.paytables.get(chain.paytables[name]!)!;
      const toFragile = Math.floor(step.a / 3) % 2 === 0;
      const allowed = (freeLiquidity(world) * BigInt(CONFIG.perWagerCapBps)) / 10_000n;
      const largest = largestStake(allowed, paytable);
      const stake = (largest * BigInt(step.b)) / 1000n > 0n ? (largest * BigInt(step.b)) / 1000n : 1n;
      const beneficiary = toFragile ? world.fragile : chain.playerUsdc;
      const opened = await openWager(chain, { paytable: name, stake, beneficiary });
      world.log.push(`open ${name} stake ${stake} (largest ${largest}) to ${toFragile ? 'fragile' : 'player'}`);
      if (toFragile && !world.fragileOpen) return void expectRefused(opened.outcome, 'invalidBeneficiary');
      if (exposureOf(stake, paytable) > allowed) return void expectRefused(opened.outcome, 'perWagerCap');
      expectOk(opened.outcome);
      const record = readWager(chain, opened.wager)!;
      const epoch = slot <= world.pool.closeSlot ? world.pool.epoch : world.pool.epoch + 1n;
      expect(record).toMatchObject({ stake, maxPayout: maxPayoutOf(stake, paytable), epoch, openSlot: slot, expirySlot: slot + CONFIG.tSettle });
      world.wagers.push({
        address: opened.wager, stake, maxPayout: record.maxPayout, payout: null, epoch, openSlot: slot,
        expirySlot: record.expirySlot, beneficiary, status: 'open', record,
      });
      credit(world, chain.playerUsdc, -stake);
      return;
    }

    case 'request': {
      const w = pick(world.wagers.filter((x) => x.status === 'open'), step.a);
      if (!w || slot < w.openSlot + 2n) return;
      let built;
      try {
        built = await getRequestRandomnessForWager({
          caller: chain.keeper, wagerAddress: w.address, wager: w.record, oracle: chain.oracle, slotHashes: chain.runner.svm.getSlotHashes(),
        });
      } catch (error) {
        // Only long after the window can the slot after the open have left SlotHashes.
        expect(error).toBeInstanceOf(SlotHashUnavailableError);
        expect(slot).toBeGreaterThan(w.expirySlot);
        return;
      }
      world.log.push(`request ${w.address} at open+${slot - w.openSlot}`);
      await paysKeeper(world, async () => {
        const outcome = await send(world, [built.instruction]);
        if (slot > w.expirySlot) return expectRefused(outcome, 'requestWindowClosed');
        expectOk(outcome);
        return CONFIG.requestFee;
      });
      if (slot > w.expirySlot) return;
      w.status = 'requested';
      refreshRecord(world, w);
      const paytable = world.paytables.get(w.record.paytable)!;
      const randomness = await signRandomness(chain.oracle.fulfiller, built.seed);
      w.payout = payoutFor(w.stake, paytable.buckets[drawBucket(paytable, randomness)]!.multiplierBps);
      return;
    }

    case 'fulfil': {
      const w = pick(world.wagers.filter((x) => x.status === 'requested'), step.a);
      if (!w) return;
      world.log.push(`fulfil ${w.address}`);
      const instructions = await getFulfillRandomnessInstructions({ authority: chain.oracle.fulfiller, request: w.record.oracleRequest, seed: Uint8Array.from(w.record.seed) });
      expectOk(await send(world, instructions));
      w.status = 'fulfilled';
      return;
    }

    case 'settle': {
      const w = pick(world.wagers.filter(isOpen), step.a);
      if (!w) return;
      refreshRecord(world, w);
      world.log.push(`settle ${w.address} (${w.status})`);
      const ix = await getSettleForWager({ caller: chain.keeper, wagerAddress: w.address, wager: w.record });
      await paysKeeper(world, async () => {
        const outcome = await send(world, [ix]);
        if (w.status === 'open') return expectRefused(outcome, 'invalidWagerStatus');
        if (w.status === 'requested') return expectRefused(outcome, 'notFulfilled');
        expectOk(outcome);
        return CONFIG.settleFee;
      });
      if (w.status !== 'fulfilled') return;
      const payout = w.payout!;
      world.pool.liquidity += w.stake - payout;
      if (w.epoch !== world.pool.epoch) {
        world.pool.postCloseCredits += w.stake;
        world.pool.postCloseDebits += payout;
      }
      world.counts.settled++;
      if (payout > 0n && w.beneficiary === world.fragile && !world.fragileOpen) {
        world.counts.parked++;
        world.pool.pendingPayouts += payout;
        w.status = 'pending';
        refreshRecord(world, w);
        expect(w.record).toMatchObject({ status: 3, payout });
      } else {
        credit(world, w.beneficiary, payout);
        w.status = 'closed';
        expect(readWager(chain, w.address)).toBeNull();
      }
      return;
    }

    case 'expire': {
      const w = pick(world.wagers.filter(isOpen), step.a);
      if (!w) return;
      refreshRecord(world, w);
      world.log.push(`expire ${w.address} (${w.status}) at open+${slot - w.openSlot}`);
      const ix = await getExpireForWager({ caller: chain.keeper, wagerAddress: w.address, wager: w.record });
      let expired = false;
      await paysKeeper(world, async () => {
        const outcome = await send(world, [ix]);
        if (slot <= w.expirySlot) return expectRefused(outcome, 'notExpired');
        if (w.status === 'fulfilled') return expectRefused(outcome, 'alreadyFulfilled');
        expectOk(outcome);
        expired = true;
        return CONFIG.expireFee;
      });
      if (!expired) return;
      world.pool.liquidity += w.stake; // forfeiture
      if (w.epoch !== world.pool.epoch) world.pool.postCloseCredits += w.stake;
      w.status = 'closed';
      world.counts.expired++;
      return;
    }

    case 'claimPayout': {
      const w = pick(world.wagers.filter((x) => x.status === 'pending'), step.a);
      if (!w) return;
      world.log.push(`claim_payout ${w.address} (beneficiary ${world.fragileOpen ? 'open' : 'closed'})`);
      const ix = await getClaimPayoutForWager({ caller: chain.keeper, wagerAddress: w.address, wager: w.record });
      await paysKeeper(world, async () => {
        const outcome = await send(world, [ix]);
        if (!world.fragileOpen) return expectRefused(outcome, 'beneficiaryCannotReceive');
        expectOk(outcome);
        return 0n;
      });
      if (!world.fragileOpen) return;
      world.pool.pendingPayouts -= w.payout!;
      credit(world, w.beneficiary, w.payout!);
      w.status = 'closed';
      world.counts.claimedPayouts++;
      return;
    }

    case 'replay': {
      // A finished wager's settle and claim_payout, replayed from its last record: refused, nothing paid.
      const w = pick(world.wagers.filter((x) => x.status === 'closed'), step.a);
      if (!w) return;
      world.log.push(`replay ${w.address}`);
      const settleIx = await getSettleForWager({ caller: chain.keeper, wagerAddress: w.address, wager: w.record });
      const claimIx = await getClaimPayoutForWager({ caller: chain.keeper, wagerAddress: w.address, wager: w.record });
      await paysKeeper(world, async () => {
        expectRefused(await send(world, [settleIx]), 'invalidWager');
        return expectRefused(await send(world, [claimIx]), 'invalidWager');
      });
      return;
    }

    case 'closeBeneficiary': {
      if (!world.fragileOpen) return;
      world.log.push('close the fragile beneficiary');
      const balance = usdcOf(chain, world.fragile);
      const instructions: Instruction[] = [];
      if (balance > 0n) instructions.push(getTransferInstruction({ source: world.fragile, destination: world.sink, authority: world.fragileOwner, amount: balance }));
      instructions.push(getCloseAccountInstruction({ account: world.fragile, destination: world.fragileOwner.address, owner: world.fragileOwner }));
      expectOk(await send(world, instructions));
      credit(world, world.sink, balance);
      world.balances.set(world.fragile, 0n);
      world.fragileOpen = false;
      return;
    }

    case 'reopenBeneficiary': {
      if (world.fragileOpen) return;
      world.log.push('re-create the fragile beneficiary');
      await ensureTokenAccount(chain.runner, chain.admin, chain.usdc.address, world.fragileOwner.address);
      world.fragileOpen = true;
      return;
    }

    case 'deposit': {
      const lpIndex = step.a % world.lps.length;
      const lp = world.lps[lpIndex]!;
      const balance = world.balances.get(lp.usdc)!;
      if (balance === 0n) return;
      const amount = (balance * BigInt(Math.min(step.b, 1000))) / 1000n || 1n;
      const epoch = world.pool.epoch;
      const [request] = await findDepositRequestPda({ owner: lp.signer.address, epoch });
      const [epochRecord] = await findEpochRecordPda({ epoch });
      world.log.push(`deposit lp${lpIndex} ${amount} in epoch ${epoch}`);
      const outcome = await send(world, [await getRequestDepositInstructionAsync({ owner: lp.signer, request, epochRecord, source: lp.usdc, amount })]);
      if (slot > world.pool.closeSlot) return void expectRefused(outcome, 'epochClosed');
      expectOk(outcome);
      world.pool.pendingDeposits += amount;
      world.pool.liveHasRecord = true;
      const existing = world.requests.find((r) => r.deposit && r.lp === lpIndex && r.epoch === epoch);
      if (existing) existing.amount += amount;
      else world.requests.push({ deposit: true, lp: lpIndex, epoch, amount, claimed: false });
      credit(world, lp.usdc, -amount);
      return;
    }

    case 'withdraw': {
      const lpIndex = step.a % world.lps.length;
      const lp = world.lps[lpIndex]!;
      const balance = world.balances.get(lp.shares)!;
      if (balance === 0n) return;
      const shares = (balance * BigInt(Math.min(step.b, 1000))) / 1000n || 1n;
      const epoch = world.pool.epoch;
      const [request] = await findWithdrawRequestPda({ owner: lp.signer.address, epoch });
      const [epochRecord] = await findEpochRecordPda({ epoch });
      world.log.push(`withdraw lp${lpIndex} ${shares} shares in epoch ${epoch}`);
      const outcome = await send(world, [await getRequestWithdrawInstructionAsync({ owner: lp.signer, request, epochRecord, source: lp.shares, shares })]);
      const p = world.pool;
      if (slot > p.closeSlot) return void expectRefused(outcome, 'epochClosed');
      const pending = p.pendingWithdrawShares + shares;
      const { stakes, locked } = openTotals(world);
      const value = usdcFor(pending, { liquidity: p.liquidity, shares: p.totalShares });
      if (pending > p.totalShares || p.liquidity + stakes < locked + value) return void expectRefused(outcome, 'insufficientFreeLiquidity');
      expectOk(outcome);
      p.pendingWithdrawShares = pending;
      p.liveHasRecord = true;
      const existing = world.requests.find((r) => !r.deposit && r.lp === lpIndex && r.epoch === epoch);
      if (existing) existing.amount += shares;
      else world.requests.push({ deposit: false, lp: lpIndex, epoch, amount: shares, claimed: false });
      credit(world, lp.shares, -shares);
      return;
    }

    case 'strike': {
      const p = world.pool;
      const [epochRecord] = await findEpochRecordPda({ epoch: p.epoch });
      // The price leaves out the outcomes of wagers opened after the close (floored at 0).
      const priced = p.liquidity + p.postCloseDebits - p.postCloseCredits;
      const at: StruckEpoch = { liquidity: priced > 0n ? priced : 0n, shares: p.totalShares };
      const { stakes, locked, byParity } = openTotals(world);
      const newShares = sharesFor(p.pendingDeposits, at);
      const withdrawn = usdcFor(p.pendingWithdrawShares, at);
      const nextLiquidity = p.liquidity + p.pendingDeposits - withdrawn;
      // The same, without the post-close outcomes: what the price check below compares with `at`.
      const nextPriced = at.liquidity + p.pendingDeposits - withdrawn;
      world.log.push(`strike epoch ${p.epoch} at close${slot >= p.closeSlot ? '+' : '-'}${slot >= p.closeSlot ? slot - p.closeSlot : p.closeSlot - slot}`);
      let struck = false;
      await paysKeeper(world, async () => {
        const outcome = await send(world, [await getStrikeEpochInstructionAsync({ caller: chain.keeper, epochRecord })]);
        if (slot <= p.closeSlot) return expectRefused(outcome, 'epochNotClosed');
        if (byParity[Number(p.epoch & 1n)] !== 0n) return expectRefused(outcome, 'epochHasOpenWagers');
        if (nextLiquidity + stakes < locked) return expectRefused(outcome, 'insufficientFreeLiquidity');
        expectOk(outcome);
        struck = true;
        return p.liveHasRecord ? CONFIG.liquidityFee : 0n;
      });
      if (!struck) return;
      world.counts.strikes++;
      const epochRequests = world.requests.filter((r) => r.epoch === p.epoch);
      const deposits = epochRequests.filter((r) => r.deposit);
      const withdrawals = epochRequests.filter((r) => !r.deposit);
      world.shareDust += newShares - deposits.reduce((s, r) => s + sharesFor(r.amount, at), 0n);
      world.owedDust += withdrawn - withdrawals.reduce((s, r) => s + usdcFor(r.amount, at), 0n);
      world.struckRequests.deposit += deposits.length;
      world.struckRequests.withdraw += withdrawals.length;
      world.epochs.set(p.epoch, at);
      p.liquidity = nextLiquidity;
      p.totalShares = p.totalShares + newShares - p.pendingWithdrawShares;
      p.owedWithdrawals += withdrawn;
      p.pendingDeposits = 0n;
      p.pendingWithdrawShares = 0n;
      p.epoch += 1n;
      p.postCloseCredits = 0n;
      p.postCloseDebits = 0n;
      p.closeSlot = p.closeSlot + CONFIG.epochLength > slot ? p.closeSlot + CONFIG.epochLength : slot;
      p.liveHasRecord = false;
      // The price per share never falls at a strike: (L'+1)/(S'+1) >= (L+1)/(S+1), both without the outcomes of
      // wagers opened after the close (those move the next epoch's LPs' value, not this strike's price).
      expect((nextPriced + 1n) * (at.shares + 1n) >= (at.liquidity + 1n) * (p.totalShares + 1n), 'price per share fell at the strike').toBe(true);
      return;
    }

    case 'claimDeposit':
    case 'claimWithdraw': {
      const deposit = step.kind === 'claimDeposit';
      // Mostly a claimable request; every fourth time any request (live, struck or already claimed).
      const ofKind = world.requests.filter((x) => x.deposit === deposit);
      const claimable = ofKind.filter((x) => !x.claimed && world.epochs.has(x.epoch));
      const r = pick(step.b % 4 === 0 || claimable.length === 0 ? ofKind : claimable, step.a);
      if (!r) return;
      const lp = world.lps[r.lp]!;
      const [request] = deposit
        ? await findDepositRequestPda({ owner: lp.signer.address, epoch: r.epoch })
        : await findWithdrawRequestPda({ owner: lp.signer.address, epoch: r.epoch });
      const [epochRecord] = await findEpochRecordPda({ epoch: r.epoch });
      const ix = deposit
        ? await getClaimDepositInstructionAsync({ caller: chain.keeper, epochRecord, request, owner: lp.signer.address, ownerShares: lp.shares })
        : await getClaimWithdrawInstructionAsync({ caller: chain.keeper, epochRecord, request, owner: lp.signer.address, ownerUsdc: lp.usdc });
      const struck = world.epochs.get(r.epoch);
      world.log.push(`${step.kind} lp${r.lp} epoch ${r.epoch} (${r.claimed ? 'claimed' : struck ? 'struck' : 'live'})`);
      await paysKeeper(world, async () => {
        const outcome = await send(world, [ix]);
        if (r.claimed) return expectRefused(outcome, 'invalidLiquidityRequest');
        if (!struck) return expectRefused(outcome, 'epochNotStruck');
        expectOk(outcome);
        return CONFIG.liquidityFee;
      });
      if (r.claimed || !struck) return;
      r.claimed = true;
      world.counts.liquidityClaims++;
      if (deposit) credit(world, lp.shares, sharesFor(r.amount, struck));
      else {
        const paid = usdcFor(r.amount, struck);
        credit(world, lp.usdc, paid);
        world.pool.owedWithdrawals -= paid;
      }
      return;
    }
  }
}

// ---- Invariants -------------------------------------------------------------------------------------

async function checkInvariants(world: World) {
  const { chain, accounts } = world;
  const pool: Pool = await readPool(chain);
  const vault = usdcOf(chain, accounts.vault);
  const escrow = usdcOf(chain, accounts.escrow);
  const shareEscrow = usdcOf(chain, accounts.shareEscrow);
  const mint = chain.runner.svm.getAccount(accounts.shareMint);
  if (!mint.exists) throw new Error('no share mint');
  const supply = getMintDecoder().decode(mint.data).supply;

  // USDC: the vault holds exactly what the books say; the escrow holds the parked payouts.
  const booked = pool.liquidity + pool.openStakes + pool.pendingDeposits + pool.owedWithdrawals;
  expect(vault - booked, 'vault USDC − (liquidity + openStakes + pendingDeposits + owedWithdrawals)').toBe(0n);
  expect(escrow, 'escrow USDC == pendingPayouts').toBe(pool.pendingPayouts);

  // Open wagers: liability, stakes and counts by epoch parity.
  const open = openTotals(world);
  expect(pool.lockedLiability, 'lockedLiability == Σ maxPayout of open wagers').toBe(open.locked);
  expect(pool.openStakes, 'openStakes == Σ stake of open wagers').toBe(open.stakes);
  expect(pool.openWagers, 'openWagers by epoch parity').toEqual(open.byParity);
  for (const w of world.wagers) {
    const status = readWager(chain, w.address)?.status ?? null;
    const expected = { open: 1, requested: 2, fulfilled: 2, pending: 3, closed: null }[w.status];
    expect(status, `status of ${w.address}`).toBe(expected);
  }

  // The model of the pool: liquidity moves only by outcomes and strikes.
  const p = world.pool;
  expect(pool, 'pool vs model').toMatchObject({
    liquidity: p.liquidity, totalShares: p.totalShares, pendingDeposits: p.pendingDeposits,
    pendingWithdrawShares: p.pendingWithdrawShares, owedWithdrawals: p.owedWithdrawals, pendingPayouts: p.pendingPayouts,
    epoch: p.epoch, epochCloseSlot: p.closeSlot, liveEpochHasRecord: p.liveHasRecord ? 1 : 0,
    postCloseCredits: p.postCloseCredits, postCloseDebits: p.postCloseDebits,
  });

  // Every tracked balance (beneficiaries, LPs' USDC and shares): each payout arrives exactly once.
  for (const [account, expected] of world.balances) expect(usdcOf(chain, account), `balance of ${account}`).toBe(expected);

  // Shares and owed USDC as the strike and the claims define them.
  const unclaimed = world.requests.filter((r) => !r.claimed && world.epochs.has(r.epoch));
  const owedShares = unclaimed.filter((r) => r.deposit).reduce((s, r) => s + sharesFor(r.amount, world.epochs.get(r.epoch)!), 0n);
  const escrowedStruck = unclaimed.filter((r) => !r.deposit).reduce((s, r) => s + r.amount, 0n);
  const owedUsdc = unclaimed.filter((r) => !r.deposit).reduce((s, r) => s + usdcFor(r.amount, world.epochs.get(r.epoch)!), 0n);
  expect(shareEscrow, 'share escrow == pending + struck unclaimed withdrawals').toBe(pool.pendingWithdrawShares + escrowedStruck);
  expect(supply - (shareEscrow - pool.pendingWithdrawShares) + owedShares + world.shareDust, 'totalShares relation').toBe(pool.totalShares);
  expect(pool.owedWithdrawals, 'owedWithdrawals relation').toBe(owedUsdc + world.owedDust);
  expect(world.shareDust >= 0n && world.shareDust <= BigInt(Math.max(0, world.struckRequests.deposit - 1)), 'share dust bound').toBe(true);
  expect(world.owedDust >= 0n && world.owedDust <= BigInt(Math.max(0, world.struckRequests.withdraw - 1)), 'owed dust bound').toBe(true);
}

// ---- The property -------------------------------------------------------------------------------------

describe('accounting under random sequences of wagers and liquidity epochs', () => {
  it('keeps the vault, escrow, liabilities, shares and every payout exact after every step', { timeout: 300_000 }, async () => {
    const totals = { runs: 0, steps: 0, strikes: 0, settled: 0, parked: 0, claimedPayouts: 0, expired: 0, liquidityClaims: 0 };
    const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {};
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Scale>('large', 'small'), fc.array(stepArb, { minLength: 15, maxLength: 40 }), async (scale, steps) => {
        const world = await createWorld(scale);
        try {
          await checkInvariants(world);
          for (const step of steps) {
            await runStep(world, step);
            await checkInvariants(world);
          }
        } catch (error) {
          throw new Error(`${(error as Error).message}\nsteps taken:\n  ${world.log.join('\n  ')}`, { cause: error });
        }
        totals.runs++;
        if (process.env.FC_DEBUG) console.log(world.log.join('\n'), world.counts);
        totals.steps += steps.length;
        for (const key of ['strikes', 'settled', 'parked', 'claimedPayouts', 'expired', 'liquidityClaims'] as const) totals[key] += world.counts[key];
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 60), interruptAfterTimeLimit: 240_000, examples: EXAMPLES.flatMap((steps) => [['large', steps], ['small', steps]] as [Scale, Step[]][]), ...replay },
    );
    console.log('accounting property: what the sequences reached', totals);
    // The sequences must reach the interesting steps, or the property proves little.
    for (const key of ['strikes', 'settled', 'parked', 'claimedPayouts', 'expired', 'liquidityClaims'] as const) {
      expect(totals[key], `runs that reached ${key}`).toBeGreaterThan(0);
    }
  });
});
