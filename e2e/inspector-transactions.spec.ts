/**
 * Support answers a ticket from the console alone (issue 29), in the real browser against one `serve`
 * (the embedded localnet at 100 ms a slot, so an expiry takes seconds): a settled, an expired and a
 * parked-then-claimed wager. Each step opens into its transaction (time, result, fee, compute units,
 * balance changes by account, the wager program's logs), checked against the chain's own getTransaction;
 * failed attempts (a claim failed on chain on purpose, and one this keeper tried) are listed in words;
 * "Copy summary" puts a plain-text account with UTC times on the clipboard.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  address,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  generateKeyPairSigner,
  signTransactionMessageWithSigners,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
} from '@solana-program/token';
import type { Page } from '@playwright/test';
import { openLocalnetWager } from '../src-main/localnet/dev-app-wager';
import { fetchLocalnetManifest } from '../src-main/localnet/localnet-admin-client';
import type { QueueRow } from '../src-shared/contract/activity';
import { getClaimPayoutForWager, getWagerDecoder, WagerStatus } from '../src-main/protocol/wager';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';
import { formatUtc } from '../src-renderer/src/model/time-zone';
import { operatorApi, sendInstructions } from './chain-actions';
import {
  attachScreenshot,
  expect,
  type ServeReady,
  startCommand,
  startLocalServe,
  test as base,
} from './console-fixture';

/** One serve for the file, its localnet at 100 ms a slot (150 slots to an expiry: 15 s). */
const test = base.extend<object, { serve: Awaited<ReturnType<typeof startCommand<ServeReady>>> }>({
  serve: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object; this one has none
    async ({}, use) => {
      const serve = await startLocalServe(['--slot-ms', '100']);
      await use(serve);
      await serve.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

type Raw = NonNullable<
  Awaited<ReturnType<ReturnType<ReturnType<typeof createSolanaRpc>['getTransaction']>['send']>>
>;

/** The chain's own record of a transaction (what the page must agree with). */
async function chainTransaction(rpcUrl: string, signature: string): Promise<Raw> {
  const raw = await createSolanaRpc(rpcUrl)
    .getTransaction(signature as Signature, {
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    })
    .send();
  return raw!;
}

/** The SOL change of `account` in a transaction, from the chain's pre/post balances. */
function solChange(raw: Raw, account: string): bigint {
  const index = (raw.transaction.message.accountKeys as readonly string[]).indexOf(account);
  return BigInt(raw.meta!.postBalances[index]!) - BigInt(raw.meta!.preBalances[index]!);
}

/** "+0.000005000 SOL" as the page writes a lamport change. */
const solText = (lamports: bigint) =>
  `${lamports > 0n ? '+' : lamports < 0n ? '-' : ''}${(lamports < 0n ? -lamports : lamports)
    .toString()
    .padStart(10, '0')
    .replace(/^(\d+)(\d{9})$/, '$1.$2')} SOL`;

/** Opens the Inspector on `wager` by its link (same page: the token stays in memory). */
async function inspect(page: Page, wager: string) {
  await page.evaluate(`window.location.hash = '#/inspector?wager=${wager}'`);
  await expect(page.getByRole('textbox', { name: 'Wager address' })).toHaveValue(wager, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Outcome' })).toBeVisible({ timeout: 30_000 });
}

/** Opens a step's transaction and checks the page against the chain: time, result, fee, CUs, the row count of balance changes, the logs. */
async function openStep(page: Page, rpcUrl: string, step: string, program: string) {
  await page.getByRole('button', { name: `Show ${step} transaction` }).click();
  const region = page.getByRole('region', { name: `The ${step} transaction` });
  await expect(region).toBeVisible({ timeout: 30_000 });
  const signature = (await page
    .getByRole('button', { name: `Copy ${step} transaction` })
    .getAttribute('title'))!.replace(/^Copy /, '');
  const raw = await chainTransaction(rpcUrl, signature);
  const fact = (label: string) =>
    region
      .locator('.kv-row')
      .filter({
        has: page.getByRole('term').filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }),
      })
      .locator('dd');
  await expect(fact('Result')).toHaveText('Succeeded');
  await expect(fact('Block time').locator('time')).toHaveAttribute(
    'datetime',
    new Date(Number(raw.blockTime) * 1000).toISOString(),
  );
  await expect(fact('Fee')).toContainText(`(${Number(raw.meta!.fee).toLocaleString('en-US')} lamports)`);
  await expect(fact('Compute units')).toHaveText(
    `${Number(raw.meta!.computeUnitsConsumed).toLocaleString('en-US')} CU`,
  );
  await expect(fact('Paid by (fee payer)')).toContainText(raw.transaction.message.accountKeys[0]!);
  const changed = (raw.transaction.message.accountKeys as readonly string[]).filter((key) => {
    const usdc = (list: NonNullable<Raw['meta']>['preTokenBalances']) =>
      list?.find((b) => (raw.transaction.message.accountKeys as readonly string[])[b.accountIndex] === key)
        ?.uiTokenAmount.amount ?? '0';
    return (
      solChange(raw, key) !== 0n || usdc(raw.meta!.preTokenBalances) !== usdc(raw.meta!.postTokenBalances)
    );
  });
  const table = region.getByRole('table', { name: `Balance changes of the ${step} transaction` });
  await expect(table.locator('tbody tr')).toHaveCount(changed.length);
  await region.getByText(/^Wager program logs \(\d+ lines\)$/).click();
  await expect(region.getByLabel(`Wager program logs of the ${step} transaction`)).toContainText(
    `Program ${program} success`,
  );
  return { region, table, raw, signature };
}

/** The balance-change row of `label` (the account's part in the wager). */
const changeRow = (table: ReturnType<Page['getByRole']>, label: string) =>
  table
    .locator('tbody tr')
    .filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) });

