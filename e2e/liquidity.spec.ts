/**
 * Liquidity as an LP drives it from the console: a deposit request waits in the live epoch (Strike and
 * Claim disabled, with the program's refusal in words and when it changes), the epoch is struck from the
 * screen once the chain would accept it (the fee and the transaction), then the deposit is claimed (what it
 * pays before, the transaction and the new balance after).
 * Its own `serve` with 100 ms slots, so the 750-slot epoch closes in about 75 s; the keeper is paused so its
 * loop does not strike and claim first, and the demo app is off so no wager holds the strike back.
 */
import { address, createSolanaRpc, getBase64Encoder } from '@solana/kit';
import { operatorApi, sendInstructions } from './chain-actions';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstructionAsync } from '@solana-program/token';
import { findDepositRequestPda, findEpochRecordPda, findPoolPda, findShareMintPda, getPoolDecoder, getRequestDepositInstructionAsync } from '../src-main/protocol/wager';
import { ORACLE_ERROR_SENTENCES, WAGER_ERROR_SENTENCES } from '../src-main/protocol/program-error-sentences';
import { keypairFromBytes } from '../src-main/secrets/keypair-bytes';
import { attachScreenshot, expect, startCommand, test, type ServeReady } from './console-fixture';

type Ready = ServeReady & { manifest: { programs: { wager: string }; usdcMint: string; devKeys: { app: { keypair: number[] } } } };

/** The dev app key asks to deposit `amount` USDC into the live epoch (and makes sure it can receive shares). */
async function requestDeposit(ready: Ready, amount: bigint): Promise<string> {
  const rpc = createSolanaRpc(ready.rpcUrl);
  const programAddress = address(ready.manifest.programs.wager);
  const owner = await keypairFromBytes(ready.manifest.devKeys.app.keypair);
  const [pool] = await findPoolPda({ programAddress });
  const { value } = await rpc.getAccountInfo(pool, { encoding: 'base64', commitment: 'confirmed' }).send();
  const { epoch } = getPoolDecoder().decode(getBase64Encoder().encode(value!.data[0]));
  const [request] = await findDepositRequestPda({ owner: owner.address, epoch }, { programAddress });
  const [epochRecord] = await findEpochRecordPda({ epoch }, { programAddress });
  const [source] = await findAssociatedTokenPda({ mint: address(ready.manifest.usdcMint), owner: owner.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [shareMint] = await findShareMintPda({ programAddress });
  await sendInstructions(ready.rpcUrl, owner, [
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: owner, mint: shareMint, owner: owner.address }),
    await getRequestDepositInstructionAsync({ owner, request, epochRecord, source, amount }, { programAddress }),
  ]);
  return request;
}

/** Program error names in camelCase (epochNotClosed...) must never reach the screen: people get the sentences. */
const camelCaseCodes = [...Object.keys(WAGER_ERROR_SENTENCES), ...Object.keys(ORACLE_ERROR_SENTENCES)].filter((name) => /[A-Z]/.test(name));
const CODE_NAMES = new RegExp(`\\b(${camelCaseCodes.join('|')})\\b`);

