/**
 * Someone requested a wager's seed from ORAO with its deprecated v1 `request` before any keeper did: the
 * oracle request address holds ORAO's legacy `Randomness` account, which the wager program accepts as the
 * wager's request (docs/wager-program.md, "Oracle request accounts"). The keeper must then see that
 * request fulfilled and settle the wager, drawing from the legacy account's randomness.
 *
 * The local oracle implements only request_v2, so the test writes the legacy account into the localnet's
 * LiteSVM state directly: a faithful stand-in for ORAO mainnet's v1 account (layout from ORAO's SDK).
 */
import { address, generateKeyPairSigner, getAddressEncoder, lamports, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { LEGACY_RANDOMNESS_DISCRIMINATOR } from '../../protocol/oracle';
import {
  drawBucket,
  getPaytableDecoder,
  getRequestRandomnessForWager,
  getWagerDecoder,
} from '../../protocol/wager';
import { fetchSlotHashes } from '../chain-view';
import { eventsOf, keeperTestbed, openWager, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-legacy-squat-' });

/** ORAO's legacy Randomness: discriminator, seed (8..40), randomness (40..104), then an empty responses vector. */
function legacyRandomness(seed: Uint8Array, randomness: Uint8Array, responder: Address): Uint8Array {
  const data = new Uint8Array(8 + 32 + 64 + 4 + 96);
  data.set(LEGACY_RANDOMNESS_DISCRIMINATOR, 0);
  data.set(seed, 8);
  data.set(randomness, 40);
  new DataView(data.buffer).setUint32(104, 1, true); // one response: the authority and its signature
  data.set(getAddressEncoder().encode(responder), 108);
  data.set(randomness, 140);
  return data;
}

describe('a wager whose seed was requested from ORAO v1 first', () => {
  it('is settled by the keeper from the legacy account, with the bucket that randomness draws; the oracle is not paid again', async () => {
    const { localnet, rpc, parts } = bed;
    const opened = await openWager(rpc, localnet, parts.app);
    const { value } = await rpc
      .getAccountInfo(opened.wager, { encoding: 'base64', commitment: 'confirmed' })
      .send();
    const wager = getWagerDecoder().decode(Buffer.from(value!.data[0], 'base64'));
    await waitFor(
      async () =>
        (await rpc.getSlot({ commitment: 'confirmed' }).send()) >= wager.openSlot + 2n ? true : undefined,
      10_000,
      'open+2',
    );

    // The request address and seed the keeper will use (s* is the first slot after the open, known to all).
    const treasury = address(localnet.manifest.oracle.treasury);
    const built = await getRequestRandomnessForWager({
      caller: await generateKeyPairSigner(),
      wagerAddress: opened.wager,
      wager,
      oracle: {
        programAddress: address(localnet.manifest.programs.oracle),
        networkState: address(localnet.manifest.oracle.networkState),
        treasury,
      },
      slotHashes: await fetchSlotHashes(rpc),
    });
    const randomness = crypto.getRandomValues(new Uint8Array(64));
    const data = legacyRandomness(
      built.seed,
      randomness,
      address(localnet.manifest.oracle.fulfilmentAuthority),
    );
    localnet.chain.svm.setAccount({
      address: built.oracleRequest,
      data,
      executable: false,
      lamports: lamports(localnet.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: address(localnet.manifest.programs.oracle),
      space: BigInt(data.length),
    });
    const treasuryBefore = (await rpc.getBalance(treasury, { commitment: 'confirmed' }).send()).value;

    const { keeper } = await bed.keeper('legacy');
    await keeper.submitWager(opened.wager);
    const record = await waitFor(
      () => {
        const r = keeper.records.get(opened.wager);
        return r?.state === 'settled' ? r : undefined;
      },
      20_000,
      'the wager to be settled',
    );

    const paytable = getPaytableDecoder().decode(
      Buffer.from(
        (await rpc.getAccountInfo(wager.paytable, { encoding: 'base64' }).send()).value!.data[0],
        'base64',
      ),
    );
    const bucket = drawBucket(paytable, randomness);
    expect(record).toMatchObject({ bucket, oracleRequest: built.oracleRequest });
    const [settled] = await eventsOf(rpc, record.settleSignature!, parts.program);
    expect(settled).toMatchObject({ name: 'WagerSettled', data: { bucket } });
    expect((await rpc.getBalance(treasury, { commitment: 'confirmed' }).send()).value).toBe(treasuryBefore);
  });
});
