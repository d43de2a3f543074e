/**
 * Deploys (or upgrades) the whole service on a cluster over JSON-RPC only, as `wager-keeper deploy`
 * does: identify the cluster by its genesis hash, choose the program address (refusing the committed
 * localnet keypair off a wager-keeper localnet), check the oracle and the USDC mint, plan the program
 * and the service set-up from what the chain holds, price the plan, check the deployer can pay, then
 * send it and write the deployment document.
 *
 * Every decision is read from the chain, so the same call is resumable (an interrupted run continues)
 * and idempotent (a finished deployment sends nothing).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Address, KeyPairSigner } from '@solana/kit';
import { LAMPORTS_PER_SIGNATURE } from '../chain/fees';
import { executeProgramDeploy, planProgramDeploy, type ProgramDeployPlan, type ProgramDeployProgress } from '../chain/program-deployer';
import { createChainRpc } from '../chain/rpc-connection';
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender } from '../chain/transaction-sender';
import { findProgramDataAddress } from '../chain/upgradeable-loader';
import { DEPLOYMENT_VERSION, formatDeployment, parseDeployment, parseDeploymentText, type Deployment } from '../protocol/deployment';
import { clusterNameFromGenesis, saveDeploymentToFolder } from '../deployment/deployment-finder';
import { fetchLocalnetManifest } from '../localnet/localnet-admin-client';
import { describeRpcFailure, MAINNET_BETA_GENESIS_HASH } from '../../src-shared/cluster-identity';
import { readProgramKeypair } from '../protocol/program-artifacts';
import { formatSolDecimal } from '../../src-shared/units';
import { formatUsdcAmount } from '../protocol/usdc-amount';
import {
  DEFAULT_WAGER_CONFIG,
  STANDARD_PAYTABLES,
  USDC_DECIMALS,
  findServiceAddresses,
  type PaytableDefinition,
  type WagerConfigValues,
} from '../protocol/wager/service-instructions';
import { generateKeypairWithBytes, readKeypairFile } from '../secrets/keypair-bytes';
import { deployFilePaths, fileBufferKeyStore, readKeypairFileIfPresent, writeFileAtomically, writeKeypairFile } from './deploy-files';
import { checkOracle } from './oracle-check';
import { executeServiceSetup, planServiceSetup, readConfig, readMint, type ServiceSetupPlan, type ServiceSetupProgress } from './service-setup';

/** A flag this cluster cannot take (the command exits 2 with it): names the flag. */
export class DeployFlagError extends Error {
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(message);
    this.name = 'DeployFlagError';
  }
}

/** The deployer cannot pay for the plan: says what it needs and what it has. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly neededLamports: bigint,
    readonly balanceLamports: bigint,
    message: string,
  ) {
    super(message);
    this.name = 'InsufficientFundsError';
  }
}

/** "1.5" for 1.5 SOL; a negative difference (nothing spent) reads "0". */
const solFigure = (lamports: bigint) => formatSolDecimal(lamports < 0n ? 0n : lamports);

export interface DeployServiceOptions {
  rpcUrl: string;
  /** Pays everything; the program's upgrade authority and the config's admin. */
  deployer: KeyPairSigner;
  /** The deployment document's file; the keypairs and state of the deploy live beside it. */
  out: string;
  /** --program-keypair: the program address's keypair (default: saved beside --out, else a fresh one). */
  programKeypairFile?: string;
  programBytes: Uint8Array;
  usdcMint?: Address;
  oracleProgram?: Address;
  /** USDC base units of first pool liquidity. */
  poolLiquidity?: bigint;
  /** Default: the deployer. */
  guardian?: Address;
  dryRun?: boolean;
  config?: WagerConfigValues;
  paytables?: PaytableDefinition[];
  /** Write transactions in flight at once. */
  concurrency?: number;
  /** Where the deployment is copied (default: the user's data folder). */
  deploymentsFolder?: string;
  onEvent?: (event: DeployEvent) => void;
}

/** What the plan costs, in lamports. */
export interface DeployCost {
  transactions: number;
  signatures: number;
  feeLamports: bigint;
  /** Rent that stays with the deployment's accounts. */
  rentLamports: bigint;
  /** Held while the deploy runs and returned by its end (the program buffer, the LP request). */
  heldLamports: bigint;
  /** Returned by closing leftover buffers. */
  refundLamports: bigint;
  /** What the deployer must hold before it starts. */
  neededLamports: bigint;
  balanceLamports: bigint;
}

