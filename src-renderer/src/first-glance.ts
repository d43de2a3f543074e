/**
 * The first glance `serve` writes into the page (src-main/operator-http/console-first-paint.ts): the keeper's
 * address and the cluster, known before the first status call answers. The first render draws them so it
 * matches the page's first paint; the status replaces them as soon as it arrives. Null in the desktop app
 * (its page is a file) or on a page without the block.
 */
import type { FirstGlance } from '@shared/contract/cluster';

const CLUSTER_NAMES = new Set(['localnet', 'devnet', 'testnet', 'mainnet-beta', 'custom']);

function readFirstGlance(): FirstGlance | null {
  const text = document.getElementById('first-glance')?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<FirstGlance> | null;
    const keeper = value?.keeper;
    const cluster = value?.cluster;
    return {
      keeper:
        keeper && typeof keeper.address === 'string'
          ? { address: keeper.address, shard: typeof keeper.shard === 'string' ? keeper.shard : null }
          : null,
      cluster:
        cluster && CLUSTER_NAMES.has(cluster.name)
          ? { name: cluster.name, embedded: cluster.embedded === true }
          : null,
    };
  } catch {
    return null; // not ours: the status call will tell
  }
}

export const FIRST_GLANCE: FirstGlance | null = readFirstGlance();
