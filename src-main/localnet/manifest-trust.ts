/**
 * When a `localnet_manifest` answer may be believed (issue 33, item 10). The manifest names the program
 * ids the keeper then signs for, the mint, the cluster's name and dev keys: any RPC can answer the
 * method, so a hostile provider could name its own programs. It is believed only from an endpoint on
 * this machine (a wager-keeper localnet listens on loopback only) whose genesis hash is no public
 * cluster's, and only when it describes the chain that endpoint serves. Anything else is refused with
 * ManifestNotTrusted, and the callers fall back to the other deployment sources (a file, the data folder).
 */
import { KNOWN_GENESIS_HASHES } from '../../src-shared/cluster-identity';

/** A manifest answer that is not believed, with why. */
export class ManifestNotTrusted extends Error {}

const LOOPBACK_IPV4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whether `rpcUrl` names this machine: `localhost`, 127.0.0.0/8 or [::1]. An unparsable URL is not. */
export function isLoopbackRpcUrl(rpcUrl: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(rpcUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hostname === 'localhost' || LOOPBACK_IPV4.test(hostname) || hostname === '[::1]';
}

/** The endpoint as a message may name it: scheme, host and port, never a path or query (which may hold a key). */
export function endpointLabel(rpcUrl: string): string {
  try {
    const url = new URL(rpcUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'an RPC URL that does not parse';
  }
}

/** Throws ManifestNotTrusted unless `rpcUrl` is loopback: checked before anything is asked. */
export function assertManifestEndpoint(rpcUrl: string): void {
  if (!isLoopbackRpcUrl(rpcUrl)) {
    throw new ManifestNotTrusted(
      `a localnet manifest is believed only from this machine (localhost, 127.0.0.1, [::1]), not from ${endpointLabel(rpcUrl)}: use --deployment FILE for a cluster elsewhere`,
    );
  }
}

/**
 * Throws ManifestNotTrusted when the endpoint's chain is a public cluster, or when the manifest describes
 * another chain than the one the endpoint serves (`genesisHash` is what it answered to getGenesisHash).
 */
export function assertManifestChain(rpcUrl: string, genesisHash: string, manifest: unknown): void {
  const publicCluster = KNOWN_GENESIS_HASHES[genesisHash];
  if (publicCluster) {
    throw new ManifestNotTrusted(`${endpointLabel(rpcUrl)} serves ${publicCluster} (genesis ${genesisHash}): a localnet manifest from it is not believed`);
  }
  const described = manifest as { genesisHash?: unknown; deployment?: { cluster?: { genesisHash?: unknown } } | null } | null;
  // The manifest and the deployment it carries must both be of this chain.
  for (const claimed of [described?.genesisHash, ...(described?.deployment ? [described.deployment.cluster?.genesisHash] : [])]) {
    if (claimed !== genesisHash) {
      throw new ManifestNotTrusted(
        `${endpointLabel(rpcUrl)} answered a localnet manifest for genesis ${JSON.stringify(claimed ?? null)} while it serves genesis ${genesisHash}: not believed`,
      );
    }
  }
}