export type DeployEvent =
  | { event: 'cluster'; cluster: string; genesisHash: string; rpc: string; deployer: Address; program: Address; programSha256: string; programBytes: number }
  | {
      event: 'plan';
      dryRun: boolean;
      program: {
        action: ProgramDeployPlan['action'];
        address: Address;
        /** given (--program-keypair), saved (beside --out), new (made by this run; a dry run keeps it nowhere), none (only the address is known). */
        keypair: 'given' | 'saved' | 'new' | 'none';
        chunks: number;
        chunksToWrite: number;
        reusedBuffer: Address | null;
        extendBytes: number;
        closeBuffers: number;
      };
      oracle: { program: Address; networkState: Address; requestFee: bigint; treasury: Address };
      usdcMint: { address: Address; create: boolean };
      service: { initialize: string; paytables: { name: string; status: string }[]; poolLiquidity: string | null; liquidityStep: string };
      transactions: { label: string; count: number }[];
      cost: DeployCost & { feeSol: string; rentSol: string; heldSol: string; neededSol: string; balanceSol: string; costSol: string };
    }
  | ({ event: 'progress' } & (ProgramDeployProgress | ServiceSetupProgress))
  | { event: 'done'; transactions: number; spentLamports: bigint; spentSol: string; seconds: number; deploymentFile: string; copiedTo: string };

export interface DeployServiceResult {
  /** null for a dry run. */
  deployment: Deployment | null;
  cost: DeployCost;
}

async function readPreviousDeployment(path: string): Promise<Deployment | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DeployFlagError('out', `--out ${path}: cannot read it (${(error as Error).message})`);
  }
  return parseDeploymentText(text, path);
}

/** Counts equal labels: [{label:'write', count: 79}, ...] in plan order. */
function countLabels(transactions: { label: string }[]) {
  const counts = new Map<string, number>();
  for (const { label } of transactions) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts].map(([label, count]) => ({ label, count }));
}

