/**
 * What the keeper tests share: an in-process localnet whose clock the test drives (a slot pump), keepers
 * with fresh keys and fresh SQLite files stopped after each test (`keeperTestbed`), wagers opened over JSON-RPC the way `wager-keeper open` does (optionally with
 * another beneficiary or paytable), and reading a wager's history back from the chain.
 */
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getFreezeAccountInstruction,
  getMintToInstruction,
  getThawAccountInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { connectToChain, type ChainConnection } from '../../chain/rpc-connection';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import * as wagerCodecs from '../../protocol/generated/wager';
import {
  encodePaytableName,
  findPaytablePda,
  getCreatePaytableInstructionAsync,
  getOpenWagerForApp,
  type WagerProgramEvent,
} from '../../protocol/wager';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { openDatabase, type Database } from '../../store/database';
import { createKeeper, type Keeper } from '../keeper';
import { NETWORK_STATE_REQUEST_FEE_OFFSET } from '../../protocol/wager/fee-account-top-up';

export type LocalRpc = Rpc<SolanaRpcApi>;

/** Polls `read` until it returns something other than undefined; throws after `ms` naming `what`. */
export async function waitFor<T>(read: () => T | undefined | Promise<T | undefined>, ms: number, what: string, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A temp directory for one test's files (SQLite, keypair files); `remove()` deletes it. */
export async function tempDir(prefix = 'keeper-test-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, path: (name: string) => join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh SQLite file (the keeper's store) in `dir`. */
export function freshDatabase(dir: { path: (name: string) => string }, name = 'keeper.db'): Database {
  return openDatabase(dir.path(name));
}

/**
 * The chain clock driven by the test: one slot every `ms` while running (the localnet is started with
 * manualSlots so that a test can also jump many slots at once, e.g. past the settlement window).
 */
export function slotPump(localnet: Localnet, ms = 60) {
  let timer: NodeJS.Timeout | undefined;
  const pump = {
    start() {
      timer ??= setInterval(() => localnet.chain.advanceSlots(1), ms);
      return pump;
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
  return pump;
}

/** The dev keys and a kit connection for a started localnet. */
export async function localnetParts(localnet: Localnet) {
  const connection: ChainConnection = connectToChain(localnet.rpcUrl, localnet.wsUrl);
  const app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
  const keeperKey = await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair);
  return { connection, rpc: connection.rpc, app, keeperKey, program: address(localnet.manifest.programs.wager), mint: address(localnet.manifest.usdcMint) };
}

export type LocalnetParts = Awaited<ReturnType<typeof localnetParts>>;

export interface TestKeeperOptions {
  /** Start it before returning (the default); `false`: not started, it knows only what it is told. */
  start?: boolean;
  /** The keeper's clock. */
  now?: () => number;
  /** Its JSON-RPC (e.g. a proxy in front of the localnet's); the localnet's own by default. */
  rpcUrl?: string;
  /** Its WebSocket; the localnet's own by default. */
  wsUrl?: string;
  /** Called with the keeper just before it is started. */
  beforeStart?: (keeper: Keeper) => void;
  sweepIntervalMs?: number;
}

export interface KeeperTestbed {
  /** The in-process localnet (manualSlots) and what `localnetParts` gives for it; set in the testbed's beforeAll. */
  readonly localnet: Localnet;
  readonly parts: LocalnetParts;
  readonly rpc: LocalRpc;
  readonly dir: Awaited<ReturnType<typeof tempDir>>;
  readonly pump: ReturnType<typeof slotPump>;
  /**
   * A keeper with its own freshly airdropped key (10 SOL) and a fresh SQLite file `<name>.db`, started unless
   * `start: false`; stopped and its file closed after the test.
   */
  keeper(name: string, options?: TestKeeperOptions): Promise<{ keeper: Keeper; db: Database; key: KeyPairSigner }>;
  /** Stops one of the testbed's keepers mid-test and closes its file (unless `closeDb: false`: the test closes it). */
  stopKeeper(keeper: Keeper, options?: { closeDb?: boolean }): Promise<void>;
}

/**
 * The fixture of the keeper tests, its hooks registered by the call: beforeAll starts an in-process localnet
 * with manualSlots, a slot pump (one slot every `pumpMs`, started unless `startPump: false`) and a temp
 * directory; afterEach stops every keeper the test made, closes its SQLite file and resumes the oracle;
 * afterAll stops the pump and the localnet and removes the directory. Read its fields inside hooks and tests.
 */
export function keeperTestbed({ prefix, pumpMs = 60, startPump = true }: { prefix?: string; pumpMs?: number; startPump?: boolean } = {}): KeeperTestbed {
  let localnet: Localnet | undefined;
  let parts: LocalnetParts | undefined;
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  let pump: ReturnType<typeof slotPump> | undefined;
  const running: { keeper: Keeper; db: Database }[] = [];
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the keeper testbed's ${what} is set in its beforeAll: read it inside a hook or a test`);
    return value;
  };

  beforeAll(async () => {
    localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
    parts = await localnetParts(localnet);
    pump = slotPump(localnet, pumpMs);
    if (startPump) pump.start();
    dir = await tempDir(prefix);
  });
  afterAll(async () => {
    pump?.stop();
    await localnet?.stop();
    await dir?.remove();
  });
  afterEach(async () => {
    for (const { keeper, db } of running.splice(0)) {
      await keeper.stop();
      db.close();
    }
    localnet?.fulfiller.resume();
  });

  return {
    get localnet() {
      return ready(localnet, 'localnet');
    },
    get parts() {
      return ready(parts, 'parts');
    },
    get rpc() {
      return ready(parts, 'parts').rpc;
    },
    get dir() {
      return ready(dir, 'dir');
    },
    get pump() {
      return ready(pump, 'pump');
    },
    async keeper(name, { start = true, now, rpcUrl, wsUrl, beforeStart, sweepIntervalMs = 60_000 } = {}) {
      const net = ready(localnet, 'localnet');
      const key = await generateKeyPairSigner();
      net.chain.airdrop(key.address, 10_000_000_000n); // 10 SOL
      const db = freshDatabase(ready(dir, 'dir'), `${name}.db`);
      const connection = rpcUrl === undefined && wsUrl === undefined ? ready(parts, 'parts').connection : connectToChain(rpcUrl ?? net.rpcUrl, wsUrl ?? net.wsUrl);
      const keeper = createKeeper({ connection, signer: key, db, now, sweepIntervalMs, programAddress: ready(parts, 'parts').program });
      running.push({ keeper, db });
      beforeStart?.(keeper);
      if (start) await keeper.start();
      return { keeper, db, key };
    },
    async stopKeeper(keeper, { closeDb = true } = {}) {
      const index = running.findIndex((r) => r.keeper === keeper);
      if (index < 0) throw new Error('stopKeeper: not a running keeper of this testbed');
      const [entry] = running.splice(index, 1);
      await entry!.keeper.stop();
      if (closeDb) entry!.db.close();
    },
  };
}

/** A transaction message paid by `feePayer` carrying `instructions`, on the latest confirmed blockhash (not signed). */
export async function transactionMessage(rpc: LocalRpc, feePayer: KeyPairSigner, instructions: readonly Instruction[]) {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
}

/** Signs `instructions` with `feePayer` (and any signer they name), sends them with preflight and returns the signature once landed. */
export async function sendInstructions(rpc: LocalRpc, feePayer: KeyPairSigner, instructions: readonly Instruction[]): Promise<Signature> {
  const signed = await signTransactionMessageWithSigners(await transactionMessage(rpc, feePayer, instructions));
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
  const signature = getSignatureFromTransaction(signed);
  await waitFor(
    async () => {
      const { value } = await rpc.getSignatureStatuses([signature]).send();
      const status = value[0];
      if (status?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
      return status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized' ? true : undefined;
    },
    10_000,
    `transaction ${signature} to land`,
    20,
  );
  return signature;
}

export const usdcAccountOf = async (mint: Address, owner: Address) =>
  (await findAssociatedTokenPda({ mint, owner, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

/** A liquidity provider: a fresh funded wallet holding `usdc` test USDC (minted) and an empty share account. */
export async function fundedLiquidityProvider(localnet: Localnet, rpc: LocalRpc, mint: Address, usdc: bigint): Promise<{ lp: KeyPairSigner; source: Address; shares: Address }> {
  const lp = await generateKeyPairSigner();
  localnet.chain.airdrop(lp.address, 2_000_000_000n);
  const mintAuthority = await keypairFromBytes(localnet.manifest.mintAuthority);
  const source = await usdcAccountOf(mint, lp.address);
  const shareMint = address(localnet.manifest.shareMint);
  const shares = await usdcAccountOf(shareMint, lp.address);
  await sendInstructions(rpc, lp, [
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: lp, mint, owner: lp.address }),
    getMintToInstruction({ mint, token: source, mintAuthority, amount: usdc }),
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: lp, mint: shareMint, owner: lp.address }),
  ]);
  return { lp, source, shares };
}

/** A fresh wallet with a (new, empty) USDC account: a beneficiary other than the app. */
export async function freshBeneficiary(rpc: LocalRpc, mint: Address, payer: KeyPairSigner): Promise<{ owner: KeyPairSigner; usdc: Address }> {
  const owner = await generateKeyPairSigner();
  await sendInstructions(rpc, payer, [await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, mint, owner: owner.address })]);
  return { owner, usdc: await usdcAccountOf(mint, owner.address) };
}

