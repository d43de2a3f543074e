/**
 * The embedded localnet in one call: chain + genesis + JSON-RPC (HTTP) + PubSub (WebSocket) + the
 * oracle fulfiller, on loopback. `startLocalnet({ rpcPort: 0 })` picks free ports (tests); `bare: true`
 * serves a cluster like a fresh devnet instead of one with our programs deployed.
 */
import { solanaNetworkId } from '../chain/network-id';
import { writeFile } from 'node:fs/promises';
import type { Deployment } from '../protocol/deployment';
import { createBareGenesis, type BareGenesis } from './bare-genesis';
import { createGenesis, type Genesis } from './genesis';
import { describeLocalnetDeployment } from './localnet-deployment';
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
  /**
   * A cluster like a fresh devnet: the SPL programs and the oracle at ORAO VRF's address, none of ours
   * (no wager program, mint, pool, paytables or dev keys). See bare-genesis.ts.
   */
  bare?: boolean;
}

/** The oracle as a manifest names it: enough to request randomness and to verify it. */
export interface LocalnetOracleManifest {
  networkState: string;
  treasury: string;
  /** The one fulfilment authority: randomness is its ed25519 signature over the seed. */
  fulfilmentAuthority: string;
  /** Lamports the oracle charges per request. */
  requestFee: number;
  /** Slots the fulfiller waits after a request before fulfilling it. */
  delaySlots: number;
}

/** What every localnet publishes: endpoints, identity, slot time and the oracle. */
interface LocalnetManifestBase {
  rpcUrl: string;
  wsUrl: string;
  /** This localnet's genesis hash: new at every start, as a new cluster's. */
  genesisHash: string;
  /** Its CAIP-2 id (`solana:` + the genesis hash's first 32 characters), as x402 and wallets name it. */
  network: string;
  slotMs: number;
  oracle: LocalnetOracleManifest;
}

/** What a client needs to use the full localnet: endpoints, programs, mint, paytables, dev keys and its deployment. */
export interface LocalnetManifest extends LocalnetManifestBase {
  bare: false;
  programs: { wager: string; oracle: string };
  usdcMint: string;
  /** Dev only: the test USDC mint authority (64-byte keypair) the faucet mints with. */
  mintAuthority: number[];
  pool: string;
  shareMint: string;
  paytables: { name: string; address: string; buckets: { weight: number; multiplierBps: number }[] }[];
  /** Dev only: funded keys (64-byte keypairs): an app (integrator) key with test USDC, and a keeper key. */
  devKeys: { app: { address: string; keypair: number[] }; keeper: { address: string; keypair: number[] }; guardian: { address: string; keypair: number[] } };
  /** The deployment genesis made, as `deploy` writes one (src-main/protocol/deployment.ts). */
  deployment: Deployment;
}

/** A bare localnet's manifest (`--bare`): only the oracle, at ORAO VRF's address; nothing of ours is deployed. */
export interface BareLocalnetManifest extends LocalnetManifestBase {
  bare: true;
  programs: { oracle: string };
  deployment: null;
}

/** What `localnet_manifest` answers: a full or a bare localnet's manifest (tell them apart by `bare`). */
export type AnyLocalnetManifest = LocalnetManifest | BareLocalnetManifest;

interface RunningLocalnet<G, M> {
  chain: LocalChain;
  genesis: G;
  fulfiller: OracleFulfiller;
  manifest: M;
  rpcUrl: string;
  wsUrl: string;
  stop(): Promise<void>;
}

/** A running full localnet. */
export type Localnet = RunningLocalnet<Genesis, LocalnetManifest>;
/** A running bare localnet. */
export type BareLocalnet = RunningLocalnet<BareGenesis, BareLocalnetManifest>;

const keyEntry = (key: Genesis['keys']['app']) => ({ address: key.signer.address, keypair: Array.from(key.secretKey) });

/** What the genesis of either kind gives the manifest, apart from the endpoints and the oracle's delay. */
async function createContents(chain: LocalChain, bare: boolean) {
  if (bare) {
    const genesis = await createBareGenesis(chain);
    return { genesis, oracle: genesis.oracle, fulfiller: genesis.keys.fulfiller, published: { bare: true as const, programs: genesis.programs, deployment: null } };
  }
  const genesis = await createGenesis(chain);
  const published = {
    bare: false as const,
    programs: genesis.programs,
    usdcMint: genesis.usdcMint,
    mintAuthority: Array.from(genesis.keys.mintAuthority.secretKey),
    pool: genesis.pool,
    shareMint: genesis.shareMint,
    paytables: genesis.paytables.map(({ name, address, buckets }) => ({ name, address, buckets })),
    devKeys: { app: keyEntry(genesis.keys.app), keeper: keyEntry(genesis.keys.keeper), guardian: keyEntry(genesis.keys.guardian) },
    deployment: await describeLocalnetDeployment(chain, genesis),
  };
  return { genesis, oracle: genesis.oracle, fulfiller: genesis.keys.fulfiller, published };
}

/**
 * Starts a localnet: the full one by default, a bare one (like a fresh devnet) with `bare: true`.
 * @example const localnet = await startLocalnet({ rpcPort: 0, bare: true }); // localnet.manifest.programs.oracle is ORAO's id
 */
export async function startLocalnet(options: LocalnetOptions & { bare: true }): Promise<BareLocalnet>;
export async function startLocalnet(options?: LocalnetOptions & { bare?: false }): Promise<Localnet>;
export async function startLocalnet(options?: LocalnetOptions): Promise<Localnet | BareLocalnet>;
export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet | BareLocalnet> {
  const host = options.host ?? '127.0.0.1';
  const chain = new LocalChain({ slotMs: options.slotMs, manualSlots: true });
  const contents = await createContents(chain, options.bare ?? false);
  const fulfiller = startOracleFulfiller(chain, {
    oracleProgram: contents.published.programs.oracle,
    authority: contents.fulfiller.signer,
    delaySlots: options.oracleDelaySlots ?? 1,
    stalled: options.oracleStalled,
  });

  const methods = createRpcMethods(chain);
  const published: { manifest?: AnyLocalnetManifest } = {}; // set once the servers listen (it holds their URLs)
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
  const { networkState, treasury, fulfilmentAuthority, requestFee } = contents.oracle;
  const manifest: AnyLocalnetManifest = {
    rpcUrl,
    wsUrl,
    genesisHash: chain.genesisHash,
    network: solanaNetworkId(chain.genesisHash),
    slotMs: chain.slotMs,
    oracle: { networkState, treasury, fulfilmentAuthority, requestFee: Number(requestFee), delaySlots: options.oracleDelaySlots ?? 1 },
    ...contents.published,
  };
  published.manifest = manifest;
  if (options.manifestPath) await writeFile(options.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  if (!options.manualSlots) chain.start();

  // The cast pairs the genesis with its manifest: createContents made both of the same kind.
  return {
    chain,
    genesis: contents.genesis,
    fulfiller,
    manifest,
    rpcUrl,
    wsUrl,
    async stop() {
      chain.stop();
      fulfiller.stop();
      await pubsub.close();
      // Keep-alive connections stay open for a minute (listenRpc), and close() only drops the ones idle at
      // that moment: a client that finishes a request afterwards would hold the stop for up to that minute.
      // A stopping localnet drops them all, as a stopping validator does.
      const closed = new Promise<void>((resolve) => http.server.close(() => resolve()));
      if ('closeAllConnections' in http.server) http.server.closeAllConnections();
      await closed;
    },
  } as Localnet | BareLocalnet;
}
