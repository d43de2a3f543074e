/**
 * `wager-keeper keeper --rpc URL ...` (its flags: host-flags.ts; its usage: `wager-keeper keeper --help`).
 * Runs the crank loop and the /v1 API against any cluster with a deployment: --deployment FILE, or one
 * found by the cluster's genesis hash (with none known it exits 1 saying so). The faucet is served only on a test network:
 * a wager-keeper localnet (its manifest names the test USDC mint authority), or a cluster other than
 * mainnet-beta given `--faucet-mint MINT --faucet-authority FILE` (the test USDC's mint authority).
 * With `--guardian-keypair FILE` the guardian runs beside the keeper and pauses new wagers when the oracle
 * stalls (src-main/keeper/guardian.ts); a key that is not the config's guardian on chain exits 1.
 */
import { address, isAddress } from '@solana/kit';
import { createChainRpc } from '../chain/rpc-connection';
import { deploymentSummary } from '../protocol/deployment';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { readKeypairFile } from '../secrets/keypair-bytes';
import { shardLabel } from '../keeper/shard';
import { UsageError } from './cli-flags';
import { runConsoleHost } from './console-host';
import { hostOptions } from './host-flags';
import { parseHostFlags } from './host-flag-parsing';
import { MAINNET_BETA_GENESIS_HASH } from '../../src-shared/cluster-identity';

/** The faucet --faucet-mint and --faucet-authority name; never on mainnet-beta (by its genesis hash), whatever the flags say. */
async function configuredFaucet(rpcUrl: string, mint: string | undefined, authorityFile: string | undefined) {
  if (mint === undefined && authorityFile === undefined) return undefined;
  if (!mint || !authorityFile) throw new UsageError('--faucet-mint and --faucet-authority go together');
  if (!isAddress(mint)) throw new UsageError('--faucet-mint must be a base58 address');
  const genesis = await createChainRpc(rpcUrl).getGenesisHash().send();
  if (genesis === MAINNET_BETA_GENESIS_HASH) throw new Error('the faucet only runs on a test network, and this RPC is mainnet-beta');
  return { mint: address(mint), mintAuthority: await readKeypairFile(authorityFile) };
}

/** The flags of `keeper` (derived from host-flags.ts; the usage text lists each, a test checks). */
export const KEEPER_OPTIONS = hostOptions('keeper');

export async function keeperCommand(args: string[]): Promise<number> {
  // Every flag is checked before the key is loaded or anything starts.
  const { values, flags } = parseHostFlags('keeper', args);
  const rpcUrl = flags.endpoints!.reads[0]!.rpcUrl;
  const localnet = await fetchLocalnetManifest(rpcUrl).catch(() => null);
  // A wager-keeper localnet brings its own faucet (the service reads its manifest); elsewhere the flags name one.
  const faucet = localnet && !localnet.bare ? undefined : await configuredFaucet(rpcUrl, values['faucet-mint'], values['faucet-authority']);
  const { shard } = flags;
  return runConsoleHost({
    console: !values['no-console'],
    ...(values['log-file'] ? { logFile: values['log-file'] } : {}),
    devKeyOnLocalnet: false,
    flags: { ...flags, ...(faucet ? { faucet } : {}) },
    readyLine: (described) => ({
      api: described.apiUrl,
      keeper: described.keeper,
      keySource: described.keySource,
      rpcUrl,
      genesisHash: described.genesisHash,
      network: described.network,
      deployment: described.deployment ? deploymentSummary(described.deployment) : null,
      faucet: described.faucet,
      corsOrigins: described.corsOrigins,
      ...(described.metricsUrl ? { metrics: `${described.metricsUrl}/metrics` } : {}),
      ...(described.guardian ? { guardian: described.guardian.address } : {}),
      ...(shard ? { shard: shardLabel(shard), shardTakeoverSlots: shard.takeoverSlots } : {}),
    }),
  });
}
