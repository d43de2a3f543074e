/**
 * `wager-keeper keeper --rpc URL [--ws URL] [--port 7300] [--host 127.0.0.1] [--db FILE] [--keypair FILE]
 *   [--priority-fee MICROLAMPORTS] [--metrics-port N] [--cors-origin ORIGIN ...]`
 * Runs the crank loop and the /v1 API against any cluster. The faucet is served only on a test network:
 * a wager-keeper localnet (its manifest names the test USDC mint authority), or a cluster other than
 * mainnet-beta given `--faucet-mint MINT --faucet-authority FILE` (the test USDC's mint authority).
 */
import { address, createSolanaRpc, isAddress } from '@solana/kit';
import { parseArgs } from 'node:util';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { loadKeeperKey } from '../secrets/keeper-key';
import { keypairFromBytes, readKeypairFile } from '../secrets/keypair-bytes';
import { DEFAULT_API_PORT, defaultDatabasePath, startKeeperRuntime, untilSignal } from './keeper-runtime';

const port = (name: string, value: string | undefined, fallback: number) => {
  const parsed = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new Error(`--${name} must be a port number`);
  return parsed;
};

const positiveInteger = (name: string, value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a positive integer`);
  return parsed;
};

/** mainnet-beta's genesis hash: the faucet never runs there, whatever the flags say. */
const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

async function configuredFaucet(rpcUrl: string, mint: string | undefined, authorityFile: string | undefined) {
  if (mint === undefined && authorityFile === undefined) return undefined;
  if (!mint || !authorityFile) throw new Error('--faucet-mint and --faucet-authority go together');
  if (!isAddress(mint)) throw new Error('--faucet-mint must be a base58 address');
  const genesis = await createSolanaRpc(rpcUrl).getGenesisHash().send();
  if (genesis === MAINNET_GENESIS_HASH) throw new Error('the faucet only runs on a test network, and this RPC is mainnet-beta');
  return { mint: address(mint), mintAuthority: await readKeypairFile(authorityFile) };
}

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
      'faucet-mint': { type: 'string' },
      'max-in-flight': { type: 'string' },
      'faucet-authority': { type: 'string' },
    },
  });
  if (!values.rpc) throw new Error('missing --rpc URL');
  const priorityFee = values['priority-fee'];
  if (priorityFee !== undefined && !/^\d+$/.test(priorityFee)) throw new Error('--priority-fee must be micro-lamports per compute unit');
  const key = await loadKeeperKey({ keypairFile: values.keypair });
  const localnet = await fetchLocalnetManifest(values.rpc).catch(() => null);
  const faucet = localnet
    ? { mint: address(localnet.usdcMint), mintAuthority: await keypairFromBytes(localnet.mintAuthority) }
    : await configuredFaucet(values.rpc, values['faucet-mint'], values['faucet-authority']);
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
    maxInFlight: values['max-in-flight'] === undefined ? undefined : positiveInteger('max-in-flight', values['max-in-flight']),
    faucet,
  });
  console.log(
    JSON.stringify({
      event: 'ready',
      api: runtime.apiUrl,
      keeper: runtime.keeper.address,
      keySource: key.source,
      rpcUrl: values.rpc,
      faucet: Boolean(faucet),
      ...(runtime.metricsUrl ? { metrics: `${runtime.metricsUrl}/metrics` } : {}),
    }),
  );
  const signal = await untilSignal();
  await runtime.stop();
  console.log(JSON.stringify({ event: 'stopped', signal }));
  return 0;
}