async function copySummary(page: Page): Promise<string> {
  await expect(
    page.getByText('None failed', { exact: false }).or(page.getByRole('table', { name: 'Failed attempts' })),
  ).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Copy summary' }).click();
  await expect(page.getByRole('button', { name: 'Copy summary' })).toHaveText('Copied');
  return page.evaluate('navigator.clipboard.readText()') as Promise<string>;
}

/** Sends without preflight, as a careless client would: the transaction lands and fails on chain. */
async function sendFailing(
  rpcUrl: string,
  payer: KeyPairSigner,
  instructions: Instruction[],
): Promise<string> {
  const rpc = createSolanaRpc(rpcUrl);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true })
    .send();
  const signature = getSignatureFromTransaction(signed);
  await expect
    .poll(async () => (await rpc.getSignatureStatuses([signature]).send()).value[0]?.err ?? null, {
      timeout: 30_000,
    })
    .not.toBeNull();
  return signature;
}

test('a settled wager: its settle transaction against the chain, no failed attempts, and the summary', async ({
  consolePage: page,
  serve,
}, testInfo) => {
  test.setTimeout(120_000);
  const { rpcUrl } = serve.ready;
  const manifest = await fetchLocalnetManifest(rpcUrl);
  if (manifest.bare) throw new Error('serve runs a full localnet, not a bare one');
  const rpc = createSolanaRpc(rpcUrl);
  const call = operatorApi(serve.ready.console);
  const opened = await openLocalnetWager({ rpc, manifest, paytable: 'coin-flip', stake: 1_000_000n });
  await expect
    .poll(async () => (await call<QueueRow | null>('wager', { address: opened.wager }))?.state, {
      timeout: 60_000,
    })
    .toBe('settled');
  const keeper = serve.ready.keeper;
  const program = manifest.programs.wager;

  await inspect(page, opened.wager);
  const { table, raw } = await openStep(page, rpcUrl, 'settle', program);
  // The keeper paid the fee and earned the settle fee: the page's change is the chain's.
  await expect(changeRow(table, 'keeper (this keeper)').getByRole('cell').nth(1)).toHaveText(
    solText(solChange(raw, keeper)),
  );
  await expect(page.getByText(/^None failed/)).toBeVisible();
  await page.getByRole('region', { name: 'The settle transaction' }).scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'inspector-transaction-settle');

  const summary = await copySummary(page);
  const app = (await keypairFromBytes(manifest.devKeys.app.keypair)).address;
  const openTx = await chainTransaction(
    rpcUrl,
    (await rpc.getSignaturesForAddress(opened.wager).send()).at(-1)!.signature,
  );
  expect(summary).toContain(`Wager ${opened.wager}\n`);
  expect(summary).toContain(
    `Staked: 1.00 USDC on the coin-flip paytable by ${app}, opened at ${formatUtc(Number(openTx.blockTime) * 1000)}`,
  );
  expect(summary).toContain(`Outcome: settled at ${formatUtc(Number(raw.blockTime) * 1000)}`);
  expect(summary).toMatch(
    /\nPaid: (1\.96 USDC to \S+ at settlement|nothing \(the drawn bucket pays 0×\); the stake stayed in the pool)\.\n/,
  );
  expect(summary).toContain('\nProof: Verified: signed by the oracle');
  expect(summary).toContain('Failed attempts: none.');
});

