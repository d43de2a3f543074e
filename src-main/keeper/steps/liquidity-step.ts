/**
 * Spec 4.4, step 5, the liquidity side of the loop: `strike_epoch` once the live epoch may be struck (paid
 * when a request prefunded its fee, struck anyway otherwise so requests can resume), then `claim_deposit`
 * and `claim_withdraw` for struck requests' owners. Each step pays its caller; a claim whose owner has no
 * token account to receive into is left for later. Runs beside the wagers' pass, every few seconds.
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
  getPoolDecoder,
  getStrikeEpochInstructionAsync,
  getWithdrawRequestDiscriminatorBytes,
  type Config,
  type Pool,
} from '../../protocol/wager';
import type { CrankStep } from '../../../src-shared/crank-vocabulary';
import { fetchAccounts } from '../chain-view';
import type { CrankTurns } from '../crank-turns';
import type { KeeperContext } from '../keeper-context';
import type { SendPath } from '../send-path';
import type { KeeperSetup } from '../setup';

export interface LiquidityCrankerOptions {
  rpc: Rpc<SolanaRpcApi>;
  program: Address;
  signer: KeyPairSigner;
  config: () => Config | undefined;
  send: (step: CrankStep, subject: string | null, instructions: Instruction[]) => Promise<{ outcome: string }>;
  now: () => number;
  /** How often to look for claimable requests (they are listed with getProgramAccounts). */
  claimScanIntervalMs?: number;
  /** A fleet's turns (crank-turns.ts liquidityTurn); without, every strike and claim is this keeper's. */
  turn?: CrankTurns['liquidityTurn'];
}

export interface LiquidityCranker {
  /** One pass; never throws for a single step (the keeper logs). */
  pass(slot: bigint): Promise<void>;
}

const filterFor = (discriminator: ArrayLike<number>) => [
  { dataSize: 64n },
  { memcmp: { offset: 0n, bytes: Buffer.from(Uint8Array.from(discriminator)).toString('base64') as Base64EncodedBytes, encoding: 'base64' as const } },
];

