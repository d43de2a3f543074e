/**
 * `wager-keeper serve [--rpc URL ... | --rpc-port 8899] ...` (its flags: host-flags.ts; its usage: `wager-keeper serve --help`).
 * Everything on one machine: the embedded localnet (unless --rpc), the keeper with the faucet, the /v1 API
 * and the operator console (UI + operator API, loopback only, per-run token); prints one ready line with
 * `api`, `rpcUrl`, the `deployment`, the localnet manifest and the `console` URL. The API binds 127.0.0.1
 * unless --host. With --rpc the deployment is --deployment FILE or found by the cluster's genesis hash;
 * with none known, serve exits 1 saying so.
 */
import { shardLabel } from '../keeper/shard';
import { generateKeyPairSigner } from '@solana/kit';
import { deploymentSummary } from '../protocol/deployment';
import { dirname, join } from 'node:path';
import { remoteKeeper } from '../gateway/gateway';
import { serveGateway } from '../gateway/gateway-server';
import { fundLocalGateway } from '../gateway/local-gateway-funding';
import { defaultDatabasePath } from './command-defaults';
import { runConsoleHost } from './console-host';
import { gatewayLimitsFlags } from './gateway-command';
import { hostOptions } from './host-flags';
import { parseHostFlags } from './host-flag-parsing';

/** The flags of `serve` (derived from host-flags.ts; the usage text lists each, a test checks). */
export const SERVE_OPTIONS = hostOptions('serve');

export async function serveCommand(args: string[]): Promise<number> {
  // Every flag is checked before anything starts.
  const { values, flags, gatewayPort } = parseHostFlags('serve', args);
  const { shard, publicHosts, trustProxy } = flags;
  // Both declared with a default (host-flags.ts), so always set.
  const gateway = { port: gatewayPort!, host: flags.apiHost! };
  return runConsoleHost({
    console: !values['no-console'],
    ...(values['log-file'] ? { logFile: values['log-file'] } : {}),
    devKeyOnLocalnet: true,
    flags,
    // On a wager-keeper localnet: the x402 gateway with a fresh, funded key, handing wagers to this keeper.
    companion: async (described) => {
      const { manifest, deployment } = described;
      if (!manifest || !deployment || !described.rpcUrl) return { readyLine: { gateway: null }, stop: async () => undefined };
      const signer = await generateKeyPairSigner();
      await fundLocalGateway(described.rpcUrl, manifest, signer);
      const served = await serveGateway({
        rpcUrl: described.rpcUrl,
        wsUrl: manifest.wsUrl,
        signer,
        dbPath: join(dirname(described.db ?? defaultDatabasePath()), 'gateway.db'),
        deployment,
        paytables: deployment.paytables.map((p) => p.name),
        limits: gatewayLimitsFlags({ 'min-amount': '0.10', 'max-amount': '100.00', fee: '0.00' }),
        keeper: remoteKeeper(described.apiUrl),
        ...gateway,
        portFlag: '--gateway-port',
        ...(publicHosts ? { publicHosts } : {}),
        ...(trustProxy === undefined ? {} : { trustProxy }),
      });
      return { readyLine: { gateway: served.url, gatewayAddress: served.gateway.address }, stop: () => served.stop() };
    },
    readyLine: (described) => {
      const manifest = described.manifest;
      return {
        api: described.apiUrl,
        rpcUrl: described.rpcUrl,
        keeper: described.keeper,
        db: described.db,
        corsOrigins: described.corsOrigins,
        genesisHash: described.genesisHash,
        network: described.network,
        deployment: described.deployment ? deploymentSummary(described.deployment) : null,
        ...(described.metricsUrl ? { metrics: `${described.metricsUrl}/metrics` } : {}),
        ...(shard ? { shard: shardLabel(shard), shardTakeoverSlots: shard.takeoverSlots } : {}),
        // A public subset: its keeper cranks with the dev keeper key, which it does not print; no mint authority.
        manifest: manifest
          ? { programs: manifest.programs, usdcMint: manifest.usdcMint, paytables: manifest.paytables, wsUrl: manifest.wsUrl, devKeys: { app: manifest.devKeys.app } }
          : null,
      };
    },
  });
}
