/**
 * `wager-keeper serve [--port 7300] [--rpc URL | --rpc-port 8899] [--db FILE] [--slot-ms 400]`
 * Everything on one machine: the embedded localnet (unless --rpc), the keeper with the faucet, and the
 * /v1 API; prints one ready line with `api`, `rpcUrl` and the localnet manifest.
 */
import { address } from '@solana/kit';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { startLocalnet, type LocalnetManifest } from '../localnet/localnet';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import { loadKeeperKey } from '../secrets/keeper-key';
import { DEFAULT_API_PORT, startKeeperRuntime, untilSignal } from './keeper-runtime';

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: String(DEFAULT_API_PORT) },
      rpc: { type: 'string' },
      'rpc-port': { type: 'string', default: '8899' },
      'slot-ms': { type: 'string', default: '400' },
      db: { type: 'string' },
      keypair: { type: 'string' },
      'metrics-port': { type: 'string' },
    },
  });
  const apiPort = Number(values.port);
  if (!Number.isInteger(apiPort) || apiPort < 0) throw new Error('--port must be a port number');

  const localnet = values.rpc ? undefined : await startLocalnet({ rpcPort: Number(values['rpc-port']), slotMs: Number(values['slot-ms']) });
  const rpcUrl = values.rpc ?? localnet!.rpcUrl;
  const manifest: LocalnetManifest | null = localnet?.manifest ?? (await fetchLocalnetManifest(rpcUrl).catch(() => null));
  // On the embedded localnet the keeper cranks with the funded dev keeper key; elsewhere with its own key.
  const signer = values.keypair || !manifest ? (await loadKeeperKey({ keypairFile: values.keypair })).signer : await keypairFromBytes(manifest.devKeys.keeper.keypair);
  // A fresh store per embedded localnet: its chain starts from genesis every time.
  const dbPath = values.db ?? join(await mkdtemp(join(tmpdir(), 'wager-keeper-')), 'keeper.db');
  const runtime = await startKeeperRuntime({
    rpcUrl,
    wsUrl: manifest?.wsUrl,
    signer,
    dbPath,
    apiPort,
    metricsPort: values['metrics-port'] === undefined ? undefined : Number(values['metrics-port']),
    faucet: manifest ? { mint: address(manifest.usdcMint), mintAuthority: await keypairFromBytes(manifest.mintAuthority) } : undefined,
  });
  const publicManifest = manifest
    ? { programs: manifest.programs, usdcMint: manifest.usdcMint, paytables: manifest.paytables, wsUrl: manifest.wsUrl, devKeys: { app: manifest.devKeys.app } }
    : null;
  console.log(JSON.stringify({ event: 'ready', api: runtime.apiUrl, rpcUrl, keeper: runtime.keeper.address, db: dbPath, manifest: publicManifest }));
  const signal = await untilSignal();
  await runtime.stop();
  await localnet?.stop();
  console.log(JSON.stringify({ event: 'stopped', signal }));
  return 0;
}