/** Runs the deploy (or, with `dryRun`, plans and prices it); see the module comment. */
export async function deployService(options: DeployServiceOptions): Promise<DeployServiceResult> {
  const started = performance.now();
  const { deployer, rpcUrl, programBytes } = options;
  const emit = options.onEvent ?? (() => undefined);
  const dryRun = options.dryRun ?? false;
  // Retries 429s (after Retry-After), 5xx and cut connections: a public RPC rate-limits a burst of writes.
  const rpc = createChainRpc(rpcUrl);
  const paths = deployFilePaths(options.out);
  const programSha256 = createHash('sha256').update(programBytes).digest('hex');

  let genesisHash: string;
  try {
    genesisHash = await rpc.getGenesisHash().send({ abortSignal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new Error(describeRpcFailure(rpcUrl, error), { cause: error });
  }
  // Only a wager-keeper localnet answers its manifest; any other RPC refuses the method (or is slow to).
  const wagerKeeperLocalnet = await Promise.race([
    fetchLocalnetManifest(rpcUrl).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
  ]);
  const clusterName = clusterNameFromGenesis(genesisHash, wagerKeeperLocalnet);
  const mainnet = genesisHash === MAINNET_BETA_GENESIS_HASH;

  const previous = await readPreviousDeployment(paths.out);
  if (!dryRun) await mkdir(dirname(paths.out), { recursive: true });
  if (previous && previous.cluster.genesisHash !== genesisHash) {
    throw new DeployFlagError('out', `--out ${paths.out} is a deployment on cluster ${previous.cluster.name} (genesis ${previous.cluster.genesisHash}), and ${rpcUrl} serves genesis ${genesisHash}: use another --out`);
  }

  // The program address: --program-keypair, else the one saved beside --out, else the one --out names, else a new one.
  let programKeypair: KeyPairSigner | null;
  let keypairSource: 'given' | 'saved' | 'new' | 'none';
  if (options.programKeypairFile) {
    keypairSource = 'given';
    try {
      programKeypair = await readKeypairFile(options.programKeypairFile);
    } catch (error) {
      throw new DeployFlagError('program-keypair', `--program-keypair: ${(error as Error).message}`);
    }
  } else {
    programKeypair = await readKeypairFileIfPresent(paths.programKeypair);
    keypairSource = programKeypair ? 'saved' : 'none';
  }
  let program: Address | undefined = programKeypair?.address ?? (previous?.programs.wager as Address | undefined);
  if (previous && program && previous.programs.wager !== program) {
    throw new DeployFlagError('out', `--out ${paths.out} is the deployment of program ${previous.programs.wager}, and this deploy's program is ${program}: use another --out`);
  }
  if (program && program === (await readProgramKeypair('wager')).address && !wagerKeeperLocalnet) {
    throw new DeployFlagError(
      'program-keypair',
      `refusing to deploy the committed localnet program keypair (resources/programs/wager-keypair.json, program ${program}): its secret is public, so it is for wager-keeper localnets only, and ${rpcUrl} is not one; use a fresh keypair (omit --program-keypair)`,
    );
  }
  if (!program) {
    const fresh = await generateKeypairWithBytes();
    if (!dryRun) await writeKeypairFile(paths.programKeypair, fresh.secretKey);
    programKeypair = fresh.signer;
    program = fresh.signer.address;
    keypairSource = 'new';
  }
  emit({ event: 'cluster', cluster: clusterName, genesisHash, rpc: rpcUrl, deployer: deployer.address, program, programSha256, programBytes: programBytes.length });

  const oracle = await checkOracle(rpc, options.oracleProgram);
  const addresses = await findServiceAddresses(program);
  const programData = await findProgramDataAddress(program);
  const configOnChain = await readConfig(rpc, addresses);

  // The USDC mint: --usdc-mint, else the config's, else this deploy's own test mint (saved beside --out).
  let usdcMint: Address;
  let mintKeypair: KeyPairSigner | null = null;
  let createMint = false;
  if (options.usdcMint) {
    const mint = await readMint(rpc, options.usdcMint).catch((error: Error) => {
      throw new DeployFlagError('usdc-mint', `--usdc-mint ${options.usdcMint}: ${error.message}`);
    });
    if (!mint) throw new DeployFlagError('usdc-mint', `--usdc-mint ${options.usdcMint}: no such account on this cluster`);
    if (mint.decimals !== USDC_DECIMALS) throw new DeployFlagError('usdc-mint', `--usdc-mint ${options.usdcMint} has ${mint.decimals} decimals; USDC has ${USDC_DECIMALS}`);
    usdcMint = options.usdcMint;
  } else if (mainnet) {
    throw new DeployFlagError('usdc-mint', 'on mainnet-beta --usdc-mint ADDRESS is required (a 6-decimal SPL Token mint: USDC)');
  } else if (configOnChain) {
    usdcMint = configOnChain.usdcMint;
  } else {
    mintKeypair = await readKeypairFileIfPresent(paths.usdcMintKeypair);
    if (!mintKeypair) {
      const fresh = await generateKeypairWithBytes();
      if (!dryRun) await writeKeypairFile(paths.usdcMintKeypair, fresh.secretKey);
      mintKeypair = fresh.signer;
    }
    usdcMint = mintKeypair.address;
    const mint = await readMint(rpc, usdcMint);
    if (mint && mint.decimals !== USDC_DECIMALS) throw new Error(`the test USDC mint ${usdcMint} (${paths.usdcMintKeypair}) has ${mint.decimals} decimals, not ${USDC_DECIMALS}`);
    createMint = !mint;
  }

  const bufferKeys = fileBufferKeyStore(paths);
  const remembered = await bufferKeys.load();
  const programPlan = await planProgramDeploy({ rpc, deployer: deployer.address, program, hasProgramKeypair: programKeypair !== null, bytes: programBytes, rememberedBuffer: remembered?.address ?? null });
  const guardian = options.guardian ?? deployer.address;
  const serviceInput = {
    rpc,
    deployer: deployer.address,
    upgradeAuthority: programPlan.upgradeAuthority,
    addresses,
    programData,
    usdcMint,
    createMint,
    oracleProgram: oracle.program,
    guardian,
    config: options.config ?? DEFAULT_WAGER_CONFIG,
    paytables: options.paytables ?? STANDARD_PAYTABLES,
    poolLiquidity: options.poolLiquidity ?? null,
  };
  const servicePlan: ServiceSetupPlan = await planServiceSetup(serviceInput);

  const transactions = [...programPlan.transactions, ...servicePlan.transactions];
  const signatures = transactions.reduce((sum, tx) => sum + tx.signatures, 0);
  const feeLamports = BigInt(signatures) * LAMPORTS_PER_SIGNATURE;
  const rentLamports = programPlan.rentLamports + servicePlan.rentLamports;
  const heldLamports = programPlan.heldLamports + servicePlan.heldLamports;
  const refundLamports = programPlan.refundLamports;
  const neededLamports = feeLamports + rentLamports + heldLamports - refundLamports;
  const balanceLamports = (await rpc.getBalance(deployer.address, { commitment: 'confirmed' }).send()).value;
  const cost: DeployCost = { transactions: transactions.length, signatures, feeLamports, rentLamports, heldLamports, refundLamports, neededLamports, balanceLamports };
  emit({
    event: 'plan',
    dryRun,
    program: {
      action: programPlan.action,
      address: program,
      keypair: keypairSource,
      chunks: programPlan.buffer?.chunks ?? 0,
      chunksToWrite: programPlan.buffer?.chunksToWrite ?? 0,
      reusedBuffer: programPlan.buffer?.reused ?? null,
      extendBytes: programPlan.extendBytes,
      closeBuffers: programPlan.closeBuffers.length,
    },
    oracle: { program: oracle.program, networkState: oracle.networkState, requestFee: oracle.requestFee, treasury: oracle.treasury },
    usdcMint: { address: usdcMint, create: createMint },
    service: {
      initialize: servicePlan.initialize,
      paytables: servicePlan.paytables.map(({ name, status }) => ({ name, status })),
      poolLiquidity: options.poolLiquidity === undefined ? null : formatUsdcAmount(options.poolLiquidity),
      liquidityStep: servicePlan.liquidity,
    },
    transactions: countLabels(transactions),
    cost: {
      ...cost,
      feeSol: solFigure(feeLamports),
      rentSol: solFigure(rentLamports),
      heldSol: solFigure(heldLamports),
      neededSol: solFigure(neededLamports),
      balanceSol: solFigure(balanceLamports),
      costSol: solFigure(feeLamports + rentLamports),
    },
  });
  if (dryRun) return { deployment: null, cost };
  if (balanceLamports < neededLamports) {
    throw new InsufficientFundsError(
      neededLamports,
      balanceLamports,
      `the deployer ${deployer.address} has ${solFigure(balanceLamports)} SOL and this deploy needs ${solFigure(neededLamports)} SOL (rent ${solFigure(rentLamports)}, fees ${solFigure(feeLamports)} for ${transactions.length} transactions, ${solFigure(heldLamports)} held while it runs and returned): fund it and run again`,
    );
  }

  const confirmer = createSignatureConfirmer(rpc, 250);
  const sender = createTransactionSender({ rpc, confirmer, payer: deployer });
  const progress = (step: ProgramDeployProgress | ServiceSetupProgress) => emit({ event: 'progress', ...step });
  let sent = 0;
  let programResult;
  try {
    programResult = await executeProgramDeploy(programPlan, {
      rpc,
      sender,
      deployer,
      programKeypair,
      bytes: programBytes,
      bufferKeys,
      concurrency: options.concurrency,
      onProgress: progress,
    });
    sent += programResult.transactions;
    sent += await executeServiceSetup(serviceInput, servicePlan, { rpc, sender, deployer, mintKeypair, onProgress: progress });
  } finally {
    confirmer.stop();
  }

  const deployment = parseDeployment(
    {
      version: DEPLOYMENT_VERSION,
      cluster: { genesisHash, name: clusterName },
      programs: { wager: program, oracle: oracle.program },
      programData,
      upgradeAuthority: programResult.upgradeAuthority ?? configOnChain?.admin ?? deployer.address,
      config: addresses.config,
      pool: addresses.pool,
      usdcMint,
      paytables: servicePlan.paytables.map(({ name, address }) => ({ name, address })),
      guardian,
      deployedSlot: Number(programResult.slot),
      programSha256,
      // Set by whoever runs the deployment's public keeper: kept across re-runs.
      ...(previous?.keeperApi ? { keeperApi: previous.keeperApi } : {}),
    } satisfies Deployment,
    'this deploy',
  );
  await writeFileAtomically(paths.out, formatDeployment(deployment), 0o644);
  const copiedTo = await saveDeploymentToFolder(deployment, options.deploymentsFolder);
  const balanceAfter = (await rpc.getBalance(deployer.address, { commitment: 'confirmed' }).send()).value;
  emit({
    event: 'done',
    transactions: sent,
    spentLamports: balanceLamports - balanceAfter,
    spentSol: solFigure(balanceLamports - balanceAfter),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    deploymentFile: paths.out,
    copiedTo,
  });
  return { deployment, cost };
}