/** Gives `owner` a USDC account holding `amount` (base units) from the localnet's dev app key. */
export async function giveUsdc(rpc: LocalRpc, { app, mint }: Pick<LocalnetParts, 'app' | 'mint'>, owner: Address, amount: bigint): Promise<void> {
  await sendInstructions(rpc, app, [
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: app, mint, owner }),
    getTransferCheckedInstruction({ source: await usdcAccountOf(mint, app.address), mint, destination: await usdcAccountOf(mint, owner), authority: app, amount, decimals: 6 }),
  ]);
}

/** What the helpers below need of a testbed: its localnet, its dev keys and its RPC. */
export type TestbedChain = Pick<KeeperTestbed, 'localnet' | 'parts' | 'rpc'>;

/** The localnet's mint authority freezes a USDC account: a beneficiary that cannot receive a payout. */
export async function freezeUsdc(bed: TestbedChain, account: Address): Promise<Signature> {
  const owner = await keypairFromBytes(bed.localnet.manifest.mintAuthority);
  return sendInstructions(bed.rpc, bed.parts.app, [getFreezeAccountInstruction({ account, mint: bed.parts.mint, owner })]);
}

/** The localnet's mint authority thaws a USDC account frozen by freezeUsdc: it can receive again. */
export async function thawUsdc(bed: TestbedChain, account: Address): Promise<Signature> {
  const owner = await keypairFromBytes(bed.localnet.manifest.mintAuthority);
  return sendInstructions(bed.rpc, bed.parts.app, [getThawAccountInstruction({ account, mint: bed.parts.mint, owner })]);
}

