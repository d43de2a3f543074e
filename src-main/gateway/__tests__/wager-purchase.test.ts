/**
 * What the gateway keeps between its check and the open, against the localnet: the plan a paid request's
 * check made (units, blockhash, beneficiary) and the beneficiaries it remembers. When they go stale, the
 * payment is refunded, or the next check reads the chain again: never a payment lost, never a wager paying
 * to an account it should not.
 */
import { address, createSolanaRpcSubscriptions, generateKeyPairSigner, getBase64Encoder, type Address, type KeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, getCloseAccountInstruction, getInitializeAccount3Instruction, getTokenSize, getTransferCheckedInstruction } from '@solana-program/token';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignatureConfirmer } from '../../chain/signature-confirmer';
import { createTransactionSender } from '../../chain/transaction-sender';
import { giveUsdc, keeperTestbed, sendInstructions, usdcAccountOf, usdcBalance } from '../../keeper/__tests__/keeper-test-helpers';
import { findNetworkStatePda } from '../../protocol/oracle';
import { getSetPausedInstructionAsync, getWagerDecoder } from '../../protocol/wager';
import { keypairFromBytes } from '../../secrets/keypair-bytes';
import type { WagerOrder } from '../gateway-order';
import { nonceOfProof, createWagerPurchase, type WagerPurchase } from '../wager-purchase';
import { openPaymentRecords, type PaymentRecords } from '../payment-records';
import { createSubscribedConfirmer, type SubscribedConfirmer } from '../../chain/subscribed-confirmer';

const bed = keeperTestbed({ prefix: 'gateway-purchase-' });
const USDC = 1_000_000n;

let gateway: KeyPairSigner;
let confirmer: SubscribedConfirmer;
let records: PaymentRecords;
let purchase: WagerPurchase;

beforeAll(async () => {
  gateway = await generateKeyPairSigner();
  bed.localnet.chain.airdrop(gateway.address, 10_000_000_000n);
  await giveUsdc(bed.rpc, bed.parts, gateway.address, 100n * USDC);
  confirmer = createSubscribedConfirmer(createSolanaRpcSubscriptions(bed.localnet.wsUrl), gateway.address, createSignatureConfirmer(bed.rpc));
  await confirmer.ready;
  const oracle = address(bed.localnet.manifest.programs.oracle);
  records = openPaymentRecords(bed.dir.path('payments.db'));
  purchase = createWagerPurchase(
    {
      rpc: bed.rpc,
      sender: createTransactionSender({ rpc: bed.rpc, confirmer, payer: gateway }),
      confirmer,
      signer: gateway,
      program: bed.parts.program,
      usdcMint: bed.parts.mint,
      oracleNetworkState: (await findNetworkStatePda({ programAddress: oracle }))[0],
      programs: { wager: bed.parts.program, oracle },
    },
    records,
  );
}, 60_000);

afterAll(() => {
  confirmer?.stop();
  records?.close();
});

const coinFlip = () => {
  const paytable = bed.localnet.manifest.paytables.find((p) => p.name === 'coin-flip')!;
  return { name: paytable.name, address: address(paytable.address), buckets: paytable.buckets };
};
const orderFor = (beneficiary: Address, stake = 2n * USDC): WagerOrder => ({ paytable: coinFlip(), stake, beneficiary, price: stake });

/** A USDC token account at a fresh keypair's address (not an associated account), owned by `owner`. */
async function tokenAccountAt(account: KeyPairSigner, owner: Address) {
  const { app } = bed.parts;
  await sendInstructions(bed.rpc, app, [
    getCreateAccountInstruction({ payer: app, newAccount: account, lamports: 2_039_280n, space: getTokenSize(), programAddress: TOKEN_PROGRAM_ADDRESS }),
    getInitializeAccount3Instruction({ account: account.address, mint: bed.parts.mint, owner }),
  ]);
}

const wagerBeneficiary = async (wager: Address) => {
  const { value } = await bed.rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? getWagerDecoder().decode(getBase64Encoder().encode(value.data[0])).beneficiary : null;
};

