/**
 * What a caller of `GET /v1/wagers/:address` and `POST /v1/wagers` gets from a keeper on a localnet:
 * an untracked wager still open on chain is queued on the way (and then worked on), anything else the
 * keeper does not know is `unknown`, and a posted address is checked against the chain before it is queued.
 */
import { address, generateKeyPairSigner, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createPublicApi, listenPublicApi, notAWagerError } from '../../api/public-api';
import { findConfigPda } from '../../protocol/wager';
import { keeperTestbed, openWager, usdcAccountOf, waitFor } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-lookup-' });

/** A keeper with a fresh key and SQLite file, NOT started: it knows only what it is told. */
const idleKeeper = async (name: string) => (await bed.keeper(name, { start: false })).keeper;

describe('looking up a wager', () => {
  it('queues an untracked wager that is still open on chain on the way, answers queued with its open slot, and then settles it', async () => {
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    const keeper = await idleKeeper('lookup-open');
    expect(keeper.records.get(opened.wager)).toBeUndefined();

    const answer = await keeper.lookupWager(opened.wager);
    const { value } = await bed.rpc.getAccountInfo(opened.wager, { encoding: 'base64', commitment: 'confirmed' }).send();
    expect(value).not.toBeNull();
    expect(answer).toEqual({ state: 'queued', openSlot: expect.any(Number), updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const history = bed.localnet.chain.signaturesFor(opened.wager);
    expect(BigInt(answer.openSlot!)).toBe(history.at(-1)!.slot);
    expect(keeper.records.get(opened.wager)?.state).toBeDefined();

    // Being queued means the keeper works on it: once running, it settles it.
    await keeper.start();
    await waitFor(async () => ((await keeper.lookupWager(opened.wager)).state === 'settled' ? true : undefined), 20_000, 'the looked-up wager to be settled');
    expect(await keeper.lookupWager(opened.wager)).toMatchObject({ state: 'settled', requestSignature: expect.any(String), settleSignature: expect.any(String) });
  });

  it('answers unknown for a random address, and for a wager that was closed before the keeper heard of it, without tracking either', async () => {
    const keeper = await idleKeeper('lookup-unknown');
    const random = (await generateKeyPairSigner()).address;
    expect(await keeper.lookupWager(random)).toEqual({ state: 'unknown', updatedAt: expect.any(String) });
    expect(keeper.records.get(random)).toBeUndefined();

    // Settled by another keeper while this one never saw it.
    const other = await idleKeeper('lookup-other');
    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    await other.start();
    await waitFor(() => (other.records.get(opened.wager)?.state === 'settled' ? true : undefined), 20_000, 'the other keeper to settle');
    expect(await keeper.lookupWager(opened.wager)).toEqual({ state: 'unknown', updatedAt: expect.any(String) });
    expect(keeper.records.get(opened.wager)).toBeUndefined();
  });
});

describe('handing a wager to the keeper', () => {
  it('refuses an address with no account, refuses accounts that are not wagers (a wallet, a token account, the program config), and queues a real open wager', async () => {
    const keeper = await idleKeeper('submit');
    const nobody = (await generateKeyPairSigner()).address;
    expect(await keeper.submitWager(nobody)).toEqual({ kind: 'accountNotFound' });

    const appUsdc = await usdcAccountOf(bed.parts.mint, bed.parts.app.address);
    const [config] = await findConfigPda({ programAddress: bed.parts.program });
    const notWagers: Address[] = [bed.parts.app.address, appUsdc, bed.parts.mint, config, address(bed.localnet.manifest.paytables[0]!.address)];
    for (const account of notWagers) {
      expect(await keeper.submitWager(account), account).toEqual({ kind: 'notAWager' });
      expect(keeper.records.get(account)).toBeUndefined();
    }

    const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    expect(await keeper.submitWager(opened.wager)).toEqual({ kind: 'queued' });
    expect(keeper.records.get(opened.wager)).toMatchObject({ state: expect.stringMatching(/^(queued|requested)$/), openSlot: expect.any(Number) });
    // Posting twice is harmless.
    expect(await keeper.submitWager(opened.wager)).toEqual({ kind: 'queued' });
  });

  it('over HTTP: POST /v1/wagers answers 404, 422 and 202 from the chain, and GET /v1/wagers/:address shows the queued wager', async () => {
    const keeper = await idleKeeper('http');
    const api = await listenPublicApi(createPublicApi({ keeper, allowedOrigins: [] }), { port: 0 });
    try {
      const post = (wager: string) =>
        fetch(`${api.url}/v1/wagers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wager }) });
      const missing = await post((await generateKeyPairSigner()).address);
      expect([missing.status, await missing.json()]).toEqual([404, { error: 'account not found' }]);
      const wallet = await post(bed.parts.app.address);
      expect([wallet.status, await wallet.json()]).toEqual([422, { error: notAWagerError(bed.parts.app.address) }]);
      const opened = await openWager(bed.rpc, bed.localnet, bed.parts.app);
      const queued = await post(opened.wager);
      expect([queued.status, await queued.json()]).toEqual([202, { status: 'queued' }]);
      const record = (await (await fetch(`${api.url}/v1/wagers/${opened.wager}`)).json()) as { state: string; openSlot: number };
      expect(record.state).toMatch(/^(queued|requested|fulfilled|settled)$/);
      expect(record.openSlot).toBe(Number(bed.localnet.chain.signaturesFor(opened.wager).at(-1)!.slot));
    } finally {
      await api.close();
    }
  });
});