let nonceCounter = 0n;

export interface OpenedWager {
  wager: Address;
  signature: Signature;
  beneficiary: Address;
}

/**
 * Opens a wager exactly as `wager-keeper open` does (the dev app key is integrator, payer and stake owner),
 * with the app's own USDC account as beneficiary unless another is given.
 */
export async function openWager(
  rpc: LocalRpc,
  localnet: Localnet,
  app: KeyPairSigner,
  options: { paytable?: string; paytableAddress?: Address; stake?: bigint; beneficiary?: Address } = {},
): Promise<OpenedWager> {
  const { manifest } = localnet;
  const paytable = options.paytableAddress ?? address(manifest.paytables.find((p) => p.name === (options.paytable ?? 'coin-flip'))!.address);
  const stakeSource = await usdcAccountOf(address(manifest.usdcMint), app.address);
  const nonce = BigInt(Date.now()) * 1000n + (nonceCounter++ % 1000n);
  const beneficiary = options.beneficiary ?? stakeSource;
  const { instruction, wager } = await getOpenWagerForApp({
    payer: app,
    stakeOwner: app,
    integratorAuthority: app,
    paytable,
    stakeSource,
    beneficiary,
    oracleNetworkState: address(manifest.oracle.networkState),
    stake: options.stake ?? 1_000_000n,
    nonce,
  });
  const signature = await sendInstructions(rpc, app, [instruction]);
  return { wager, signature, beneficiary };
}

