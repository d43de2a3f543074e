/**
 * A wager's transactions in full and its failed attempts (the Inspector's opened steps), against the real
 * localnet: a payout parked at settlement, a claim that fails on chain on purpose (the beneficiary's USDC
 * account still closed), then the claim that delivers it. The fee, compute units and balance changes
 * match what the chain says (the config's settle fee, the beneficiary's balance); the failed claim is
 * named in words with its sender. The pure parts (labels, merge, link, logs) have their own cases.
 */
import {
  address,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
} from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import {
  alwaysPaysPaytable,
  freshBeneficiary,
  keeperTestbed,
  openWager,
  sendInstructions,
  transactionMessage,
  usdcBalance,
  waitFor,
} from '../../keeper/__tests__/keeper-test-helpers';
import { WAGER_ERROR_SENTENCES } from '../../protocol/program-error-sentences';
import {
  findConfigPda,
  getClaimPayoutForWager,
  getConfigDecoder,
  getWagerDecoder,
  WagerStatus,
} from '../../protocol/wager';
import { findServiceAddresses } from '../../protocol/wager/service-instructions';
import { inspectWager } from '../wager-inspection';
import {
  balanceChanges,
  knownAccounts,
  labelAccounts,
  programLogs,
  readWagerTransaction,
  transactionExplorerUrl,
  type TransactionJson,
} from '../wager-transaction';
import { chainFailedAttempts, mergeAttempts } from '../wager-transaction-attempts';

const bed = keeperTestbed({ prefix: 'wager-transaction-test-' });

async function readAccount<T>(key: Address, decode: (bytes: Uint8Array) => T): Promise<T | null> {
  const { value } = await bed.rpc.getAccountInfo(key, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? decode(Uint8Array.from(getBase64Encoder().encode(value.data[0]))) : null;
}

/** Sends without preflight, as a careless client would: the transaction lands on chain and fails there. */
async function sendFailing(payer: KeyPairSigner, instructions: Instruction[]): Promise<string> {
  const signed = await signTransactionMessageWithSigners(
    await transactionMessage(bed.rpc, payer, instructions),
  );
  await bed.rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true })
    .send();
  const signature = getSignatureFromTransaction(signed);
  await waitFor(
    async () => (await bed.rpc.getSignatureStatuses([signature]).send()).value[0]?.err ?? undefined,
    10_000,
    'the failed claim',
  );
  return signature;
}

