/**
 * The oracle raises its fee between a wager's open and its request. open_wager prefunded the wager's fee
 * account with the fee read at the open, so the fee account can no longer pay the oracle's request_v2:
 * without help every request_randomness fails and the wager expires (the player forfeits the stake). The
 * keeper tops the fee account up with exactly the shortfall, in the request transaction, and the wager
 * is requested, fulfilled and settled. Without a fee rise the request transaction is unchanged: the
 * compute budget and request_randomness only. Real in-process localnet, no mocks.
 */
import {
  address,
  compileTransaction,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { SYSTEM_PROGRAM_ADDRESS, getTransferSolInstructionDataDecoder } from '@solana-program/system';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WAGER_CONFIG } from '../../localnet/bootstrap-wager';
import { LOCALNET_ORACLE_FEE } from '../../localnet/genesis';
import { ORACLE_ERROR__INSUFFICIENT_FUNDS } from '../../protocol/generated/oracle';
import { getRequestRandomnessForWager, getWagerDecoder, type Wager } from '../../protocol/wager';
import {
  NETWORK_STATE_REQUEST_FEE_OFFSET,
  ORACLE_REQUEST_ACCOUNT_SIZE,
} from '../../protocol/wager/fee-account-top-up';
import { fetchSlotHashes } from '../chain-view';
import { createKeeper, type Keeper } from '../keeper';
import { freshDatabase, keeperTestbed, openWager, transactionMessage, waitFor, wagerHistory, setOracleFee as setOracleFeeOn } from './keeper-test-helpers';

const TX_FEE = 5_000n;
/** The raised oracle fee: 100x the localnet's. */
const RAISED_ORACLE_FEE = LOCALNET_ORACLE_FEE * 100n;

const bed = keeperTestbed({ prefix: 'keeper-fee-rise-' });

async function wagerAccount(wager: Address): Promise<Wager | null> {
  const { value } = await bed.rpc
    .getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' })
    .send();
  return value ? getWagerDecoder().decode(Buffer.from(value.data[0], 'base64')) : null;
}

const lamportsOf = async (account: Address) =>
  (await bed.rpc.getBalance(account, { commitment: 'confirmed' }).send()).value;
const rent = async (size: bigint) => bed.rpc.getMinimumBalanceForRentExemption(size).send();

const setOracleFee = (fee: bigint) => setOracleFeeOn(bed.localnet, fee);

function oracleFee(): bigint {
  const account = bed.localnet.chain.svm.getAccount(address(bed.localnet.manifest.oracle.networkState));
  if (!account.exists) throw new Error('no oracle network state');
  return new DataView(account.data.buffer, account.data.byteOffset).getBigUint64(
    NETWORK_STATE_REQUEST_FEE_OFFSET,
    true,
  );
}

/** A landed transaction as the RPC returns it: its instructions (program, accounts, data) and each account's lamports before and after. */
async function landedTransaction(signature: string) {
  const tx = await bed.rpc
    .getTransaction(signature as Signature, {
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    })
    .send();
  if (!tx?.meta) throw new Error(`no transaction ${signature}`);
  expect(tx.meta.err).toBeNull();
  const keys = tx.transaction.message.accountKeys;
  const meta = tx.meta;
  return {
    instructions: tx.transaction.message.instructions.map((ix) => ({
      program: keys[ix.programIdIndex]!,
      accounts: ix.accounts.map((i) => keys[i]!),
      data: Uint8Array.from(getBase58Encoder().encode(ix.data)),
    })),
    lamportsChange: (account: Address) => {
      const index = keys.indexOf(account);
      if (index < 0) throw new Error(`${account} is not in transaction ${signature}`);
      return { before: BigInt(meta.preBalances[index]!), after: BigInt(meta.postBalances[index]!) };
    },
  };
}