/** What the always-pays paytable's bucket 0 pays, in basis points of the stake. */
export const ALWAYS_PAYS_MULTIPLIER_BPS = 9_799n;

/**
 * A paytable that practically always draws bucket 0, paying 0.9799x: every settlement has a payout, so a
 * test about payouts does not depend on the draw. A paytable must be able to pay at least 1x, so bucket
 * 1 pays 1x with weight 1 against 4 000 000 000 (one draw in four billion); the expected return stays
 * within the 2 % house edge. Created by the localnet's admin key, once.
 */
export async function alwaysPaysPaytable(rpc: LocalRpc, localnet: Localnet): Promise<Address> {
  const name = encodePaytableName('always-pays');
  const [paytable] = await findPaytablePda({ name });
  const { value } = await rpc.getAccountInfo(paytable, { encoding: 'base64' }).send();
  if (value) return paytable;
  const admin = localnet.genesis.keys.admin.signer;
  await sendInstructions(rpc, admin, [
    await getCreatePaytableInstructionAsync({
      admin,
      name,
      bucketCount: 2,
      buckets: [
        { weight: 4_000_000_000, multiplierBps: Number(ALWAYS_PAYS_MULTIPLIER_BPS) },
        { weight: 1, multiplierBps: 10_000 },
      ],
    }),
  ]);
  return paytable;
}

/**
 * A wager on the always-pays paytable (2 USDC staked unless `stake` is given) whose beneficiary, a fresh
 * wallet, has its USDC account frozen right after the open: its settlement parks the payout.
 * `beneficiary` is that USDC account.
 */
export async function openParkedPayoutWager(bed: TestbedChain, stake = 2_000_000n): Promise<OpenedWager> {
  const paytable = await alwaysPaysPaytable(bed.rpc, bed.localnet);
  const beneficiary = await freshBeneficiary(bed.rpc, bed.parts.mint, bed.parts.app);
  const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app, { paytableAddress: paytable, stake, beneficiary: beneficiary.usdc });
  await freezeUsdc(bed, beneficiary.usdc);
  return opened;
}

/**
 * Another keeper of the testbed (`name`: its own key and SQLite file, not the one under test) is handed
 * `wager` and runs until its record of it passes `done` (`what` names that in a timeout, 20 s), then is
 * stopped, also when the wait fails.
 */
export async function anotherKeeperRuns(
  bed: KeeperTestbed,
  { name, wager, done, what, rpcUrl }: { name: string; wager: Address; done: (record: ReturnType<Keeper['records']['get']>) => boolean; what: string; rpcUrl?: string },
): Promise<void> {
  const { keeper } = await bed.keeper(name, { start: false, rpcUrl });
  try {
    await keeper.start();
    await keeper.submitWager(wager);
    await waitFor(() => (done(keeper.records.get(wager)) ? true : undefined), 20_000, what);
  } finally {
    await bed.stopKeeper(keeper);
  }
}

