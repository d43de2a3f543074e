/**
 * Playwright fixtures of the desktop project: the built desktop main runs once per worker under Node with
 * the electron stand-in (desktop-host.ts), and each test's page is the console window as Electron shows it:
 * the file the window loaded (out/renderer/index.html, from file://), with the preload the window was given
 * (out/preload/index.cjs) evaluated in a sandbox before any page script (sandboxed-preload.ts). IPC reaches
 * the real handlers in the host with the calling frame's real URL; what main sends reaches the page.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { startDesktopHost, type DesktopHost } from './desktop-host';
import {
  DISPATCH_FUNCTION,
  INVOKE_BINDING,
  PERMISSION_BINDING,
  WINDOW_OPEN_BINDING,
  sandboxedPreloadScript,
  type InvokeAnswer,
} from './sandboxed-preload';

export interface DesktopApp {
  host: DesktopHost;
  /** file:// URL of the page the window loaded. */
  pageUrl: string;
  /** The preload path the window was created with. */
  preload: string;
}

/** Opens the console window's page in `page`, wired to `app`'s host; returns a function that unwires it. */
export async function openDesktopWindow(page: Page, app: DesktopApp): Promise<() => void> {
  const { host } = app;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.exposeBinding(
    INVOKE_BINDING,
    async (source, channel: string, args: unknown[]): Promise<InvokeAnswer> => {
      try {
        return {
          value: await host.invoke(channel, source.frame.url(), args, {
            isMainFrame: source.frame === source.page.mainFrame(),
          }),
        };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
  );
  await page.exposeBinding(PERMISSION_BINDING, (source, permission: string) =>
    host.permission(permission, source.frame.url(), source.frame === source.page.mainFrame()),
  );
  // window.open: main's setWindowOpenHandler decides (the sandbox answers null, as a denied popup does).
  await page.exposeBinding(WINDOW_OPEN_BINDING, (_source, url: string) => host.windowOpen(url));
  // Every main-frame navigation to another document asks main's will-navigate; a prevented one is aborted
  // with ERR_ABORTED, which commits no error page: the page stays, as with Electron's preventDefault.
  // (Only http(s) is routed: a file:// navigation is no network request; the console has no file links.)
  await page.route(/^https?:/, async (route) => {
    const request = route.request();
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return route.continue();
    const { allowed } = await host.navigate(request.url());
    return allowed ? route.continue() : route.abort('aborted');
  });
  await page.addInitScript({ content: sandboxedPreloadScript(app.preload) });
  // What main sends from now on, in order, into the page (lost while no page listens, as in Electron).
  let delivery = Promise.resolve();
  const stop = host.onSent((message) => {
    if (message.window !== 0) return;
    delivery = delivery.then(() =>
      page
        .evaluate(
          ([name, channel, args]) =>
            (globalThis as unknown as Record<string, (c: string, a: unknown[]) => void>)[name]?.(
              channel,
              args,
            ),
          [DISPATCH_FUNCTION, message.channel, message.args] as const,
        )
        .then(
          () => undefined,
          () => undefined,
        ),
    );
  });
  await page.goto(app.pageUrl);
  return stop;
}

export const test = base.extend<{ desktopPage: Page }, { desktop: DesktopApp }>({
  desktop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object; this one has none
    async ({}, use) => {
      const host = await startDesktopHost();
      try {
        const [window] = await host.windowsLoaded();
        if (!window || window.loadError || window.loaded.length === 0)
          throw new Error(
            `the desktop app opened no page: ${window?.loadError ?? 'no window'}\n${host.log()}`,
          );
        const preload = (window.options.webPreferences as { preload: string }).preload;
        // The URL the window committed (Electron's url.format: a `%` in the checkout path stays as it is,
        // where pathToFileURL would write `%25` and the page would be another document to main).
        const pageUrl = window.url ?? pathToFileURL(window.loaded[window.loaded.length - 1]!).href;
        await use({ host, pageUrl, preload });
      } finally {
        await host.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  desktopPage: async ({ page, desktop }, use) => {
    const stop = await openDesktopWindow(page, desktop);
    await use(page);
    stop();
  },
});

export { expect };
