/**
 * `wager-keeper keeper --rpc URL [--ws URL] [--port 7300] [--host 127.0.0.1] [--db FILE] [--keypair FILE]
 *   [--priority-fee MICROLAMPORTS] [--metrics-port N] [--cors-origin ORIGIN ...]`
 * Runs the crank loop and the /v1 API against any cluster. The faucet is served only on a test network:
 * a wager-keeper localnet (its manifest names the test USDC mint authority).
 */
import { address } from '@solana/kit';
import { parseArgs } from 'node:util';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { loadKeeperKey } from '../secrets/keeper-key';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import { DEFAULT_API_PORT, defaultDatabasePath, startKeeperRuntime, untilSignal } from './keeper-runtime';

const port = (name: string, value: string | undefined, fallback: number) => {
  const parsed = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new Error(`--${name} must be a port number`);
  return parsed;
};

export async function keeperCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      rpc: { type: 'string' },
      ws: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      keypair: { type: 'string' },
      'priority-fee': { type: 'string' },
      'metrics-port': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
    },
  });
  if (!values.rpc) throw new Error('missing --rpc URL');
  const priorityFee = values['priority-fee'];
  if (priorityFee !== undefined && !/^\d+$/.test(priorityFee)) throw new Error('--priority-fee must be micro-lamports per compute unit');
  const key = await loadKeeperKey({ keypairFile: values.keypair });
  const localnet = await fetchLocalnetManifest(values.rpc).catch(() => null);
  const runtime = await startKeeperRuntime({
    rpcUrl: values.rpc,
    wsUrl: values.ws ?? localnet?.wsUrl,
    signer: key.signer,
    dbPath: values.db ?? defaultDatabasePath(),
    apiPort: port('port', values.port, DEFAULT_API_PORT),
    apiHost: values.host,
    metricsPort: values['metrics-port'] === undefined ? undefined : port('metrics-port', values['metrics-port'], 0),
    priorityFeeMicroLamports: priorityFee === undefined ? undefined : BigInt(priorityFee),
    corsOrigins: values['cors-origin'],
    faucet: localnet ? { mint: address(localnet.usdcMint), mintAuthority: await keypairFromBytes(localnet.mintAuthority) } : undefined,
  });
  console.log(
    JSON.stringify({
      event: 'ready',
      api: runtime.apiUrl,
      keeper: runtime.keeper.address,
      keySource: key.source,
      rpcUrl: values.rpc,
      faucet: Boolean(localnet),
      ...(runtime.metricsUrl ? { metrics: `${runtime.metricsUrl}/metrics` } : {}),
    }),
  );
  const signal = await untilSignal();
  await runtime.stop();
  console.log(JSON.stringify({ event: 'stopped', signal }));
  return 0;
}