export function createLiquidityCranker(options: LiquidityCrankerOptions): LiquidityCranker {
  const { rpc, program, signer } = options;
  const inFlight = new Set<string>();
  let lastClaimScan = 0;
  /** When each strike or claim was first seen sendable, and at how many claim scans (a fleet member's takeover counts from it). */
  const sightings = new Map<string, { slot: bigint; scans: number }>();
  const sighted = (subject: Address, slot: bigint, scan: boolean) => {
    const seen = sightings.get(subject) ?? { slot, scans: 0 };
    if (scan) seen.scans += 1;
    sightings.set(subject, seen);
    return seen;
  };
  /** A claim is found by a scan every claimScanIntervalMs: another member's is claimed only once seen at 3 scans (its owner had a whole interval). */
  const CLAIM_TAKEOVER_SCANS = 3;

  const readPool = async (): Promise<Pool | null> => {
    const [pool] = await findPoolPda({ programAddress: program });
    const { value } = await rpc.getAccountInfo(pool, { encoding: 'base64', commitment: 'confirmed' }).send();
    return value ? getPoolDecoder().decode(getBase64Encoder().encode(value.data[0])) : null;
  };

  const once = async (key: string, work: () => Promise<unknown>) => {
    if (inFlight.has(key)) return;
    inFlight.add(key);
    try {
      await work();
    } finally {
      inFlight.delete(key);
    }
  };

  const strike = async (slot: bigint, pool: Pool) => {
    const openBeforeClose = pool.openWagers[Number(pool.epoch & 1n)] ?? 0n;
    // Struck even without requests (no fee then): liquidity requests are refused (EpochClosed) from the
    // close until the strike, so an epoch left unstruck would block every LP.
    if (slot <= pool.epochCloseSlot || openBeforeClose !== 0n) return;
    const [epochRecord] = await findEpochRecordPda({ epoch: pool.epoch }, { programAddress: program });
    const seen = sighted(epochRecord, slot, false);
    if (options.turn && !options.turn('strike_epoch', epochRecord, (wait) => slot >= seen.slot + BigInt(wait))) return;
    await once(`strike:${pool.epoch}`, async () =>
      options.send('strike_epoch', `epoch ${pool.epoch}`, [await getStrikeEpochInstructionAsync({ caller: signer, epochRecord }, { programAddress: program })]),
    );
  };

  const claims = async (slot: bigint, pool: Pool) => {
    const config = options.config();
    if (!config || options.now() - lastClaimScan < (options.claimScanIntervalMs ?? 10_000)) return;
    lastClaimScan = options.now();
    for (const kind of ['deposit', 'withdraw'] as const) {
      const discriminator = kind === 'deposit' ? getDepositRequestDiscriminatorBytes() : getWithdrawRequestDiscriminatorBytes();
      const found = await rpc.getProgramAccounts(program, { encoding: 'base64', commitment: 'confirmed', filters: filterFor(discriminator) }).send();
      const struck = found
        .map(({ pubkey, account }) => ({ address: pubkey, request: getDepositRequestDecoder().decode(getBase64Encoder().encode(account.data[0])) }))
        .filter(({ request }) => request.epoch < pool.epoch);
      const mint = kind === 'deposit' ? pool.shareMint : config.usdcMint;
      const destinations = await Promise.all(
        struck.map(async ({ request }) => (await findAssociatedTokenPda({ mint, owner: request.owner, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0]),
      );
      const existing = await fetchAccounts(rpc, destinations);
      for (const [index, { address, request }] of struck.entries()) {
        if (!existing[index]) continue; // the owner has no account to receive into yet
        const seen = sighted(address, slot, true);
        const waited = (wait: number) => slot >= seen.slot + BigInt(wait) && seen.scans >= CLAIM_TAKEOVER_SCANS;
        if (options.turn && !options.turn(kind === 'deposit' ? 'claim_deposit' : 'claim_withdraw', address, waited)) continue;
        const [epochRecord] = await findEpochRecordPda({ epoch: request.epoch }, { programAddress: program });
        const destination = destinations[index]!;
        await once(`${kind}:${address}`, async () => {
          const instruction =
            kind === 'deposit'
              ? await getClaimDepositInstructionAsync({ caller: signer, epochRecord, request: address, owner: request.owner, ownerShares: destination }, { programAddress: program })
              : await getClaimWithdrawInstructionAsync({ caller: signer, epochRecord, request: address, owner: request.owner, ownerUsdc: destination }, { programAddress: program });
          return options.send(kind === 'deposit' ? 'claim_deposit' : 'claim_withdraw', address, [instruction]);
        });
      }
    }
  };

  return {
    async pass(slot) {
      const pool = await readPool();
      if (!pool) return;
      await strike(slot, pool);
      await claims(slot, pool);
      // Struck epochs and claimed requests are gone from the chain: forget them (a few per epoch at most).
      if (sightings.size > 1_000) sightings.clear();
    },
  };
}

/** Epochs last hundreds of slots, so a pass every few seconds is soon enough (and spares the RPC a pool read per slot). */
const LIQUIDITY_PASS_INTERVAL_MS = 3_000;

export interface LiquidityStep {
  /** Starts a pass beside the wagers' pass when it is time (never holds it up; not while paused). */
  maybeRun(slot: bigint): void;
  /** Resolves when the pass in flight (if any) ended. */
  idle(): Promise<void>;
}

export function createLiquidityStep(ctx: KeeperContext, setup: KeeperSetup, sendPath: SendPath, turns?: Pick<CrankTurns, 'liquidityTurn'>): LiquidityStep {
  const cranker = createLiquidityCranker({
    rpc: ctx.rpc,
    program: ctx.program,
    signer: ctx.signer,
    config: () => setup.config(),
    send: (step, subject, instructions) => sendPath.crank(step, subject, instructions),
    now: ctx.now,
    ...(turns ? { turn: turns.liquidityTurn } : {}),
  });
  let running: Promise<void> | undefined;
  let lastPass = 0;
  return {
    maybeRun(slot) {
      if (ctx.paused || running || ctx.now() - lastPass < LIQUIDITY_PASS_INTERVAL_MS) return;
      lastPass = ctx.now();
      running = cranker
        .pass(slot)
        .catch((error: Error) => ctx.log?.warn({ error: error.message }, 'liquidity pass failed'))
        .finally(() => (running = undefined));
    },
    async idle() {
      await running;
    },
  };
}
