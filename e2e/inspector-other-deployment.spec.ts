/**
 * The fourth kind of address support staff paste: a wager of another deployment of the wager program (its
 * own program id, keeper and pool). The console runs `serve --rpc` against a localnet this spec hosts in
 * process, where a second deployment's wager is planted: a byte-for-byte wager account owned by another
 * program id (LiteSVM's setAccount, standing in for deploying the program a second time).
 */
import { address, createSolanaRpc, generateKeyPairSigner, lamports } from '@solana/kit';
import { openLocalnetWager } from '../src-main/localnet/dev-app-wager';
import { startLocalnet, type Localnet } from '../src-main/localnet/localnet';
import { attachScreenshot, expect, startCommand, test, type RunningCommand, type ServeReady } from './console-fixture';

test('says a wager of another deployment is one, and whose', async ({ page }, testInfo) => {
  let localnet: Localnet | undefined;
  let serve: RunningCommand<ServeReady> | undefined;
  try {
    localnet = await startLocalnet({ rpcPort: 0, slotMs: 400 });
    const rpc = createSolanaRpc(localnet.rpcUrl);
    const { wager } = await openLocalnetWager({ rpc, manifest: localnet.manifest, paytable: 'coin-flip', stake: 1_000_000n });
    const original = localnet.chain.svm.getAccount(wager);
    if (!original.exists) throw new Error('the opened wager has no account');
    const otherProgram = (await generateKeyPairSigner()).address;
    const planted = (await generateKeyPairSigner()).address;
    localnet.chain.svm.setAccount({ ...original, address: planted, programAddress: otherProgram, lamports: lamports(original.lamports) });

    serve = await startCommand<ServeReady>(['serve', '--rpc', localnet.rpcUrl, '--port', '0', '--gateway-port', '0']);
    await page.goto(serve.ready.console);
    await page.getByRole('link', { name: 'Inspector' }).click();
    await page.getByRole('textbox', { name: 'Wager address' }).fill(planted);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await expect(page.getByRole('alert')).toContainText(`a wager of another deployment (program ${otherProgram})`);
    await expect(page.getByRole('alert')).toContainText(`this service's wager program is ${localnet.manifest.programs.wager}: ask that deployment's keeper`);
    await attachScreenshot(page, testInfo, 'inspector-other-deployment');

    // The original, of this deployment, still inspects as a wager.
    await page.getByRole('textbox', { name: 'Wager address' }).fill(address(wager));
    await page.getByRole('button', { name: 'Inspect' }).click();
    await expect(page.getByRole('heading', { name: 'Outcome' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  } finally {
    await serve?.stop();
    await localnet?.stop();
  }
});
