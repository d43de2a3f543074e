/**
 * The demo app: opens a wager every few seconds, so that a newcomer sees the keeper crank within seconds
 * of the first start. Where it may run is demoPlacement's call (a wager-keeper localnet, with its dev app
 * key; another test network only when asked for explicitly; never mainnet-beta).
 */
import type { KeyPairSigner, Rpc, SolanaRpcApi } from '@solana/kit';
import { openWager } from '../deployment/open-wager';
import type { Deployment } from '../protocol/deployment';
import type { ClusterName } from '../../src-shared/cluster-identity';
import type { DemoView } from '../../src-shared/contract/status';

/** 1.00 test USDC per demo wager: the dev app holds 100 000, enough for a day at one every second. */
const DEMO_STAKE = 1_000_000n;

export interface DemoApp {
  view(): DemoView;
  configure(options: { enabled: boolean; intervalMs: number }): void;
  stop(): void;
}

/**
 * Whether the demo app may run on a cluster, and why not: on the embedded localnet as its setting says;
 * on another wager-keeper localnet (someone's test chain, whose dev app USDC is theirs) or another test
 * network only with the explicit "demo on test networks" setting; never on mainnet-beta (real money).
 */
export function demoPlacement(cluster: { name: ClusterName; embedded: boolean }, demoOnTestNetworks: boolean): { allowed: true } | { allowed: false; reason: string } {
  if (cluster.name === 'mainnet-beta') return { allowed: false, reason: 'never on mainnet-beta: its wagers would stake real USDC' };
  if (cluster.embedded || demoOnTestNetworks) return { allowed: true };
  return {
    allowed: false,
    reason: `off on this ${cluster.name === 'localnet' ? 'localnet (not this app\'s own: wagers appearing by themselves would surprise whoever runs it)' : 'cluster'}; turn on "Demo app on test networks" in Settings to run it here`,
  };
}

export function createDemoApp(options: {
  rpc: Rpc<SolanaRpcApi>;
  deployment: Pick<Deployment, 'programs' | 'paytables' | 'usdcMint'>;
  /** Stakes and pays (on a localnet its dev app key; elsewhere the keeper's key, which needs test USDC). */
  stakeOwner: KeyPairSigner;
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
    const paytables = options.deployment.paytables;
    if (paytables.length === 0) {
      lastError = 'the deployment has no paytables';
      opening = false;
      return;
    }
    const paytable = paytables[turn++ % paytables.length]!.name;
    try {
      await openWager({ rpc: options.rpc, deployment: options.deployment, paytable, stake: DEMO_STAKE, stakeOwner: options.stakeOwner });
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
    view: () => ({ available: true, reason: null, enabled, intervalMs, opened, lastOpenedAt, lastError }),
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

/** The demo's view where it cannot run, with the reason. */
export const unavailableDemo = (intervalMs: number, reason: string): DemoView => ({
  available: false,
  reason,
  enabled: false,
  intervalMs,
  opened: 0,
  lastOpenedAt: null,
  lastError: null,
});