const EVENT_DECODERS: Record<WagerProgramEvent['name'], () => { decode(bytes: Uint8Array): unknown }> = {
  WagerOpened: wagerCodecs.getWagerOpenedEventDecoder,
  WagerRandomnessRequested: wagerCodecs.getWagerRandomnessRequestedEventDecoder,
  WagerSettled: wagerCodecs.getWagerSettledEventDecoder,
  WagerExpired: wagerCodecs.getWagerExpiredEventDecoder,
  PayoutClaimed: wagerCodecs.getPayoutClaimedEventDecoder,
  DepositRequested: wagerCodecs.getDepositRequestedEventDecoder,
  WithdrawRequested: wagerCodecs.getWithdrawRequestedEventDecoder,
  EpochStruck: wagerCodecs.getEpochStruckEventDecoder,
  DepositClaimed: wagerCodecs.getDepositClaimedEventDecoder,
  WithdrawClaimed: wagerCodecs.getWithdrawClaimedEventDecoder,
};
const eventNameByDiscriminator = new Map(
  (Object.keys(EVENT_DECODERS) as WagerProgramEvent['name'][]).map((name) => [
    createHash('sha256').update(`event:${name}`).digest().subarray(0, 8).toString('hex'),
    name,
  ]),
);

/**
 * The wager program's events in `logs` (its own "Program data:" records, CPIs excluded), each named by
 * its 8-byte discriminator, sha256("event:<Name>")[..8]. The tests read events this way, independently of
 * the project's decodeWagerEventsFromLogs.
 */
export function strictWagerEvents(logs: readonly string[], program: Address): WagerProgramEvent[] {
  const stack: string[] = [];
  const events: WagerProgramEvent[] = [];
  for (const line of logs) {
    const invoke = /^Program (\w+) invoke \[\d+\]$/.exec(line);
    if (invoke) stack.push(invoke[1]!);
    else if (/^Program \w+ (success|failed)/.test(line)) stack.pop();
    else if (line.startsWith('Program data: ') && stack.at(-1) === program) {
      const bytes = Uint8Array.from(Buffer.from(line.slice('Program data: '.length), 'base64'));
      const name = eventNameByDiscriminator.get(Buffer.from(bytes.subarray(0, 8)).toString('hex'));
      if (name) events.push({ name, data: EVENT_DECODERS[name]().decode(bytes) } as WagerProgramEvent);
    }
  }
  return events;
}

/** The wager program's events of one landed transaction. */
export async function eventsOf(rpc: LocalRpc, signature: string, program: Address): Promise<WagerProgramEvent[]> {
  const tx = await rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
  if (!tx) throw new Error(`no transaction ${signature}`);
  if (tx.meta?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(tx.meta.err)}`);
  return strictWagerEvents(tx.meta?.logMessages ?? [], program);
}

/** Every successful transaction that touched `wager`, oldest first, with its wager events and slot (read from the chain's history). */
export function wagerHistory(localnet: Localnet, wager: Address, program: Address) {
  return localnet.chain
    .signaturesFor(wager)
    .filter((record) => record.err === null)
    .reverse()
    .map((record) => ({
      signature: record.signature,
      slot: record.slot,
      feePayer: record.accountKeys[0],
      events: strictWagerEvents(record.logMessages, program).filter((e) => 'wager' in e.data && e.data.wager === wager),
    }));
}

export const usdcBalance = async (rpc: LocalRpc, account: Address) => BigInt((await rpc.getTokenAccountBalance(account, { commitment: 'confirmed' }).send()).value.amount);

/**
 * Writes the oracle NetworkState's request_fee (bytes 72..80) in the localnet's LiteSVM state. The local
 * oracle has no instruction to change its fee (init_network sets it once): this stands in for the oracle
 * operator raising its fee, as ORAO's operator can on a public cluster.
 */
export function setOracleFee(localnet: Localnet, fee: bigint): void {
  const networkState = address(localnet.manifest.oracle.networkState);
  const account = localnet.chain.svm.getAccount(networkState);
  if (!account.exists) throw new Error('no oracle network state');
  const data = Uint8Array.from(account.data);
  new DataView(data.buffer).setBigUint64(NETWORK_STATE_REQUEST_FEE_OFFSET, fee, true);
  localnet.chain.svm.setAccount({ ...account, data });
}

