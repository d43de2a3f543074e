/**
 * The keeper's cached set-up: the program config and the oracle's network state (its treasury). Read at
 * start, again every sweep, after an RPC outage and after a refusal that says they changed.
 */
import { getAddressDecoder, type Address } from '@solana/kit';
import { findNetworkStatePda } from '../protocol/generated/oracle';
import { findConfigPda, type Config } from '../protocol/wager';
import { fetchConfig, fetchNetworkStateBytes } from './chain-view';
import type { KeeperContext } from './keeper-context';

export interface OracleEndpoint {
  programAddress: Address;
  networkState: Address;
  treasury: Address;
}

export interface KeeperSetup {
  config(): Config | undefined;
  oracle(): OracleEndpoint | undefined;
  /** Reads both again (one read at a time; callers at the same moment share it). */
  refresh(): Promise<void>;
  /** Reads them when not read yet or marked stale. */
  ensure(): Promise<void>;
  /** A step was refused in a way that says config or oracle changed: read them again before the next pass. */
  markStale(): void;
}

export function createKeeperSetup(ctx: KeeperContext, onOracleProgramChanged: () => void): KeeperSetup {
  const { rpc, program, log, connection } = ctx;
  let config: Config | undefined;
  let oracle: OracleEndpoint | undefined;
  let genesisHash: string | undefined;
  let stale = false;
  let reading: Promise<void> | undefined;

  /**
   * The chain can change under a running keeper (a localnet restarted on the same ports, a config change):
   * a keeper that kept the first ones would have every request refused (the oracle's unknownTreasuryGiven)
   * while looking healthy.
   */
  const read = async () => {
    const hash = await rpc.getGenesisHash().send();
    const nextConfig = await fetchConfig(rpc, (await findConfigPda({ programAddress: program }))[0], program);
    const [networkState] = await findNetworkStatePda({ programAddress: nextConfig.oracleProgram });
    const bytes = await fetchNetworkStateBytes(rpc, networkState, nextConfig.oracleProgram);
    const treasury = getAddressDecoder().decode(bytes.subarray(40, 72)); // NetworkState treasury, bytes 40..72
    if (genesisHash !== undefined && hash !== genesisHash) {
      log?.warn({ rpc: connection.rpcUrl, previousGenesisHash: genesisHash, genesisHash: hash }, 'the cluster changed (new genesis hash): using its program config and oracle');
    }
    const previous = config && oracle ? { usdcMint: config.usdcMint, oracleProgram: oracle.programAddress, treasury: oracle.treasury } : undefined;
    const next = { usdcMint: nextConfig.usdcMint, oracleProgram: nextConfig.oracleProgram, treasury };
    if (previous && (Object.keys(next) as (keyof typeof next)[]).some((key) => previous[key] !== next[key])) {
      log?.warn({ rpc: connection.rpcUrl, previous, now: next }, 'the program config or the oracle changed on chain: using the new ones');
    }
    const oracleProgramChanged = oracle !== undefined && oracle.programAddress !== nextConfig.oracleProgram;
    genesisHash = hash;
    config = nextConfig;
    oracle = { programAddress: nextConfig.oracleProgram, networkState, treasury };
    stale = false;
    if (oracleProgramChanged) onOracleProgramChanged(); // the fulfilment subscription watches the old oracle
  };

  const refresh = () => (reading ??= read().finally(() => (reading = undefined)));
  return {
    config: () => config,
    oracle: () => oracle,
    refresh,
    async ensure() {
      if (config && oracle && !stale) return;
      await refresh();
    },
    markStale() {
      stale = true;
    },
  };
}
