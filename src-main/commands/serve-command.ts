/**
 * `wager-keeper serve [--port 7300] [--host 127.0.0.1] [--cors-origin ORIGIN ...] [--rpc URL | --rpc-port 8899 [--slot-ms 400]]
 *   [--db FILE] [--keypair FILE] [--metrics-port N]`
 * Everything on one machine: the embedded localnet (unless --rpc), the keeper with the faucet, and the
 * /v1 API; prints one ready line with `api`, `rpcUrl` and the localnet manifest. The API binds 127.0.0.1
 * unless --host says otherwise; CORS as for `keeper` (by default the console's own origin).
 */
import { address } from '@solana/kit';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { startLocalnet, type Localnet, type LocalnetManifest } from '../localnet/localnet';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import { loadKeeperKey } from '../secrets/keeper-key';
import { integerFlag, parseFlags, portFlag, UsageError } from './cli-flags';
import { DEFAULT_API_PORT, defaultDatabasePath, startKeeperRuntime, untilSignal } from './keeper-runtime';
import { localnetListenError } from './localnet-command';

/** The flags of `serve` (the usage text in cli.ts lists each; a test checks). */
export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  'cors-origin': { type: 'string', multiple: true },
  rpc: { type: 'string' },
  'rpc-port': { type: 'string' },
  'slot-ms': { type: 'string' },
  db: { type: 'string' },
  keypair: { type: 'string' },
  'metrics-port': { type: 'string' },
} as const;

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, SERVE_OPTIONS);
  // --rpc means "use that cluster", --rpc-port and --slot-ms shape the embedded one: never both.
  const EMBEDDED_ONLY = { 'rpc-port': 'sets the port of the embedded localnet', 'slot-ms': 'sets the slot time of the embedded localnet' } as const;
  for (const [name, what] of Object.entries(EMBEDDED_ONLY))
    if (values.rpc !== undefined && values[name as keyof typeof EMBEDDED_ONLY] !== undefined)
      throw new UsageError(`--rpc and --${name} are alternatives: --rpc uses that cluster instead of the embedded localnet, --${name} ${what}`);
  // Every flag is checked before anything starts.
  const apiPort = portFlag('port', values.port, DEFAULT_API_PORT);
  const rpcPort = portFlag('rpc-port', values['rpc-port'], 8899);
  const metricsPort = portFlag('metrics-port', values['metrics-port']);
  const slotMs = integerFlag('slot-ms', values['slot-ms'], 10, 400);

  const localnet = values.rpc
    ? undefined
    : await startLocalnet({ rpcPort, slotMs }).catch((error: unknown) => {
        throw localnetListenError(error, rpcPort, undefined, 'the WebSocket port');
      });
  let signal: string;
  try {
    signal = await serveUntilSignal(values, localnet, { apiPort, metricsPort });
  } finally {
    // Also when the keeper cannot start (e.g. --port in use): nothing keeps running, the command exits 1.
    await localnet?.stop();
  }
  console.log(JSON.stringify({ event: 'stopped', signal }));
  return 0;
}

/** Runs the keeper (on the embedded `localnet`, or on --rpc) until a signal; resolves with it once the keeper stopped. */
async function serveUntilSignal(
  values: { rpc?: string; host: string; 'cors-origin'?: string[]; db?: string; keypair?: string },
  localnet: Localnet | undefined,
  { apiPort, metricsPort }: { apiPort: number; metricsPort: number | undefined },
): Promise<string> {
  const rpcUrl = values.rpc ?? localnet!.rpcUrl;
  const manifest: LocalnetManifest | null = localnet?.manifest ?? (await fetchLocalnetManifest(rpcUrl).catch(() => null));
  // On the embedded localnet the keeper cranks with the funded dev keeper key; elsewhere with its own key.
  const signer = values.keypair || !manifest ? (await loadKeeperKey({ keypairFile: values.keypair })).signer : await keypairFromBytes(manifest.devKeys.keeper.keypair);
  // A fresh store per embedded localnet (its chain starts from genesis every time); against a cluster
  // given by --rpc, the keeper's usual file, so that a restart resumes every wager.
  const dbPath =
    values.db ?? (localnet ? join(await mkdtemp(join(tmpdir(), 'wager-keeper-')), 'keeper.db') : defaultDatabasePath());
  const runtime = await startKeeperRuntime({
    rpcUrl,
    wsUrl: manifest?.wsUrl,
    signer,
    dbPath,
    apiPort,
    apiHost: values.host,
    corsOrigins: values['cors-origin'],
    metricsPort,
    faucet: manifest ? { mint: address(manifest.usdcMint), mintAuthority: await keypairFromBytes(manifest.mintAuthority) } : undefined,
  });
  const publicManifest = manifest
    ? { programs: manifest.programs, usdcMint: manifest.usdcMint, paytables: manifest.paytables, wsUrl: manifest.wsUrl, devKeys: { app: manifest.devKeys.app } }
    : null;
  console.log(
    JSON.stringify({
      event: 'ready',
      api: runtime.apiUrl,
      rpcUrl,
      keeper: runtime.keeper.address,
      db: dbPath,
      corsOrigins: runtime.corsOrigins,
      ...(runtime.metricsUrl ? { metrics: `${runtime.metricsUrl}/metrics` } : {}),
      manifest: publicManifest,
    }),
  );
  const signal = await untilSignal();
  await runtime.stop();
  return signal;
}
