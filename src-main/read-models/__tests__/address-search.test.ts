/**
 * Support's search on a real localnet: a user's wallet or USDC account lists the wagers it staked or is
 * paid by (open ones from the accounts, closed ones from the history), a wager address goes to the
 * Inspector (also once closed), the pool to Liquidity, anything else says what it is.
 */
import { address, generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { getOpenWagerForApp } from '../../protocol/wager';
import {
  giveUsdc,
  keeperTestbed,
  openWager,
  sendInstructions,
  usdcAccountOf,
  waitFor,
} from '../../keeper/__tests__/keeper-test-helpers';
import { searchAddress, type SearchContext } from '../address-search';

const bed = keeperTestbed({ prefix: 'address-search-' });

let nonce = 0n;
/** The user stakes from its own USDC account and is paid there; the dev app is integrator and payer. */
async function openAsUser(user: KeyPairSigner): Promise<Address> {
  const { manifest } = bed.localnet;
  const { app, mint } = bed.parts;
  const usdc = await usdcAccountOf(mint, user.address);
  const { instruction, wager } = await getOpenWagerForApp({
    payer: app,
    stakeOwner: user,
    integratorAuthority: app,
    paytable: address(manifest.paytables.find((p) => p.name === 'coin-flip')!.address),
    stakeSource: usdc,
    beneficiary: usdc,
    oracleNetworkState: address(manifest.oracle.networkState),
    stake: 1_000_000n,
    nonce: BigInt(Date.now()) * 1000n + 500n + nonce++,
  });
  await sendInstructions(bed.rpc, app, [instruction]);
  return wager;
}

const contextOf = (record?: SearchContext['record']): SearchContext => {
  const { deployment } = bed.localnet.manifest;
  return {
    program: bed.parts.program,
    pool: deployment.pool,
    usdcMint: deployment.usdcMint,
    config: deployment.config,
    paytables: deployment.paytables,
    ...(record ? { record } : {}),
  };
};

describe("support's search", () => {
  it("lists a wallet's wagers (stake owner or beneficiary), open then settled, newest first, from the chain and from the keeper's records", async () => {
    const { rpc, parts } = bed;
    const user = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(user.address, 1_000_000_000n);
    await giveUsdc(rpc, parts, user.address, 10_000_000n);
    const usdc = await usdcAccountOf(parts.mint, user.address);
    const first = await openAsUser(user);
    const second = await openAsUser(user);
    // Opened by the app alone, paying the user: the user is only its beneficiary.
    const paid = (await openWager(rpc, bed.localnet, parts.app, { beneficiary: usdc })).wager;
    const someoneElses = (await openWager(rpc, bed.localnet, parts.app)).wager;

    const open = await searchAddress(rpc, contextOf(), user.address);
    expect(open.kind).toBe('wallet');
    if (open.kind !== 'wallet') return;
    expect(open.searched).toEqual([user.address, usdc]);
    expect(open.wagers.map((w) => w.address)).toEqual(expect.arrayContaining([first, second, paid]));
    expect(open.wagers.map((w) => w.address)).not.toContain(someoneElses);
    expect(open.wagers.find((w) => w.address === first)).toMatchObject({
      roles: expect.arrayContaining(['stake owner', 'beneficiary']),
      status: 'Open',
      stake: '1000000',
    });
    expect(open.wagers.find((w) => w.address === paid)!.roles).toEqual(['beneficiary']);
    // Open: the opening's transaction and block time, no final one yet.
    const firstOpen = open.wagers.find((w) => w.address === first)!;
    expect(firstOpen.openSignature).toEqual(expect.any(String));
    expect(Math.abs(firstOpen.openedAt! - Date.now())).toBeLessThan(120_000);
    expect(firstOpen).toMatchObject({ finalSignature: null, finalAt: null });
    const slots = open.wagers.map((w) => w.openSlot!);
    expect(slots).toEqual([...slots].sort((a, b) => b - a));

    // The keeper settles them; the wallet then lists them closed, with the payout.
    const { keeper } = await bed.keeper('search');
    for (const wager of [first, second, paid])
      await waitFor(
        () => (keeper.records.get(wager)?.state === 'settled' ? true : undefined),
        30_000,
        `settlement of ${wager}`,
      );
    const settled = await searchAddress(
      rpc,
      contextOf((wager) => keeper.records.get(wager)),
      user.address,
    );
    if (settled.kind !== 'wallet') throw new Error(`expected a wallet, got ${settled.kind}`);
    for (const wager of [first, second, paid]) {
      const row = settled.wagers.find((w) => w.address === wager)!;
      expect(row.status).toBe('settled');
      expect(row.payout).toBe(keeper.records.get(wager)!.payout);
      expect(row.bucket).toBe(keeper.records.get(wager)!.bucket);
      // Ended by the keeper's settlement (its transaction), after the opening.
      expect(row.finalSignature).toBe(keeper.records.get(wager)!.settleSignature);
      expect(row.finalAt!).toBeGreaterThanOrEqual(row.openedAt!);
    }
    // A page: the newest wager only, and how many there are in all.
    const firstPage = await searchAddress(rpc, contextOf(), user.address, 1);
    expect(firstPage).toMatchObject({
      kind: 'wallet',
      total: 3,
      wagers: [{ address: settled.wagers[0]!.address }],
    });
    // Without the keeper's records, the chain's history alone says the same.
    const fromChain = await searchAddress(rpc, contextOf(), user.address);
    if (fromChain.kind !== 'wallet') throw new Error(`expected a wallet, got ${fromChain.kind}`);
    for (const wager of [first, second, paid])
      expect(fromChain.wagers.find((w) => w.address === wager)).toMatchObject({
        status: 'settled',
        payout: keeper.records.get(wager)!.payout,
        finalSignature: keeper.records.get(wager)!.settleSignature,
      });

    // The user's USDC account: a token account with its owner and the same wagers.
    const byAccount = await searchAddress(rpc, contextOf(), usdc);
    expect(byAccount).toMatchObject({ kind: 'tokenAccount', owner: user.address });
    if (byAccount.kind === 'tokenAccount')
      expect(byAccount.wagers.map((w) => w.address)).toEqual(expect.arrayContaining([first, second, paid]));

    // The app's key is the integrator (and payer) of every one of them, the user's and the others'.
    const app = await searchAddress(rpc, contextOf(), parts.app.address);
    if (app.kind !== 'wallet') throw new Error(`expected a wallet, got ${app.kind}`);
    expect(app.wagers.find((w) => w.address === someoneElses)!.roles).toEqual(
      expect.arrayContaining(['integrator', 'payer']),
    );
    expect(app.wagers.find((w) => w.address === first)!.roles).toEqual(
      expect.arrayContaining(['integrator', 'payer']),
    );

    // A wager, closed now, still goes to the Inspector; an open one too.
    expect(await searchAddress(rpc, contextOf(), first)).toEqual({ kind: 'wager', address: first });
    await bed.stopKeeper(keeper);
    const stillOpen = (await openWager(rpc, bed.localnet, parts.app)).wager;
    expect(await searchAddress(rpc, contextOf(), stillOpen)).toEqual({ kind: 'wager', address: stillOpen });
  }, 90_000);

  it('sends the pool to Liquidity and says what anything else is', async () => {
    const { rpc } = bed;
    const { deployment } = bed.localnet.manifest;
    expect(await searchAddress(rpc, contextOf(), deployment.pool)).toEqual({
      kind: 'pool',
      address: deployment.pool,
    });
    expect(await searchAddress(rpc, contextOf(), deployment.usdcMint)).toMatchObject({
      kind: 'notOurs',
      what: 'mint',
      message: expect.stringMatching(/^Not something of this service: .*mint/),
    });
    expect(await searchAddress(rpc, contextOf(), deployment.programs.wager)).toMatchObject({
      kind: 'notOurs',
      what: 'program',
    });
    expect(await searchAddress(rpc, contextOf(), deployment.programs.oracle)).toMatchObject({
      kind: 'notOurs',
      what: 'program',
    });
    expect(await searchAddress(rpc, contextOf(), deployment.config)).toMatchObject({
      kind: 'notOurs',
      what: 'serviceAccount',
      message: expect.stringContaining('config'),
    });
    expect(await searchAddress(rpc, contextOf(), 'not-an-address')).toMatchObject({
      kind: 'notOurs',
      what: 'notAddress',
    });
    const nobody = (await generateKeyPairSigner()).address;
    expect(await searchAddress(rpc, contextOf(), nobody)).toMatchObject({
      kind: 'notOurs',
      what: 'nothingHere',
      message: expect.stringContaining('no account'),
    });
    // The oracle's network state: an account of another program, named by its owner.
    expect(await searchAddress(rpc, contextOf(), bed.localnet.manifest.oracle.networkState)).toMatchObject({
      kind: 'notOurs',
      what: 'otherAccount',
      message: expect.stringContaining(deployment.programs.oracle),
    });
  }, 30_000);
});
