/**
 * The embedded localnet in one call: chain + genesis + JSON-RPC (HTTP) + PubSub (WebSocket) + the
 * oracle fulfiller, on loopback. `startLocalnet({ rpcPort: 0 })` picks free ports (tests).
 */
import { solanaNetworkId } from '../chain/network-id';
import { writeFile } from 'node:fs/promises';
import { createGenesis, type Genesis } from './genesis';
import { LocalChain } from './local-chain';
import { startOracleFulfiller, type OracleFulfiller } from './oracle-fulfiller';
import { startPubSub, type PubSubServer } from './pubsub-server';
import { invalidParams } from './rpc-errors';
import { createRpcMethods } from './rpc-methods';
import { createRpcApp, listenRpc } from './rpc-server';

export interface LocalnetOptions {
  /** HTTP JSON-RPC port (default 8899; 0 = any free port). */
  rpcPort?: number;
  /** WebSocket port (default rpcPort + 1; with rpcPort 0, any free port). */
  wsPort?: number;
  host?: string;
  slotMs?: number;
  /** Tests: the clock moves only through localnet_advanceSlots / chain.advanceSlots. */
  manualSlots?: boolean;
  oracleDelaySlots?: number;
  oracleStalled?: boolean;
  /** Also write the manifest to this file. */
  manifestPath?: string;
}

/** What a client needs to use the localnet: endpoints, programs, mint, paytables and dev keys. */
export interface LocalnetManifest {
  rpcUrl: string;
  wsUrl: string;
  /** This localnet's genesis hash: new at every start, as a new cluster's. */
  genesisHash: string;
  /** Its CAIP-2 id (`solana:` + the genesis hash's first 32 characters), as x402 and wallets name it. */
  network: string;
  slotMs: number;
  programs: { wager: string; oracle: string };
  usdcMint: string;
  /** Dev only: the test USDC mint authority (64-byte keypair) the faucet mints with. */
  mintAuthority: number[];
  pool: string;
  shareMint: string;
  oracle: { networkState: string; treasury: string; fulfilmentAuthority: string; delaySlots: number };
  paytables: { name: string; address: string; buckets: { weight: number; multiplierBps: number }[] }[];
  /** Dev only: funded keys (64-byte keypairs): an app (integrator) key with test USDC, and a keeper key. */
  devKeys: { app: { address: string; keypair: number[] }; keeper: { address: string; keypair: number[] }; guardian: { address: string; keypair: number[] } };
}

export interface Localnet {
  chain: LocalChain;
  genesis: Genesis;
  fulfiller: OracleFulfiller;
  manifest: LocalnetManifest;
  rpcUrl: string;
  wsUrl: string;
  stop(): Promise<void>;
}

const keyEntry = (key: Genesis['keys']['app']) => ({ address: key.signer.address, keypair: Array.from(key.secretKey) });

export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const host = options.host ?? '127.0.0.1';
  const chain = new LocalChain({ slotMs: options.slotMs, manualSlots: true });
  const genesis = await createGenesis(chain);
  const fulfiller = startOracleFulfiller(chain, {
    oracleProgram: genesis.programs.oracle,
    authority: genesis.keys.fulfiller.signer,
    delaySlots: options.oracleDelaySlots ?? 1,
    stalled: options.oracleStalled,
  });

  const methods = createRpcMethods(chain);
  const published: { manifest?: LocalnetManifest } = {}; // set once the servers listen (it holds their URLs)
  // Operator methods of this localnet (a validator has none of these): oracle outages, manual slots.
  methods.localnet_stallOracle = () => (fulfiller.stall(), true);
  methods.localnet_resumeOracle = () => (fulfiller.resume(), true);
  methods.localnet_oracleStatus = () => ({ stalled: fulfiller.isStalled(), pending: fulfiller.pendingCount() });
  methods.localnet_manifest = () => published.manifest;
  methods.localnet_advanceSlots = ([count]) => {
    const slots = Number(count ?? 1);
    if (!Number.isInteger(slots) || slots < 1 || slots > 10_000) throw invalidParams('Invalid param: slots must be 1..10000');
    chain.advanceSlots(slots);
    return chain.slot();
  };

  const http = await listenRpc(createRpcApp(methods), options.rpcPort ?? 8899, host);
  let pubsub: PubSubServer;
  try {
    pubsub = await startPubSub(chain, { port: options.wsPort ?? (options.rpcPort === 0 ? 0 : http.port + 1), host });
  } catch (error) {
    http.server.close();
    throw error;
  }
  const rpcUrl = `http://${host}:${http.port}`;
  const wsUrl = `ws://${host}:${pubsub.port}`;
  const manifest: LocalnetManifest = {
    rpcUrl,
    wsUrl,
    genesisHash: chain.genesisHash,
    network: solanaNetworkId(chain.genesisHash),
    slotMs: chain.slotMs,
    programs: genesis.programs,
    usdcMint: genesis.usdcMint,
    mintAuthority: Array.from(genesis.keys.mintAuthority.secretKey),
    pool: genesis.pool,
    shareMint: genesis.shareMint,
    oracle: { ...genesis.oracle, delaySlots: options.oracleDelaySlots ?? 1 },
    paytables: genesis.paytables.map(({ name, address, buckets }) => ({ name, address, buckets })),
    devKeys: { app: keyEntry(genesis.keys.app), keeper: keyEntry(genesis.keys.keeper), guardian: keyEntry(genesis.keys.guardian) },
  };
  published.manifest = manifest;
  if (options.manifestPath) await writeFile(options.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  if (!options.manualSlots) chain.start();

  return {
    chain,
    genesis,
    fulfiller,
    manifest,
    rpcUrl,
    wsUrl,
    async stop() {
      chain.stop();
      fulfiller.stop();
      await pubsub.close();
      await new Promise<void>((resolve) => http.server.close(() => resolve()));
    },
  };
}
