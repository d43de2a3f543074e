/** The desktop specs' screenshots: attached to the report, and with DOCS_SCREENSHOTS=1 also written to docs/screenshots/desktop-<name>.png. */
import type { Page, TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { attachScreenshot } from '../console-fixture';

const DOCS_SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** Attaches a screenshot; with DOCS_SCREENSHOTS=1 also writes docs/screenshots/desktop-<name>.png. */
export async function desktopScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await attachScreenshot(page, testInfo, `desktop-${name}`);
  if (process.env.DOCS_SCREENSHOTS !== '1') return;
  mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(DOCS_SCREENSHOTS, `desktop-${name}.png`) });
}
