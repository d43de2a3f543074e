/**
 * The oracle's treasury changes under a running keeper (an operator's change on chain), with no RPC
 * outage to make the keeper look again. Its next request is refused by the oracle (unknownTreasuryGiven, named
 * as the oracle's error, not the wager program's 6009 invalidPaytable); the keeper reads config and oracle
 * again before retrying, and the wager is requested and settled, the fee paid to the new treasury.
 * Real in-process localnet, no mocks.
 */
import { address, generateKeyPairSigner, getAddressEncoder, type Address } from '@solana/kit';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALNET_ORACLE_FEE } from '../../localnet/genesis';
import { createKeeper } from '../keeper';
import { freshDatabase, keeperTestbed, openWager, waitFor } from './keeper-test-helpers';

/** NetworkState treasury: bytes 40..72 (program/oracle/oracle.h NETWORK_TREASURY_OFFSET). */
const NETWORK_TREASURY_OFFSET = 40;

const bed = keeperTestbed({ prefix: 'keeper-stale-setup-' });

/**
 * Writes the oracle NetworkState's treasury directly in the localnet's LiteSVM state: the local oracle
 * has no instruction to change it (init_network sets it once); this stands in for an operator's change.
 */
function setTreasury(treasury: Address) {
  const networkState = address(bed.localnet.manifest.oracle.networkState);
  const account = bed.localnet.chain.svm.getAccount(networkState);
  if (!account.exists) throw new Error('no oracle network state');
  const data = Uint8Array.from(account.data);
  data.set(getAddressEncoder().encode(treasury), NETWORK_TREASURY_OFFSET);
  bed.localnet.chain.svm.setAccount({ ...account, data });
}

afterEach(() => setTreasury(address(bed.localnet.manifest.oracle.treasury)));

describe('a keeper whose cached oracle treasury went stale', () => {
  it('logs the oracle refusal by its oracle name, reads the oracle again and settles the wager', async () => {
    const { localnet, rpc, parts } = bed;
    const logs: { level: number; msg: string; error?: string; step?: string; now?: { treasury: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
    const key = await generateKeyPairSigner();
    localnet.chain.airdrop(key.address, 10_000_000_000n);
    const db = freshDatabase(bed.dir, 'stale.db');
    const keeper = createKeeper({ connection: parts.connection, signer: key, db, logger, programAddress: parts.program, sweepIntervalMs: 60_000 });
    try {
      await keeper.start(); // reads the oracle's treasury now

      const newTreasury = (await generateKeyPairSigner()).address;
      localnet.chain.airdrop(newTreasury, 1_000_000_000n);
      setTreasury(newTreasury);

      const opened = await openWager(rpc, localnet, parts.app);
      await keeper.submitWager(opened.wager);
      const record = await waitFor(
        () => {
          const r = keeper.records.get(opened.wager);
          return r?.state === 'settled' ? r : undefined;
        },
        30_000,
        'the wager to be settled',
      );
      expect(record.requestSignature).toBeTruthy();
      expect(record.lastError).toBeNull();

      // The first request was refused by the oracle, and the log names the oracle's error.
      const failures = logs.filter((line) => line.msg === 'request failed; retrying later');
      expect(failures).toEqual([expect.objectContaining({ step: 'request', error: 'oracle unknownTreasuryGiven' })]);
      expect(logs).toContainEqual(
        expect.objectContaining({ msg: expect.stringContaining('the program config or the oracle changed'), now: expect.objectContaining({ treasury: newTreasury }) }),
      );

      // The landed request paid the fee to the new treasury.
      const tx = await rpc
        .getTransaction(record.requestSignature as never, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
        .send();
      const index = tx!.transaction.message.accountKeys.indexOf(newTreasury);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(BigInt(tx!.meta!.postBalances[index]!) - BigInt(tx!.meta!.preBalances[index]!)).toBe(LOCALNET_ORACLE_FEE);
    } finally {
      await keeper.stop();
      db.close();
    }
  });
});
