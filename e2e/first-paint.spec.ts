/**
 * The console's first paint: the frame, the status line and the keeper's address are in the page `serve`
 * answers, so a person sees them before the app's script has run, and the app's first render keeps them
 * (no "starting" card flipping back) until its first status call answers.
 */
import { attachScreenshot, expect, test } from './console-fixture';

test('the frame, the cluster and the keeper address are on screen before any script runs', async ({
  browser,
  serve,
}, testInfo) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(serve.ready.console);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Liquidity')).toBeVisible();
    await expect(page.getByRole('banner').getByText('embedded localnet')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Keeper' }).getByText(serve.ready.keeper)).toBeVisible();
    await expect(page.getByText('Reading the balance…')).toBeVisible();
    await attachScreenshot(page, testInfo, 'first-paint-no-script');
  } finally {
    await context.close();
  }
});

test('until the first status answers, the app shows the keeper of the first paint, then fills in the rest', async ({
  page,
  serve,
}, testInfo) => {
  let answerStatus = () => {};
  const statusHeld = new Promise<void>((resolve) => (answerStatus = resolve));
  // The status comes from the status call and, first thing, from the live event stream: both held.
  for (const path of ['**/operator/api/status', '**/operator/events?**'])
    await page.route(path, async (route) => {
      await statusHeld;
      await route.continue();
    });
  await page.goto(serve.ready.console);
  const keeperCard = page.getByRole('region', { name: 'Keeper' });
  // The app's own card (its copy button exists only once the app runs), with the status still unanswered.
  await expect(keeperCard.getByRole('button', { name: 'Copy keeper address' })).toBeVisible();
  await expect(keeperCard.getByText(serve.ready.keeper)).toBeVisible();
  await expect(keeperCard.getByText('Reading the balance…')).toBeVisible();
  await expect(page.getByText(/No keeper is running yet/)).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'first-paint-status-pending');
  answerStatus();
  await expect(keeperCard.getByText(/^Key: /)).toBeVisible();
  await expect(keeperCard.getByText(/[\d.]+ SOL/)).toBeVisible();
  await expect(keeperCard.getByText(serve.ready.keeper)).toBeVisible();
});
