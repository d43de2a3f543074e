/**
 * A whole wager the way an app and a keeper see it on the localnet: everything through JSON-RPC (kit's
 * client), the chain touched only through the localnet's admin methods (slots, oracle stall/resume).
 * open -> request at open+2 with s* and h* read from the SlotHashes sysvar -> the oracle fulfils -> settle;
 * then a second wager expires while the oracle is stalled.
 */
import {
  address,
  createSolanaRpc,
  getBase58Decoder,
  getBase64Encoder,
  getU64Decoder,
  isSolanaError,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  type Address,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRandomnessV2Decoder } from '../../protocol/oracle';
import {
  decodeWagerEventsFromLogs,
  drawBucket,
  getExpireForWager,
  getPaytableDecoder,
  getRequestRandomnessForWager,
  getSettleForWager,
  getWagerDecoder,
  payoutFor,
  wagerErrorName,
  WagerStatus,
  type SlotHash,
  type Wager,
} from '../../protocol/wager';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import { DEFAULT_WAGER_CONFIG } from '../bootstrap-wager';
import { startLocalnet, type Localnet } from '../localnet';
import { advanceLocalSlots, localOracleStatus, resumeLocalOracle, stallLocalOracle } from '../localnet-admin-client';
import { eventually, openWagerOverRpc, sendWire, signInstructions, usdcAccountOf, type LocalRpc } from './localnet-test-helpers';

const SLOT_HASHES_SYSVAR = address('SysvarS1otHashes111111111111111111111111111');
const TX_FEE = 5_000n;
const STAKE = 2_500_000n; // 2.50 USDC

let localnet: Localnet;
let rpc: LocalRpc;
let app: KeyPairSigner;
let keeper: KeyPairSigner;
let wagerProgram: Address;
let appUsdc: Address;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true, oracleDelaySlots: 1 });
  rpc = createSolanaRpc(localnet.rpcUrl);
  app = await keypairFromBytes(localnet.manifest.devKeys.app.keypair);
  keeper = await keypairFromBytes(localnet.manifest.devKeys.keeper.keypair);
  wagerProgram = address(localnet.manifest.programs.wager);
  appUsdc = await usdcAccountOf(localnet.manifest, app.address);
});
afterAll(async () => {
  await localnet?.stop();
});

const oracle = () => ({
  programAddress: address(localnet.manifest.programs.oracle),
  networkState: address(localnet.manifest.oracle.networkState),
  treasury: address(localnet.manifest.oracle.treasury),
});
const usdc = async (account: Address) => BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
const sol = async (account: Address) => (await rpc.getBalance(account).send()).value;
const slot = () => rpc.getSlot().send();
const advanceTo = async (target: bigint) => {
  const now = await slot();
  if (target > now) await advanceLocalSlots(localnet.rpcUrl, Number(target - now));
  expect(await slot()).toBe(target);
};

async function accountData(account: Address): Promise<Uint8Array | null> {
  const { value } = await rpc.getAccountInfo(account, { encoding: 'base64' }).send();
  return value ? Uint8Array.from(getBase64Encoder().encode(value.data[0])) : null;
}

async function readWager(wager: Address): Promise<Wager> {
  const data = await accountData(wager);
  if (!data) throw new Error(`no wager at ${wager}`);
  return getWagerDecoder().decode(data);
}

/** The SlotHashes sysvar as a validator stores it: u64 count, then (u64 slot, 32-byte hash) entries, newest first. */
async function readSlotHashes(): Promise<SlotHash[]> {
  const data = await accountData(SLOT_HASHES_SYSVAR);
  if (!data) throw new Error('no SlotHashes sysvar');
  const u64 = getU64Decoder();
  const count = Number(u64.decode(data, 0));
  return Array.from({ length: count }, (_, i) => {
    const offset = 8 + i * 40;
    return { slot: u64.decode(data, offset), hash: getBase58Decoder().decode(data.subarray(offset + 8, offset + 40)) };
  });
}

/** Sends as the keeper and returns the wager program's events of the landed transaction. */
async function crank(instruction: Parameters<typeof signInstructions>[2][number]) {
  const { wire } = await signInstructions(rpc, keeper, [instruction]);
  const signature = await sendWire(rpc, wire);
  return { signature, events: await eventsOf(signature) };
}

async function eventsOf(signature: Signature) {
  const transaction = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  expect(transaction?.meta?.err).toBeNull();
  return decodeWagerEventsFromLogs(transaction!.meta!.logMessages!, wagerProgram);
}

