/**
 * A crank's refusal is named by the program that raised it. A failure inside the oracle's CPI is reported
 * by the runtime on the wager's top-level instruction, with the oracle's code: named with the wager
 * program's table, the oracle's InsufficientFunds (6013) read as the wager's `paused`. The crank sender
 * reads the failing program from the transaction's logs. Real transactions simulated on the in-process
 * localnet (the keeper's own sender), no mocks.
 */
import { address, generateKeyPairSigner, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { TransactionFailedError, createTransactionSender } from '../../chain/transaction-sender';
import { LOCALNET_ORACLE_FEE } from '../../localnet/genesis';
import { ORACLE_ERROR__INSUFFICIENT_FUNDS, ORACLE_PROGRAM_ADDRESS } from '../../protocol/generated/oracle';
import { WAGER_ERROR__TOO_MANY_ACCOUNTS, WAGER_ERROR__INVALID_SLOT_HASH, WAGER_PROGRAM_ADDRESS } from '../../protocol/generated/wager';
import { getExpireForWager, getRequestRandomnessForWager, getWagerDecoder, type Wager } from '../../protocol/wager';
import type { Database } from '../../store/database';
import { createEarningsLedger } from '../../store/earnings-ledger';
import { fetchSlotHashes } from '../chain-view';
import { createCrankSender, type CrankResult } from '../crank-sender';
import type { KeeperEvents } from '../keeper-events';
import { freshDatabase, keeperTestbed, openWager, waitFor, setOracleFee as setOracleFeeOn } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-error-names-' });

let db: Database;
let caller: KeyPairSigner;
const confirmers: ReturnType<typeof createSignatureConfirmer>[] = [];
beforeAll(async () => {
  db = freshDatabase(bed.dir, 'names.db');
  caller = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(caller.address, 1_000_000_000n);
});
afterAll(() => {
  for (const confirmer of confirmers) confirmer.stop();
  db.close();
});
afterEach(() => setOracleFee(LOCALNET_ORACLE_FEE));

const setOracleFee = (fee: bigint) => setOracleFeeOn(bed.localnet, fee);

/** The keeper's sender and crank sender, paid by `caller`. */
function crankSender() {
  const confirmer = createSignatureConfirmer(bed.rpc);
  confirmers.push(confirmer);
  const sender = createTransactionSender({ rpc: bed.rpc, confirmer, payer: caller });
  const cranks = createCrankSender({ sender, earnings: createEarningsLedger(db), events: new EventEmitter<KeeperEvents>(), config: () => undefined, now: Date.now, programs: { wager: WAGER_PROGRAM_ADDRESS, oracle: ORACLE_PROGRAM_ADDRESS } });
  return { sender, cranks };
}

/** The error the keeper's sender throws for `instructions` (it simulates first: nothing lands). */
async function refusal(instructions: Instruction[]): Promise<TransactionFailedError> {
  const error = await crankSender().sender.send(instructions).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TransactionFailedError)) throw new Error(`expected a TransactionFailedError, got ${String(error)}`);
  return error;
}

async function openedAfterTwoSlots(): Promise<{ wager: Address; account: Wager }> {
  const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
  const { value } = await bed.rpc.getAccountInfo(opened.wager, { encoding: 'base64', commitment: 'confirmed' }).send();
  const account = getWagerDecoder().decode(Buffer.from(value!.data[0], 'base64'));
  await waitFor(async () => ((await bed.rpc.getSlot({ commitment: 'confirmed' }).send()) >= account.openSlot + 2n ? true : undefined), 10_000, 'open+2');
  return { wager: opened.wager, account };
}

const oracleEndpoint = () => ({
  programAddress: address(bed.localnet.manifest.programs.oracle),
  networkState: address(bed.localnet.manifest.oracle.networkState),
  treasury: address(bed.localnet.manifest.oracle.treasury),
});

describe('naming a crank refusal by the program that raised it', () => {
  it("names an oracle refusal inside the request's CPI with the oracle's name, not the wager program's", async () => {
    const { wager, account } = await openedAfterTwoSlots();
    setOracleFee(LOCALNET_ORACLE_FEE * 100n); // the fee account can no longer pay the oracle
    const bare = await getRequestRandomnessForWager({ caller, wagerAddress: wager, wager: account, oracle: oracleEndpoint(), slotHashes: await fetchSlotHashes(bed.rpc) });

    const error = await refusal(bare.instructions);
    // The runtime reports the oracle's code on the wager's instruction; 6002 is the wager's `tooManyAccounts`.
    expect(error.customCode).toBe(ORACLE_ERROR__INSUFFICIENT_FUNDS);
    expect(ORACLE_ERROR__INSUFFICIENT_FUNDS).toBe(WAGER_ERROR__TOO_MANY_ACCOUNTS);
    const code = `0x${ORACLE_ERROR__INSUFFICIENT_FUNDS.toString(16)}`;
    expect(error.logs).toContain(`Program ${ORACLE_PROGRAM_ADDRESS} failed: custom program error: ${code}`);
    expect(error.logs).toContain(`Program ${bed.parts.program} failed: custom program error: ${code}`);
    expect(error.failingProgram).toBe(ORACLE_PROGRAM_ADDRESS);
    // The same logs without the instruction list: still the oracle. No logs: the top-level instruction's program.
    expect(new TransactionFailedError('execution', error.err, error.logs).failingProgram).toBe(ORACLE_PROGRAM_ADDRESS);
    expect(new TransactionFailedError('execution', error.err, [], error.instructionPrograms).failingProgram).toBe(bed.parts.program);

    const result = await crankSender().cranks.send('request', wager, bare.instructions);
    expect(result).toEqual<CrankResult>({ outcome: 'failed', error: 'oracle insufficientFunds' });
  });

  it("names the wager program's own refusal with its name, and still classifies its timing refusals", async () => {
    const { wager, account } = await openedAfterTwoSlots();
    const hashes = (await fetchSlotHashes(bed.rpc)).map((entry) => ({ ...entry, hash: '11111111111111111111111111111111' }));
    const wrongHash = await getRequestRandomnessForWager({ caller, wagerAddress: wager, wager: account, oracle: oracleEndpoint(), slotHashes: hashes });
    const error = await refusal(wrongHash.instructions);
    expect(error.customCode).toBe(WAGER_ERROR__INVALID_SLOT_HASH);
    expect(error.failingProgram).toBe(bed.parts.program);
    const { cranks } = crankSender();
    expect(await cranks.send('request', wager, wrongHash.instructions)).toEqual<CrankResult>({ outcome: 'failed', error: 'invalidSlotHash' });

    // Expiring inside the window: the wager's notExpired, not a failure (the moment is not right).
    const expire = await getExpireForWager({ caller, wagerAddress: wager, wager: account, programAddress: bed.parts.program });
    expect(await cranks.send('expire', wager, [expire])).toEqual<CrankResult>({ outcome: 'skipped', reason: 'notExpired' });
  });

  it('names any other program\'s custom error by its id and code', async () => {
    const broke = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(broke.address, 1_000_000n);
    const transfer = getTransferSolInstruction({ source: broke, destination: caller.address, amount: 1_000_000_000n });
    const result = await crankSender().cranks.send('request', null, [transfer]);
    expect(result).toEqual<CrankResult>({ outcome: 'failed', error: '11111111111111111111111111111111 custom error 1' });
  });
});