describe("a wager's transactions on the localnet", () => {
  it('a parked payout, a failed claim and the delivering claim: fee, compute units, balance changes and the failure in words', async () => {
    const { app, program } = bed.parts;
    const paytable = await alwaysPaysPaytable(bed.rpc, bed.localnet);
    const beneficiary = await freshBeneficiary(bed.rpc, bed.parts.mint, app);
    const opened = await openWager(bed.rpc, bed.localnet, app, {
      paytableAddress: paytable,
      stake: 1_000_000n,
      beneficiary: beneficiary.usdc,
    });
    await sendInstructions(bed.rpc, app, [
      getCloseAccountInstruction({
        account: beneficiary.usdc,
        destination: app.address,
        owner: beneficiary.owner,
      }),
    ]);
    const { keeper, key } = await bed.keeper('parks');
    const parked = await waitFor(
      async () => {
        const wager = await readAccount(opened.wager, (b) => getWagerDecoder().decode(b));
        return wager?.status === WagerStatus.PayoutPending ? wager : undefined;
      },
      30_000,
      'the parked payout',
    );
    await bed.stopKeeper(keeper);
    const claim = () =>
      getClaimPayoutForWager({
        caller: app,
        wagerAddress: opened.wager,
        wager: parked,
        programAddress: program,
      });
    const failedClaim = await sendFailing(app, [await claim()]);
    // The beneficiary's account opened again and the claim, in one transaction (so it differs from the failed one).
    const claimSignature = await sendInstructions(bed.rpc, app, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({
        payer: app,
        mint: bed.parts.mint,
        owner: beneficiary.owner.address,
      }),
      await claim(),
    ]);

    const programs = { wager: program, oracle: address(bed.localnet.manifest.programs.oracle) };
    const { report } = await inspectWager(bed.rpc, bed.localnet.rpcUrl, opened.wager, { programs });
    expect(report.claimSignature).toBe(claimSignature);
    expect(report.settleTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    const context = {
      wager: opened.wager,
      parties: {
        stakeOwner: String(report.stakeOwner),
        beneficiary: String(report.beneficiary),
        app: String(report.app),
        payer: String(report.payer),
      },
      programs,
      usdcMint: bed.localnet.manifest.usdcMint,
      keeper: key.address,
      cluster: 'localnet' as const,
      rpcUrl: bed.localnet.rpcUrl,
    };
    const { escrow, vault } = await findServiceAddresses(program);
    const config = (await readAccount((await findConfigPda({ programAddress: program }))[0], (b) =>
      getConfigDecoder().decode(b),
    ))!;
    const payout = parked.payout.toString();

    // Settle: the keeper paid the fee and earned the config's settle fee; the payout went into the escrow.
    const settle = (await readWagerTransaction(bed.rpc, String(report.settleSignature), context))!;
    const raw = (await bed.rpc
      .getTransaction(settle.signature as never, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send())!;
    expect(settle).toMatchObject({
      failure: null,
      feePayer: key.address,
      feeLamports: Number(raw.meta!.fee),
      computeUnits: Number(raw.meta!.computeUnitsConsumed),
    });
    expect(settle.computeUnits).toBeGreaterThan(0);
    expect(settle.feeLamports).toBeGreaterThanOrEqual(5_000);
    const change = (tx: typeof settle, account: string) =>
      tx.balanceChanges.find((c) => c.address === account);
    expect(change(settle, key.address)).toMatchObject({
      label: 'keeper (this keeper)',
      solLamports: String(config.settleFee - BigInt(settle.feeLamports)),
    });
    expect(change(settle, escrow)).toMatchObject({ label: 'payout escrow', usdc: payout });
    expect(change(settle, vault)).toMatchObject({ label: 'pool vault', usdc: `-${payout}` });
    expect(settle.programLogs[0]).toBe(`Program ${program} invoke [1]`);
    expect(settle.programLogs.at(-1)).toBe(`Program ${program} success`);
    expect(settle.explorerUrl).toBe(
      `https://explorer.solana.com/tx/${settle.signature}?cluster=custom&customUrl=${encodeURIComponent(bed.localnet.rpcUrl)}`,
    );

    // Claim: the escrow paid the beneficiary, whose balance on chain is the payout.
    const delivered = (await readWagerTransaction(bed.rpc, claimSignature, context))!;
    expect(await usdcBalance(bed.rpc, beneficiary.usdc)).toBe(parked.payout);
    expect(change(delivered, beneficiary.usdc)).toMatchObject({
      label: 'beneficiary (USDC account)',
      usdc: payout,
    });
    expect(change(delivered, escrow)).toMatchObject({ usdc: `-${payout}` });

    // The failed claim: in words, with its sender, on the chain's list of failed attempts.
    const failed = (await readWagerTransaction(bed.rpc, failedClaim, context))!;
    expect(failed.failure).toBe(
      `beneficiaryCannotReceive: ${WAGER_ERROR_SENTENCES.beneficiaryCannotReceive}`,
    );
    expect(failed.balanceChanges).toEqual([
      {
        address: app.address,
        label: 'stake owner, app, payer',
        solLamports: `-${failed.feeLamports}`,
        usdc: null,
      },
    ]);
    const attempts = await chainFailedAttempts(bed.rpc, opened.wager, programs);
    expect(attempts).toEqual([
      {
        at: expect.any(String),
        signature: failedClaim,
        step: 'claim payout',
        sender: app.address,
        error: failed.failure,
        source: 'chain',
      },
    ]);
  }, 90_000);
});

describe('the parts of a transaction view', () => {
  it('links public clusters by name and any other through the custom RPC parameter', () => {
    expect(transactionExplorerUrl('mainnet-beta', 'https://x', 'S')).toBe('https://explorer.solana.com/tx/S');
    expect(transactionExplorerUrl('devnet', 'https://x', 'S')).toBe(
      'https://explorer.solana.com/tx/S?cluster=devnet',
    );
    expect(transactionExplorerUrl('localnet', 'http://127.0.0.1:8899', 'S')).toBe(
      'https://explorer.solana.com/tx/S?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
    );
  });

  it("labels a key's several roles together and a labelled wallet's token account as its USDC account", () => {
    const known = knownAccounts([
      ['A', 'stake owner'],
      ['A', 'app'],
      ['A', 'app'],
      ['V', 'pool vault'],
      [undefined, 'payer'],
    ]);
    expect([...known]).toEqual([
      ['A', 'stake owner, app'],
      ['V', 'pool vault'],
    ]);
    const labels = labelAccounts(
      ['A', 'T', 'U', 'X'],
      known,
      new Map([
        ['T', 'A'],
        ['U', 'Z'],
      ]),
    );
    expect([...labels.values()]).toEqual([
      'stake owner, app',
      "stake owner, app's USDC account",
      'a USDC account',
      'other account',
    ]);
  });

  it('lists only accounts whose SOL or USDC changed, USDC of the given mint only', () => {
    const tx: TransactionJson = {
      slot: 1,
      blockTime: 1,
      transaction: { message: { accountKeys: ['P', 'U', 'R', 'O'], instructions: [] } },
      meta: {
        err: null,
        fee: 5000,
        preBalances: [100_000, 2_039_280, 7, 1],
        postBalances: [95_000, 2_039_280, 7, 1],
        preTokenBalances: [
          { accountIndex: 1, mint: 'USDC', uiTokenAmount: { amount: '10' } },
          { accountIndex: 3, mint: 'OTHER', uiTokenAmount: { amount: '1' } },
        ],
        postTokenBalances: [
          { accountIndex: 1, mint: 'USDC', uiTokenAmount: { amount: '3' } },
          { accountIndex: 3, mint: 'OTHER', uiTokenAmount: { amount: '9' } },
        ],
      },
    };
    expect(balanceChanges(tx, 'USDC', new Map([['P', 'keeper (this keeper)']]))).toEqual([
      { address: 'P', label: 'keeper (this keeper)', solLamports: '-5000', usdc: null },
      { address: 'U', label: 'other account', solLamports: '0', usdc: '-7' },
    ]);
  });

  it("keeps the wager program's log lines, CPIs within included, and drops the others", () => {
    const logs = [
      'Program C invoke [1]',
      'Program C success',
      'Program W invoke [1]',
      'Program log: x',
      'Program T invoke [2]',
      'Program T success',
      'Program W consumed 9 of 9 compute units',
      'Program W success',
      'Program C invoke [1]',
    ];
    expect(programLogs(logs, 'W')).toEqual(logs.slice(2, 8));
  });

  it("merges the keeper's log into the chain's failures by signature, newest first", () => {
    const chain = [
      {
        at: '2026-11-27T10:00:02.000Z',
        signature: 'S1',
        step: 'claim payout',
        sender: 'K',
        error: 'e',
        source: 'chain' as const,
      },
    ];
    const merged = mergeAttempts(
      chain,
      [
        {
          atMs: Date.parse('2026-11-27T10:00:01Z'),
          step: 'claim_payout',
          outcome: 'failed',
          signature: 'S1',
          error: 'claim_payout: invalidBeneficiary',
        },
        {
          atMs: Date.parse('2026-11-27T10:00:03Z'),
          step: 'claim_payout',
          outcome: 'failed',
          signature: null,
          error: 'claim_payout: invalidBeneficiary',
        },
      ],
      'K',
    );
    expect(merged.map((a) => [a.signature, a.source])).toEqual([
      [null, 'this keeper'],
      ['S1', 'chain and this keeper'],
    ]);
    expect(merged[0]!.error).toBe(`claim_payout: ${WAGER_ERROR_SENTENCES.invalidBeneficiary}`);
  });
});
