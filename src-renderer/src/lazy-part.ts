/**
 * Parts of the console loaded on first use (every screen but Overview, and recharts), kept working over a
 * flaky link: a chunk that fails to load (the keeper restarting, a dropped connection) is asked again with
 * a growing delay instead of failing the page (React would unmount the whole console on a rejected lazy
 * import; see load-until-loaded.ts). Once the page is idle, every part is fetched ahead, so opening a screen
 * later needs no network.
 */
import { lazy, type ComponentType } from 'react';
import { loadUntilLoaded } from './load-until-loaded';

const loaders: (() => Promise<unknown>)[] = [];

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
