/**
 * The localnet demo app: opens a wager every few seconds with the localnet's dev app key, so that a
 * newcomer sees the keeper crank within seconds of the first start. It runs only on the app's own embedded
 * localnet (whose manifest holds the dev app key and test USDC); the console never offers it elsewhere.
 */
import type { Rpc, SolanaRpcApi } from '@solana/kit';
import { openLocalnetWager } from '../localnet/dev-app-wager';
import type { LocalnetManifest } from '../localnet/localnet';
import type { DemoView } from './operator-interface';

/** 1.00 test USDC per demo wager: the dev app holds 100 000, enough for a day at one every second. */
const DEMO_STAKE = 1_000_000n;

export interface DemoApp {
  view(): DemoView;
  configure(options: { enabled: boolean; intervalMs: number }): void;
  stop(): void;
}

export function createDemoApp(options: {
  rpc: Rpc<SolanaRpcApi>;
  manifest: LocalnetManifest;
  enabled: boolean;
  intervalMs: number;
  onChange?: () => void;
  now?: () => number;
}): DemoApp {
  const now = options.now ?? Date.now;
  let enabled = options.enabled;
  let intervalMs = options.intervalMs;
  let opened = 0;
  let lastOpenedAt: number | null = null;
  let lastError: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let opening = false;
  let stopped = false;
  let turn = 0;

  const openOne = async () => {
    // One at a time: a slow RPC never piles up opens.
    if (opening || stopped) return;
    opening = true;
    const paytables = options.manifest.paytables;
    const paytable = paytables[turn++ % paytables.length]!.name;
    try {
      await openLocalnetWager({ rpc: options.rpc, manifest: options.manifest, paytable, stake: DEMO_STAKE });
      opened += 1;
      lastOpenedAt = now();
      lastError = null;
    } catch (error) {
      lastError = `the demo app could not open a ${paytable} wager: ${(error as Error).message}`;
    } finally {
      opening = false;
      options.onChange?.();
    }
  };

  const schedule = () => {
    clearInterval(timer);
    timer = undefined;
    if (!enabled || stopped) return;
    timer = setInterval(() => void openOne(), intervalMs);
    timer.unref?.();
    void openOne(); // the first one at once: a newcomer sees a wager within a second or two
  };
  schedule();

  return {
    view: () => ({ available: true, enabled, intervalMs, opened, lastOpenedAt, lastError }),
    configure(next) {
      if (next.enabled === enabled && next.intervalMs === intervalMs) return;
      enabled = next.enabled;
      intervalMs = next.intervalMs;
      schedule();
      options.onChange?.();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** The demo's view where it cannot run (not a wager-keeper localnet). */
export const unavailableDemo = (intervalMs: number): DemoView => ({
  available: false,
  enabled: false,
  intervalMs,
  opened: 0,
  lastOpenedAt: null,
  lastError: null,
});
