/**
 * `wager-keeper key show|export|import (--cluster NAME | --rpc URL)`: the keeper key of one cluster class
 * in the OS keychain (mainnet-beta has its own; docs/keeper.md "One key per cluster").
 *   show                        prints the address alone (like `solana address`): never the secret
 *   show --replaced             the keys replaced on that account, kept in the keychain: one JSON line each
 *   export --out FILE           writes a Solana CLI keypair file, mode 0600, never over an existing file
 *     [--account ACCOUNT]       ... of a replaced key (its account, as show --replaced lists it)
 *   import FILE|- [--replace]   a Solana CLI keypair file, or a file holding a base58 secret; '-' reads
 *                               either from stdin (so the secret stays out of the shell history)
 * --rpc URL reads the cluster from its genesis hash; --cluster needs no network.
 */
import { createSolanaRpc } from '@solana/kit';
import { text } from 'node:stream/consumers';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { clusterNameOf, describeRpcFailure } from '../../src-shared/cluster-identity';
import type { ClusterName } from '../../src-shared/cluster-identity';
import {
  clusterKeyAddress,
  exportClusterKey,
  importClusterKey,
  keyClassOf,
  keychainAccountFor,
  replacedClusterKeys,
} from '../runtime/cluster-keys';
import { parseKeypairText, readKeypairAnyFormat } from '../secrets/keypair-format';
import { parseFlags, UsageError } from './cli-flags';

/** The flags of `key` (the usage text in cli.ts lists each; a test checks). */
export const KEY_OPTIONS = {
  cluster: { type: 'string' },
  rpc: { type: 'string' },
  out: { type: 'string' },
  replace: { type: 'boolean' },
  replaced: { type: 'boolean' },
  account: { type: 'string' },
} as const;

const CLUSTERS = ['localnet', 'devnet', 'testnet', 'mainnet-beta'] as const;
const SUBCOMMANDS =
  'usage: wager-keeper key show [--replaced]|export --out FILE [--account ACCOUNT]|import FILE (--cluster localnet|devnet|testnet|mainnet-beta | --rpc URL)';

/** The cluster the command is about: named, or what the RPC's genesis hash says. */
async function clusterOf(values: { cluster?: string; rpc?: string }): Promise<ClusterName> {
  if ((values.cluster === undefined) === (values.rpc === undefined))
    throw new UsageError(
      `name the cluster whose key this is, with exactly one of --cluster ${CLUSTERS.join('|')} or --rpc URL`,
    );
  if (values.cluster !== undefined) {
    if (!(CLUSTERS as readonly string[]).includes(values.cluster))
      throw new UsageError(`--cluster must be one of ${CLUSTERS.join(', ')} (got '${values.cluster}')`);
    return values.cluster as ClusterName;
  }
  const rpcUrl = values.rpc!;
  let genesisHash: string;
  try {
    genesisHash = await createSolanaRpc(rpcUrl)
      .getGenesisHash()
      .send({ abortSignal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Error(
      `${describeRpcFailure(rpcUrl, error)} (or name the cluster with --cluster, which needs no network)`,
      { cause: error },
    );
  }
  const wagerKeeperLocalnet = await fetchLocalnetManifest(rpcUrl).then(
    () => true,
    () => false,
  );
  return clusterNameOf(genesisHash, wagerKeeperLocalnet);
}

export async function keyCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, KEY_OPTIONS, true);
  const [action, file, ...extra] = positionals;
  if (action !== 'show' && action !== 'export' && action !== 'import') throw new UsageError(SUBCOMMANDS);
  if (extra.length > 0 || (action !== 'import' && file !== undefined))
    throw new UsageError(`unexpected argument '${extra[0] ?? file}': ${SUBCOMMANDS}`);
  if (action !== 'export' && values.out !== undefined) throw new UsageError('--out goes with key export');
  if (action !== 'import' && values.replace) throw new UsageError('--replace goes with key import');
  if (action !== 'show' && values.replaced) throw new UsageError('--replaced goes with key show');
  if (action !== 'export' && values.account !== undefined) throw new UsageError('--account goes with key export');
  if (action === 'export' && !values.out)
    throw new UsageError('key export needs --out FILE (a new file: an existing one is never overwritten)');
  if (action === 'import' && !file)
    throw new UsageError(
      'key import needs FILE: a Solana CLI keypair file, a file holding a base58 secret, or - to read either from stdin',
    );
  const cluster = await clusterOf(values);
  const keyClass = keyClassOf(cluster);
  const account = keychainAccountFor(keyClass);
  if (action === 'show' && values.replaced) {
    // Addresses and when, never the secret; an empty output when nothing was replaced.
    for (const replaced of replacedClusterKeys(keyClass)) console.log(JSON.stringify({ ...replaced, keyClass }));
    return 0;
  }
  if (action === 'show') {
    const address = await clusterKeyAddress(keyClass);
    if (!address)
      throw new Error(
        `the OS keychain holds no ${keyClass === 'mainnet-beta' ? 'mainnet-beta' : 'local/test'} keeper key yet (account "${account}"): the keeper makes one at its first start on ${cluster}, or import one with wager-keeper key import FILE --cluster ${cluster}`,
      );
    console.log(address);
    return 0;
  }
  if (action === 'export') {
    const address = await exportClusterKey(keyClass, values.out!, undefined, values.account);
    console.log(JSON.stringify({ path: values.out, address, keyClass, account: values.account ?? account }));
    return 0;
  }
  const { bytes } =
    file === '-'
      ? await parseKeypairText(await text(process.stdin), 'the keypair on stdin')
      : await readKeypairAnyFormat(file!);
  const before = await clusterKeyAddress(keyClass);
  const address = await importClusterKey(keyClass, bytes, { replace: values.replace === true }).catch(
    (error: unknown) => {
      const message = (error as Error).message;
      throw message.endsWith('confirm the replacement')
        ? new Error(`${message} with --replace`, { cause: error })
        : error;
    },
  );
  console.log(
    JSON.stringify({
      address,
      keyClass,
      account,
      replaced: before !== null && before !== address ? before : null,
    }),
  );
  return 0;
}