describe("the gateway's remembered state going stale", () => {
  it('a plan gone stale between the check and the open (new wagers paused meanwhile): the payment is refunded, no wager opened', async () => {
    const order = orderFor((await generateKeyPairSigner()).address);
    const plan = await purchase.check(order);

    // The caller pays (a real transfer into the gateway's USDC account) and the payment is recorded...
    const payer = await generateKeyPairSigner();
    bed.localnet.chain.airdrop(payer.address, 1_000_000_000n);
    await giveUsdc(bed.rpc, bed.parts, payer.address, order.price);
    const settlement = await sendInstructions(bed.rpc, payer, [
      getTransferCheckedInstruction({
        source: await usdcAccountOf(bed.parts.mint, payer.address),
        mint: bed.parts.mint,
        destination: await usdcAccountOf(bed.parts.mint, gateway.address),
        authority: payer,
        amount: order.price,
        decimals: 6,
      }),
    ]);
    const proof = randomBytes(32).toString('hex');
    const record = records.recordPaid({
      proof,
      settlement,
      payer: payer.address,
      amount: order.price.toString(),
      paytable: order.paytable.name,
      stake: order.stake.toString(),
      beneficiary: order.beneficiary,
      nonce: nonceOfProof(proof).toString(),
      wager: await purchase.wagerFor(proof),
    });
    expect(await usdcBalance(bed.rpc, await usdcAccountOf(bed.parts.mint, payer.address))).toBe(0n);

    // ...and the guardian pauses new wagers before the open: what the check found no longer holds.
    const guardian = await keypairFromBytes(bed.localnet.manifest.devKeys.guardian.keypair);
    await sendInstructions(bed.rpc, guardian, [await getSetPausedInstructionAsync({ guardian, paused: 1 }, { programAddress: bed.parts.program })]);
    try {
      const finished = await purchase.finish(record, order, { justRecorded: true, plan });
      expect(finished).toMatchObject({ state: 'refunded', refundSignature: expect.any(String), error: expect.stringMatching(/^the wager could not be opened: paused\. /) });
    } finally {
      await sendInstructions(bed.rpc, guardian, [await getSetPausedInstructionAsync({ guardian, paused: 0 }, { programAddress: bed.parts.program })]);
    }
    expect(await usdcBalance(bed.rpc, await usdcAccountOf(bed.parts.mint, payer.address))).toBe(order.price);
    expect(await wagerBeneficiary(record.wager as Address)).toBeNull();
    expect(records.unfinished()).toEqual([]);
  });

  it('a remembered beneficiary that changed is seen by the next check: a wallet turned token account, a token account closed', async () => {
    const { app } = bed.parts;
    const target = await generateKeyPairSigner();

    // Unknown: taken for a wallet (its associated USDC account).
    const asWallet = await purchase.check(orderFor(target.address));
    expect(asWallet.beneficiary.account).toBe(await usdcAccountOf(bed.parts.mint, target.address));

    // Now a USDC token account lives at that address: the simulation shows it, the plan pays into it.
    await tokenAccountAt(target, app.address);
    const asAccount = await purchase.check(orderFor(target.address));
    expect(asAccount.beneficiary).toEqual({ account: target.address, create: [] });

    // Opened with that plan, the wager's beneficiary is the token account itself.
    const proof = randomBytes(32).toString('hex');
    const record = records.recordPaid({
      proof,
      settlement: `test-${proof}`,
      payer: app.address,
      amount: (2n * USDC).toString(),
      paytable: 'coin-flip',
      stake: (2n * USDC).toString(),
      beneficiary: target.address,
      nonce: nonceOfProof(proof).toString(),
      wager: await purchase.wagerFor(proof),
    });
    const opened = await purchase.finish(record, orderFor(target.address), { justRecorded: true, plan: asAccount });
    expect(opened.state).toBe('opened');
    expect(await wagerBeneficiary(opened.wager as Address)).toBe(target.address);

    // The token account is closed: the remembered plan fails its simulation, the chain is read again,
    // and the address is a wallet once more (not refused, not paid into a closed account).
    await sendInstructions(bed.rpc, app, [getCloseAccountInstruction({ account: target.address, destination: app.address, owner: app })]);
    const again = await purchase.check(orderFor(target.address));
    expect(again.beneficiary.account).toBe(await usdcAccountOf(bed.parts.mint, target.address));
  });
});