test('an expired wager: the expire transaction refunds the payer, and the summary says why it expired', async ({
  consolePage: page,
  serve,
}) => {
  test.setTimeout(150_000);
  const { rpcUrl } = serve.ready;
  const manifest = await fetchLocalnetManifest(rpcUrl);
  if (manifest.bare) throw new Error('serve runs a full localnet, not a bare one');
  const call = operatorApi(serve.ready.console);
  await call('setLocalOracleStalled', { stalled: true });
  try {
    const opened = await openLocalnetWager({
      rpc: createSolanaRpc(rpcUrl),
      manifest,
      paytable: 'coin-flip',
      stake: 1_000_000n,
    });
    await expect
      .poll(async () => (await call<QueueRow | null>('wager', { address: opened.wager }))?.state, {
        timeout: 90_000,
      })
      .toBe('expired');
    await inspect(page, opened.wager);
  } finally {
    await call('setLocalOracleStalled', { stalled: false });
  }
  const { table, raw } = await openStep(page, rpcUrl, 'expire', manifest.programs.wager);
  const app = (await keypairFromBytes(manifest.devKeys.app.keypair)).address;
  // The prefund's rest and the wager account's rent go back to the payer (the dev app is payer, stake owner and app).
  const payerChange = solChange(raw, app);
  expect(payerChange).toBeGreaterThan(0n);
  await expect(changeRow(table, 'stake owner, app, payer').getByRole('cell').nth(1)).toHaveText(
    solText(payerChange),
  );
  const summary = await copySummary(page);
  expect(summary).toContain(`Outcome: expired at ${formatUtc(Number(raw.blockTime) * 1000)}`);
  expect(summary).toContain(
    `Refunded: the stake (1.00 USDC) was forfeited to the pool and stayed there; the wager's unspent prefund and its account's rent went back to the payer ${app}.`,
  );
});