test('strikes an epoch and claims a deposit from the Liquidity screen, each enabled only when the chain would accept it', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const serve = await startCommand<Ready>(['serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', '--slot-ms', '100']);
  try {
    const call = operatorApi(serve.ready.console);
    await call('saveSettings', { changes: { demoEnabled: false } });
    await page.goto(serve.ready.console);
    // Wait until the demo's first wager (if any) is finished, then pause: the loop must not strike first.
    await expect.poll(async () => (await call<{ queue: number }>('health')).queue, { timeout: 60_000 }).toBe(0);
    await page.getByRole('button', { name: 'Pause keeper' }).click();
    await page.getByRole('link', { name: 'Liquidity' }).click();
    await expect(page.getByText(/Live epoch \d+/)).toBeVisible();
    const strike = page.getByRole('button', { name: 'Strike epoch' });

    // A live epoch whose close already passed takes no requests: strike it first.
    if (await page.getByText(/It can be struck now/).isVisible()) {
      await strike.click();
      await expect(page.getByRole('status').filter({ hasText: /Strike landed/ })).toBeVisible();
    }
    const request = await requestDeposit(serve.ready, 25_000_000n);
    const owner = (await keypairFromBytes(serve.ready.manifest.devKeys.app.keypair)).address;
    await page.getByLabel('Owner address').fill(owner);
    await page.getByRole('button', { name: 'Filter' }).click();
    const row = page.getByRole('row').filter({ has: page.locator(`code[title="${request}"]`) });
    await expect(row).toContainText('waiting for the epoch to be struck');

    // While the epoch is open the program refuses the strike (simulated): disabled, with the reason and when.
    await expect(strike).toBeDisabled();
    await expect(page.locator('#strike-why')).toHaveText(
      /^It cannot be struck yet\. The epoch has not closed yet: strike it after its close slot\. Epoch \d+ closes at slot [\d ]+ \(in about \d+(\.\d)? (s|min)\)\.$/,
    );
    await expect(strike).toHaveAccessibleDescription(/The epoch has not closed yet/);
    // The claim waits for the strike: disabled, saying so.
    await expect(row.getByRole('button', { name: 'Claim' })).toBeDisabled();
    await expect(row).toContainText("The request's epoch has not been struck yet: claim it after the strike.");
    // The LP's own position: the deposit pending.
    const position = page.getByRole('region', { name: `Position of ${owner}` });
    await expect(position).toContainText('deposits pending25.00 USDC');
    await expect(page.locator('main, body').first()).not.toHaveText(CODE_NAMES);
    await attachScreenshot(page, testInfo, 'liquidity-waiting');

    // After the close the simulated strike lands: enabled.
    await expect(strike).toBeEnabled({ timeout: 120_000 });
    const shownEpoch = Number(/\d+/.exec((await page.getByRole('heading', { name: /Live epoch \d+/ }).textContent()) ?? '')![0]);
    await expect(page.locator('#strike-why')).toHaveText(/^It can be struck now \(the chain accepts the strike\); it pays [\d,]+ lamports\.$/);
    await strike.click();
    await expect(page.getByRole('status').filter({ hasText: /Strike landed: earned [\d,]+ lamports/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy Strike transaction' })).toBeVisible();
    await expect(row).toContainText('struck: claimable');
    // A strike of the epoch a stale screen still shows is answered "already struck", and nothing is sent.
    expect(await call('strikeEpoch', { epoch: shownEpoch })).toEqual({ outcome: 'lost', error: 'alreadyStruck', sentence: `Already struck: epoch ${shownEpoch} was struck meanwhile; the live epoch is now ${shownEpoch + 1}.` });

    // Before the claim: what it will pay, at the struck price, and the fees.
    await expect(row).toContainText(/Mints [\d,.]+ shares \(worth 2[45]\.\d+ USDC at [\d.]+ USDC per share\); fee: the claimer earns [\d,]+ lamports and pays 5,000 lamports for the transaction\./);
    const claim = row.getByRole('button', { name: 'Claim' });
    await expect(claim).toBeEnabled();
    await claim.click();
    // After it: the transaction and the owner's new balance.
    const landed = page.getByRole('status').filter({ hasText: /Claim landed: earned [\d,]+ lamports/ });
    await expect(landed).toBeVisible();
    await expect(landed).toContainText(/New balance: [1-9][\d,.]* shares in/);
    await expect(page.getByRole('button', { name: 'Copy Claim transaction' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(position).toContainText(/shares[1-9][\d,.]* shares/);
    await expect(page.getByRole('img', { name: /Share price over [1-9]\d* struck epochs?/ })).toBeVisible();
    await expect(page.locator('main, body').first()).not.toHaveText(CODE_NAMES);
    await attachScreenshot(page, testInfo, 'liquidity-claimed');
  } finally {
    await serve.stop();
  }
});