/** Simulates `instructions` paid by `payer` (no send): the error the runtime reports, or null. */
async function simulate(payer: KeyPairSigner, instructions: Instruction[]) {
  const wire = getBase64EncodedWireTransaction(compileTransaction(await transactionMessage(bed.rpc, payer, instructions)));
  const { value } = await bed.rpc
    .simulateTransaction(wire, {
      encoding: 'base64',
      sigVerify: false,
      replaceRecentBlockhash: true,
      commitment: 'confirmed',
    })
    .send();
  return value.err;
}

const settledRecord = (keeper: Keeper, wager: Address) =>
  waitFor(
    () => {
      const r = keeper.records.get(wager);
      return r?.state === 'settled' ? r : undefined;
    },
    20_000,
    'the wager to be settled',
  );

describe('a keeper requesting randomness for a wager whose oracle fee rose after the open', () => {
  it('without a fee rise, the request transaction is the compute budget and request_randomness only: no top-up', async () => {
    expect(oracleFee()).toBe(LOCALNET_ORACLE_FEE);
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    const feeAccount = (await wagerAccount(opened.wager))!.feeAccount;
    const { keeper, key } = await bed.keeper('no-rise');
    await keeper.submitWager(opened.wager);
    const record = await settledRecord(keeper, opened.wager);

    const request = await landedTransaction(record.requestSignature!);
    expect(request.instructions.map((ix) => ix.program)).toEqual([
      COMPUTE_BUDGET_PROGRAM_ADDRESS,
      bed.parts.program,
    ]);
    expect(request.instructions.some((ix) => ix.program === SYSTEM_PROGRAM_ADDRESS)).toBe(false);
    // The keeper paid nothing into the fee account: it gained the request fee less the transaction fee.
    const keeperLamports = request.lamportsChange(key.address);
    expect(keeperLamports.after - keeperLamports.before).toBe(DEFAULT_WAGER_CONFIG.requestFee - TX_FEE);
    const treasury = request.lamportsChange(address(bed.localnet.manifest.oracle.treasury));
    expect(treasury.after - treasury.before).toBe(LOCALNET_ORACLE_FEE);
    expect(await lamportsOf(feeAccount)).toBe(0n); // emptied at settle
  });

  it('with the fee raised between open and request, the keeper tops the fee account up in its request transaction; the wager is requested, fulfilled and settled', async () => {
    const { localnet, rpc, parts } = bed;
    const treasury = address(localnet.manifest.oracle.treasury);
    const opened = await openWager(rpc, localnet, parts.app);
    const opening = (await wagerAccount(opened.wager))!;
    const { feeAccount, prefund } = opening;
    // The prefund was computed with the fee at the open, and the fee account holds exactly that.
    const [rent137, rent0] = [await rent(ORACLE_REQUEST_ACCOUNT_SIZE), await rent(0n)];
    const maxCloseFee =
      DEFAULT_WAGER_CONFIG.settleFee > DEFAULT_WAGER_CONFIG.expireFee
        ? DEFAULT_WAGER_CONFIG.settleFee
        : DEFAULT_WAGER_CONFIG.expireFee;
    expect(prefund).toBe(
      DEFAULT_WAGER_CONFIG.requestFee + maxCloseFee + LOCALNET_ORACLE_FEE + rent137 + rent0,
    );
    expect(await lamportsOf(feeAccount)).toBe(prefund);

    setOracleFee(RAISED_ORACLE_FEE);
    try {
      expect(oracleFee()).toBe(RAISED_ORACLE_FEE);
      const required = RAISED_ORACLE_FEE + rent137 + DEFAULT_WAGER_CONFIG.requestFee + maxCloseFee + rent0;
      const shortfall = required - prefund;
      expect(shortfall).toBe(RAISED_ORACLE_FEE - LOCALNET_ORACLE_FEE);

      // The problem: request_randomness as it was built before (no top-up) is refused by the oracle now.
      const bystander = await generateKeyPairSigner();
      localnet.chain.airdrop(bystander.address, 1_000_000_000n);
      await waitFor(
        async () =>
          (await rpc.getSlot({ commitment: 'confirmed' }).send()) >= opening.openSlot + 2n ? true : undefined,
        10_000,
        'open+2',
      );
      const oracle = {
        programAddress: address(localnet.manifest.programs.oracle),
        networkState: address(localnet.manifest.oracle.networkState),
        treasury,
      };
      const bare = await getRequestRandomnessForWager({
        caller: bystander,
        wagerAddress: opened.wager,
        wager: opening,
        oracle,
        slotHashes: await fetchSlotHashes(rpc),
      });
      expect(bare.topUp).toBeNull();
      expect(bare.instructions).toEqual([bare.instruction]);
      expect(await simulate(bystander, bare.instructions)).toEqual({
        InstructionError: [0n, { Custom: BigInt(ORACLE_ERROR__INSUFFICIENT_FUNDS) }],
      });

      // A keeper with a logger we read.
      const logs: { msg: string; topUpLamports?: string; wager?: string; feeAccount?: string }[] = [];
      const logger = pino(
        { level: 'info' },
        { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) },
      );
      const key = await generateKeyPairSigner();
      localnet.chain.airdrop(key.address, 10_000_000_000n);
      const db = freshDatabase(bed.dir, 'fee-rise.db');
      const keeper = createKeeper({
        connection: parts.connection,
        signer: key,
        db,
        programAddress: parts.program,
        logger,
        sweepIntervalMs: 60_000,
      });
      try {
        await keeper.start();
        await keeper.submitWager(opened.wager);
        const record = await settledRecord(keeper, opened.wager);

        // Requested, fulfilled and settled: the wager's history on chain, and it is closed.
        const history = wagerHistory(localnet, opened.wager, parts.program);
        expect(history.map((h) => h.events.map((e) => e.name))).toEqual([
          ['WagerOpened'],
          ['WagerRandomnessRequested'],
          ['WagerSettled'],
        ]);
        expect(history[1]!.signature).toBe(record.requestSignature);
        expect(history[2]!.signature).toBe(record.settleSignature);
        expect(record.fulfilledSlot).not.toBeNull();
        expect(await wagerAccount(opened.wager)).toBeNull();

        // The request transaction: compute budget, the top-up (a System transfer of exactly the shortfall,
        // from the keeper to the wager's fee account), then request_randomness.
        const request = await landedTransaction(record.requestSignature!);
        expect(request.instructions.map((ix) => ix.program)).toEqual([
          COMPUTE_BUDGET_PROGRAM_ADDRESS,
          SYSTEM_PROGRAM_ADDRESS,
          parts.program,
        ]);
        const topUp = request.instructions[1]!;
        expect(topUp.accounts).toEqual([key.address, feeAccount]);
        expect(getTransferSolInstructionDataDecoder().decode(topUp.data).amount).toBe(shortfall);

        // The oracle's treasury received the new fee; the fee account is left with what settle needs; the keeper paid the top-up.
        const treasuryLamports = request.lamportsChange(treasury);
        expect(treasuryLamports.after - treasuryLamports.before).toBe(RAISED_ORACLE_FEE);
        const feeLamports = request.lamportsChange(feeAccount);
        expect(feeLamports).toEqual({ before: prefund, after: maxCloseFee + rent0 });
        const keeperLamports = request.lamportsChange(key.address);
        expect(keeperLamports.after - keeperLamports.before).toBe(
          DEFAULT_WAGER_CONFIG.requestFee - shortfall - TX_FEE,
        );
        expect(await lamportsOf(feeAccount)).toBe(0n); // emptied at settle, the rest to the payer

        // The keeper said so in its log.
        expect(logs.filter((line) => line.topUpLamports !== undefined)).toEqual([
          expect.objectContaining({
            wager: opened.wager,
            feeAccount,
            topUpLamports: shortfall.toString(),
            msg: expect.stringContaining('topping it up'),
          }),
        ]);
      } finally {
        await keeper.stop();
        db.close();
      }
    } finally {
      setOracleFee(LOCALNET_ORACLE_FEE);
    }
  });
});