test('a parked payout claimed after a failed claim: the failed attempts in words, the claim paying the beneficiary, the summary', async ({
  consolePage: page,
  serve,
}, testInfo) => {
  test.setTimeout(240_000);
  const { rpcUrl } = serve.ready;
  const manifest = await fetchLocalnetManifest(rpcUrl);
  if (manifest.bare) throw new Error('serve runs a full localnet, not a bare one');
  const rpc = createSolanaRpc(rpcUrl);
  const call = operatorApi(serve.ready.console);
  const app = await keypairFromBytes(manifest.devKeys.app.keypair);
  // A coin flip pays one time in two: open until one wins (at most 24) with the beneficiary's account closed first.
  let parked: { wager: string; owner: KeyPairSigner; usdc: string } | undefined;
  try {
    for (let attempt = 0; attempt < 24 && !parked; attempt++) {
      await call('setPaused', { paused: true });
      const owner = await generateKeyPairSigner();
      const opened = await openLocalnetWager({
        rpc,
        manifest,
        paytable: 'coin-flip',
        stake: 1_000_000n,
        beneficiary: owner.address,
      });
      await sendInstructions(rpcUrl, app, [
        getCloseAccountInstruction({ account: opened.beneficiary, destination: app.address, owner }),
      ]);
      await call('setPaused', { paused: false });
      let row: QueueRow | null = null;
      await expect
        .poll(async () => (row = await call<QueueRow | null>('wager', { address: opened.wager }))?.state, {
          timeout: 60_000,
        })
        .toMatch(/^(settled|expired)$/);
      if (row!.payoutPending) {
        await call('setPaused', { paused: true });
        parked = { wager: opened.wager, owner, usdc: opened.beneficiary };
      }
    }
    expect(parked, 'no coin flip won in 24 tries').toBeDefined();
    const { wager, owner, usdc } = parked!;

    // A claim sent on purpose while the account is still closed: it lands and fails on chain.
    const { value } = await rpc
      .getAccountInfo(address(wager), { encoding: 'base64', commitment: 'confirmed' })
      .send();
    const decoded = getWagerDecoder().decode(getBase64Encoder().encode(value!.data[0]));
    expect(decoded.status).toBe(WagerStatus.PayoutPending);
    const failedClaim = await sendFailing(rpcUrl, app, [
      await getClaimPayoutForWager({
        caller: app,
        wagerAddress: address(wager),
        wager: decoded,
        programAddress: address(manifest.programs.wager),
      }),
    ]);

    await inspect(page, wager);
    // This keeper tries too (its preflight refuses it): in its step log.
    await page.getByRole('button', { name: 'Claim payout now' }).click();
    await expect(
      page
        .getByRole('alert')
        .or(page.getByRole('status'))
        .filter({ hasText: /Claim payout/ }),
    ).toBeVisible({ timeout: 30_000 });
    const failed = page.getByRole('table', { name: 'Failed attempts' });
    // (The keeper may also have tried once on its own before it was paused: one row each.)
    await expect(failed.locator('tbody tr').filter({ hasText: 'this keeper' }).first()).toContainText(
      'refused before it reached the chain',
      { timeout: 30_000 },
    );
    await expect(failed.locator('tbody tr').filter({ hasText: 'this keeper' }).first()).toContainText(
      'The beneficiary still cannot receive the payout',
    );
    const onChain = failed
      .locator('tbody tr')
      .filter({ has: page.getByRole('button', { name: 'Copy failed claim payout transaction' }) })
      .filter({ hasText: /^(?!.*this keeper)/ });
    await expect(onChain).toHaveCount(1);
    await expect(onChain).toContainText('claim payout');
    await expect(onChain).toContainText(
      'beneficiaryCannotReceive: The beneficiary still cannot receive the payout',
    );
    await expect(onChain.getByRole('button', { name: 'Copy claim payout sender' })).toHaveAttribute(
      'title',
      `Copy ${app.address}`,
    );
    await expect(
      onChain.getByRole('button', { name: 'Copy failed claim payout transaction' }),
    ).toHaveAttribute('title', `Copy ${failedClaim}`);

    // The beneficiary opens its account again; support delivers the payout.
    await sendInstructions(rpcUrl, app, [
      await getCreateAssociatedTokenIdempotentInstructionAsync({
        payer: app,
        mint: address(manifest.usdcMint),
        owner: owner.address,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      }),
    ]);
    await page.getByRole('button', { name: 'Claim payout now' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Claim payout landed/ })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText(/^Settled: bucket 1, payout 1\.96 USDC/)).toBeVisible({ timeout: 30_000 });

    const { table, raw } = await openStep(page, rpcUrl, 'claim', manifest.programs.wager);
    await expect(changeRow(table, 'beneficiary (USDC account)').getByRole('cell').nth(2)).toHaveText(
      '+1.96 USDC',
    );
    await expect(changeRow(table, 'payout escrow').getByRole('cell').nth(2)).toHaveText('-1.96 USDC');
    const { value: balance } = await rpc
      .getTokenAccountBalance(address(usdc), { commitment: 'confirmed' })
      .send();
    expect(balance.amount).toBe('1960000');
    await attachScreenshot(page, testInfo, 'inspector-transaction');
    if (process.env.DOCS_SCREENSHOTS === '1') {
      // The steps panel with the claim open (its USDC changes), wide enough for every column.
      await page.setViewportSize({ width: 1_680, height: 1_400 });
      mkdirSync(join(import.meta.dirname, '..', 'docs', 'screenshots'), { recursive: true });
      const steps = page
        .locator('section')
        .filter({ has: page.getByRole('heading', { name: 'Steps, crankers and fees' }) });
      await steps.screenshot({
        path: join(import.meta.dirname, '..', 'docs', 'screenshots', 'inspector-transaction.png'),
      });
    }

    const summary = await copySummary(page);
    expect(summary).toContain(
      `then delivered to ${usdc} by claim_payout at ${formatUtc(Number(raw.blockTime) * 1000)}`,
    );
    expect(summary).toMatch(/Failed attempts \([2-9]\):/);
    expect(summary).toContain(
      `claim payout, sent by ${app.address} (transaction ${failedClaim}): beneficiaryCannotReceive: The beneficiary still cannot receive the payout`,
    );
  } finally {
    await call('setPaused', { paused: false });
  }
});
