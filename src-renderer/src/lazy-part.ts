/**
 * Parts of the console loaded on first use (every screen but Overview, and recharts), kept working over a
 * flaky link: a chunk that fails to load (the keeper restarting, a dropped connection) is asked again with
 * a growing delay instead of failing the page (React would unmount the whole console on a rejected lazy
 * import). Chromium fetches a failed dynamic import again on the next import(). Once the page is idle, every
 * part is fetched ahead, so opening a screen later needs no network.
 */
import { lazy, type ComponentType } from 'react';

const RETRY_MS = [500, 1_000, 2_000, 5_000];
const loaders: (() => Promise<unknown>)[] = [];

async function loadUntilLoaded<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
    }
  }
}

/** `lazyPart(() => import('./screens/Queue'), (m) => m.Queue)`: a lazy component whose chunk load is retried until it loads. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a component of any props, as React.lazy takes
export function lazyPart<M, P = any>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  let loading: Promise<M> | null = null;
  const once = () => (loading ??= loadUntilLoaded(load));
  loaders.push(once);
  return lazy(async () => ({ default: pick(await once()) }));
}

/**
 * Fetches every lazy part once the first screen had `afterMs` to fill in (its numbers first), then when
 * the browser is idle.
 */
export function preloadLazyParts(afterMs = 1_500): void {
  const start = () => void Promise.all(loaders.map((load) => load()));
  setTimeout(
    () => ('requestIdleCallback' in window ? window.requestIdleCallback(start, { timeout: 2_000 }) : start()),
    afterMs,
  );
}