describe('a whole wager over RPC', () => {
  it('opens, requests randomness at open+2, gets it from the oracle and settles with the drawn payout in USDC', async () => {
    const usdcBefore = await usdc(appUsdc);
    const { wager, signature: openSignature, nonce } = await openWagerOverRpc(rpc, localnet.manifest, app, { stake: STAKE });
    const opened = await readWager(wager);
    expect(opened).toMatchObject({ status: WagerStatus.Open, nonce, stake: STAKE, openSlot: await slot(), beneficiary: appUsdc });
    expect(opened.expirySlot - opened.openSlot).toBe(DEFAULT_WAGER_CONFIG.tSettle);
    expect((await eventsOf(openSignature)).map((e) => e.name)).toEqual(['WagerOpened']);
    expect(await usdc(appUsdc)).toBe(usdcBefore - STAKE);

    // open+2: the slot after the open now has its SlotHashes entry: s* = open+1, h* = its hash.
    await advanceTo(opened.openSlot + 2n);
    const slotHashes = await readSlotHashes();
    expect(slotHashes[0]?.slot).toBe(opened.openSlot + 1n);
    expect(slotHashes[1]?.slot).toBe(opened.openSlot);
    const keeperBefore = await sol(keeper.address);
    const { instruction, oracleRequest, seed } = await getRequestRandomnessForWager({
      caller: keeper,
      wagerAddress: wager,
      wager: opened,
      oracle: oracle(),
      slotHashes,
      programAddress: wagerProgram,
    });
    const requested = await crank(instruction);
    expect(requested.events.map((e) => e.name)).toEqual(['WagerRandomnessRequested']);
    expect(await sol(keeper.address)).toBe(keeperBefore + DEFAULT_WAGER_CONFIG.requestFee - TX_FEE);
    expect(await readWager(wager)).toMatchObject({ status: WagerStatus.Requested, oracleRequest, seed });
    expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: false, pending: 1 });

    // One slot later the oracle fulfils on its own.
    await advanceTo(opened.openSlot + 3n);
    const randomness = await eventually(async () => {
      const data = await accountData(oracleRequest);
      const state = data ? getRandomnessV2Decoder().decode(data).request : undefined;
      return state?.__kind === 'Fulfilled' ? Uint8Array.from(state.randomness) : undefined;
    }, 5_000, 'the oracle to fulfil');
    expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: false, pending: 0 });

    // What the program must pay, computed independently from the paytable and the randomness.
    const paytableData = await accountData(opened.paytable);
    const paytable = getPaytableDecoder().decode(paytableData!);
    const bucket = drawBucket(paytable, randomness);
    const payout = payoutFor(STAKE, paytable.buckets[bucket]!.multiplierBps);

    const usdcBeforeSettle = await usdc(appUsdc);
    const keeperBeforeSettle = await sol(keeper.address);
    const settled = await crank(await getSettleForWager({ caller: keeper, wagerAddress: wager, wager: await readWager(wager), programAddress: wagerProgram }));
    expect(settled.events).toHaveLength(1);
    expect(settled.events[0]).toMatchObject({ name: 'WagerSettled', data: { wager, stake: STAKE, bucket, payout, pending: 0 } });
    expect(await usdc(appUsdc)).toBe(usdcBeforeSettle + payout);
    expect(await sol(keeper.address)).toBe(keeperBeforeSettle + DEFAULT_WAGER_CONFIG.settleFee - TX_FEE);
    expect(await accountData(wager)).toBeNull();
  });

  it('expires a requested wager while the oracle is stalled: refused at open+150, accepted at open+151, stake kept by the pool', async () => {
    expect(await stallLocalOracle(localnet.rpcUrl)).toBe(true);
    try {
      const { wager } = await openWagerOverRpc(rpc, localnet.manifest, app, { stake: STAKE });
      const opened = await readWager(wager);
      const usdcAfterOpen = await usdc(appUsdc);

      await advanceTo(opened.openSlot + 2n);
      const { instruction, oracleRequest } = await getRequestRandomnessForWager({
        caller: keeper,
        wagerAddress: wager,
        wager: opened,
        oracle: oracle(),
        slotHashes: await readSlotHashes(),
        programAddress: wagerProgram,
      });
      await crank(instruction);

      // Stalled: many slots pass and the request stays pending.
      await advanceTo(opened.openSlot + 150n);
      expect(await localOracleStatus(localnet.rpcUrl)).toEqual({ stalled: true, pending: 1 });
      const pending = getRandomnessV2Decoder().decode((await accountData(oracleRequest))!).request;
      expect(pending.__kind).toBe('Pending');

      const expire = await getExpireForWager({ caller: keeper, wagerAddress: wager, wager: await readWager(wager), programAddress: wagerProgram });
      const early = await signInstructions(rpc, keeper, [expire]);
      const refusal = await sendWire(rpc, early.wire).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isSolanaError(refusal, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
      const cause = (refusal as Error).cause;
      expect(isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
      expect(wagerErrorName(Number((cause as { context: { code: number } }).context.code))).toBe('notExpired');

      await advanceTo(opened.openSlot + 151n);
      const keeperBefore = await sol(keeper.address);
      const expired = await crank(expire);
      expect(expired.events).toEqual([
        { name: 'WagerExpired', data: expect.objectContaining({ wager, stake: STAKE, wasRequested: 1 }) },
      ]);
      expect(await sol(keeper.address)).toBe(keeperBefore + DEFAULT_WAGER_CONFIG.expireFee - TX_FEE);
      expect(await usdc(appUsdc)).toBe(usdcAfterOpen); // the stake is forfeited to the pool
      expect(await accountData(wager)).toBeNull();
    } finally {
      expect(await resumeLocalOracle(localnet.rpcUrl)).toBe(true);
    }
    expect((await localOracleStatus(localnet.rpcUrl)).stalled).toBe(false);
  });
});
