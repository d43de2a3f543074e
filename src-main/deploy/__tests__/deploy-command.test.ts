/**
 * `wager-keeper deploy` as an operator meets it, against the real embedded localnet over HTTP JSON-RPC:
 * a second copy of the wager program at a fresh program id with its own config, paytables and pool, as
 * on a fresh cluster. The deployment it prints is the file it writes; a second run sends nothing; a new
 * build upgrades it (ExtendProgram, then Upgrade) and wagers keep opening and settling; a dry run only
 * prices; a deployer short of SOL, a public localnet keypair off a localnet, or mainnet without a USDC
 * mint are refused in one line before anything is sent.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { address, generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getMintDecoder,
  getMintToInstruction,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeUpgradeableLoaderAccount, PROGRAM_DATA_METADATA_SIZE } from '../../chain/upgradeable-loader';
import { parseDeployment, type Deployment } from '../../protocol/deployment';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { getRandomnessV2Decoder } from '../../protocol/oracle';
import { readProgramBytes } from '../../protocol/program-artifacts';
import {
  getConfigDecoder,
  getOpenWagerForApp,
  getPaytableDecoder,
  getPoolDecoder,
  getRequestRandomnessForWager,
  getSettleForWager,
  getWagerDecoder,
  WagerStatus,
} from '../../protocol/wager';
import { DEFAULT_WAGER_CONFIG, STANDARD_PAYTABLES } from '../../protocol/wager/service-instructions';
import {
  accountBytes,
  balanceOf,
  buildWagerVariant,
  fundedDeployer,
  LAMPORTS_PER_SOL,
  plainRpcProxy,
  readJson,
  readSlotHashes,
  REPO_ROOT,
  rpcOf,
  runDeploy,
  sendInstructions,
  signatureCount,
  slotPump,
  spawnDeploy,
  tempDir,
  waitFor,
  type DeployRun,
} from './deploy-test-helpers';

const POOL_LIQUIDITY = 10_000_000_000n; // 10 000 USDC
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let localnet: Localnet;
let rpc: ReturnType<typeof rpcOf>;
let pump: ReturnType<typeof slotPump>;
let dir: Awaited<ReturnType<typeof tempDir>>;
let deployer: { signer: KeyPairSigner; file: string };
let build: Uint8Array;
let variant: Promise<Uint8Array>;
let out: string;
let deployArgs: string[];

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  rpc = rpcOf(localnet);
  pump = slotPump(localnet);
  dir = await tempDir();
  deployer = await fundedDeployer(localnet, dir.dir, 20n * LAMPORTS_PER_SOL);
  build = await readProgramBytes('wager');
  // Compiled while the first tests run: a variant build for the upgrade (clang, a few seconds).
  variant = buildWagerVariant(dir.path('variant.so'));
  variant.catch(() => undefined);
  out = dir.path('deployment.json');
  deployArgs = ['--rpc', localnet.rpcUrl, '--keypair', deployer.file, '--out', out, '--oracle-program', localnet.manifest.programs.oracle];
});
afterAll(async () => {
  pump?.stop();
  await localnet?.stop();
  await dir?.remove();
});

const event = (run: DeployRun, name: string, step?: string) => run.events.filter((e) => e.event === name && (step === undefined || e.step === step));
const plan = (run: DeployRun) => event(run, 'plan')[0] as unknown as { program: Record<string, unknown>; transactions: unknown[]; cost: Record<string, string | number> };

/** A fresh app key with `usdc` of the deployment's test USDC (minted by the deployer, its mint authority). */
async function fundedApp(deployment: Deployment, usdc: bigint) {
  const app = await generateKeyPairSigner();
  localnet.chain.airdrop(app.address, LAMPORTS_PER_SOL);
  const mint = address(deployment.usdcMint);
  const [account] = await findAssociatedTokenPda({ mint, owner: app.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await sendInstructions(rpc, deployer.signer, [
    await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: deployer.signer, mint, owner: app.address }),
    getMintToInstruction({ mint, token: account, mintAuthority: deployer.signer, amount: usdc }),
  ]);
  return { app, usdc: account };
}

let nonce = 0n;
/** Opens a 1 USDC coin-flip wager on the deployment, the app paying, staking and receiving. */
async function openWager(deployment: Deployment, app: { app: KeyPairSigner; usdc: Address }): Promise<Address> {
  const { instruction, wager } = await getOpenWagerForApp({
    payer: app.app,
    stakeOwner: app.app,
    integratorAuthority: app.app,
    paytable: address(deployment.paytables.find((p) => p.name === 'coin-flip')!.address),
    stakeSource: app.usdc,
    beneficiary: app.usdc,
    oracleNetworkState: address(localnet.manifest.oracle.networkState),
    stake: 1_000_000n,
    nonce: ++nonce,
    programAddress: address(deployment.programs.wager),
  });
  await sendInstructions(rpc, app.app, [instruction]);
  return wager;
}

const readWager = async (wager: Address) => {
  const bytes = await accountBytes(rpc, wager);
  return bytes ? getWagerDecoder().decode(bytes) : null;
};

let deployment: Deployment;
let firstWager: Address;
let app: Awaited<ReturnType<typeof fundedApp>>;

describe('wager-keeper deploy to a fresh program id', () => {
  it('deploys the program sized to its build, initializes config, paytables and pool, and prints the deployment it writes', async () => {
    const run = await runDeploy(localnet, [...deployArgs, '--pool-liquidity', '10000'], dir.path('data'));
    expect(run.code).toBe(0);

    // The last stdout line is the deployment: the same document as --out and the copy in the data folder.
    deployment = parseDeployment(await readJson(out), out);
    expect(parseDeployment(run.last, 'stdout')).toEqual(deployment);
    expect(run.last).toEqual(deployment);
    expect(await readJson(join(dir.path('data'), `${localnet.manifest.genesisHash}.json`))).toEqual(deployment);
    expect(deployment.cluster).toEqual({ genesisHash: localnet.manifest.genesisHash, name: 'localnet' });

    // The program: a new id, executable, its data exactly the build (not doubled), the deployer its authority.
    const program = address(deployment.programs.wager);
    expect(program).not.toBe(localnet.manifest.programs.wager);
    const { value: programAccount } = await rpc.getAccountInfo(program, { encoding: 'base64' }).send();
    expect(programAccount?.executable).toBe(true);
    const programData = await accountBytes(rpc, address(deployment.programData));
    expect(programData?.length).toBe(PROGRAM_DATA_METADATA_SIZE + build.length);
    const loaderState = decodeUpgradeableLoaderAccount(programData!);
    expect(loaderState).toMatchObject({ kind: 'programData', upgradeAuthority: deployer.signer.address });
    expect(Buffer.from((loaderState as { bytes: Uint8Array }).bytes).equals(Buffer.from(build))).toBe(true);
    expect(deployment.programSha256).toBe(sha256(build));
    expect(deployment.deployedSlot).toBe(Number((loaderState as { slot: bigint }).slot));
    expect(deployment.upgradeAuthority).toBe(deployer.signer.address);

    // Config: the spec's values, the test USDC mint made for it, the oracle asked for, the deployer as guardian.
    const config = getConfigDecoder().decode((await accountBytes(rpc, address(deployment.config)))!);
    expect(config).toMatchObject({
      ...DEFAULT_WAGER_CONFIG,
      admin: deployer.signer.address,
      guardian: deployer.signer.address,
      usdcMint: deployment.usdcMint,
      oracleProgram: localnet.manifest.programs.oracle,
      paused: 0,
    });
    expect(deployment.guardian).toBe(deployer.signer.address);
    const mint = getMintDecoder().decode((await accountBytes(rpc, address(deployment.usdcMint)))!);
    expect(mint.decimals).toBe(6);
    expect(mint.mintAuthority).toEqual({ __option: 'Some', value: deployer.signer.address });

    // The standard paytables, as defined, and the pool seeded through a deposit epoch.
    expect(deployment.paytables.map((p) => p.name)).toEqual(STANDARD_PAYTABLES.map((p) => p.name));
    for (const definition of STANDARD_PAYTABLES) {
      const paytable = getPaytableDecoder().decode((await accountBytes(rpc, address(deployment.paytables.find((p) => p.name === definition.name)!.address)))!);
      expect(paytable.buckets.slice(0, paytable.bucketCount)).toEqual(definition.buckets);
    }
    const pool = getPoolDecoder().decode((await accountBytes(rpc, address(deployment.pool)))!);
    expect(pool.liquidity).toBe(POOL_LIQUIDITY);
    expect(event(run, 'progress', 'pool-liquidity').map((e) => e.status)).toEqual(['minted', 'requested', 'waiting', 'struck', 'claimed']);

    // Progress: every chunk written once; the plan's price is what the deployer paid, to the lamport.
    const buffer = event(run, 'progress', 'buffer')[0]!;
    expect(buffer).toMatchObject({ reused: false, alreadyWritten: 0 });
    expect(event(run, 'progress', 'write')).toHaveLength(buffer.chunks as number);
    const done = event(run, 'done')[0]!;
    expect(BigInt(done.spentLamports as string)).toBe(BigInt(plan(run).cost.feeLamports as string) + BigInt(plan(run).cost.rentLamports as string));

    // Keys beside --out, 0600; no buffer state left.
    for (const file of ['program-keypair', 'usdc-mint-keypair']) expect((await stat(`${out}.${file}.json`)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir.dir)).filter((name) => name.includes('buffer') || name.includes('deploy-state'))).toEqual([]);

    // A new wager opens on it.
    app = await fundedApp(deployment, 100_000_000n);
    firstWager = await openWager(deployment, app);
    expect(await readWager(firstWager)).toMatchObject({ status: WagerStatus.Open, stake: 1_000_000n, paytable: deployment.paytables[0]!.address });
  });

  it('sends nothing when run again with the same --out, and prints the same deployment', async () => {
    const balance = await balanceOf(rpc, deployer.signer.address);
    const signatures = await signatureCount(rpc, deployer.signer.address);
    const run = await runDeploy(localnet, [...deployArgs, '--pool-liquidity', '10000'], dir.path('data'));
    expect(run.code).toBe(0);
    expect(plan(run).program.action).toBe('unchanged');
    expect(plan(run).transactions).toEqual([]);
    expect(event(run, 'progress', 'initialize')[0]?.status).toBe('skipped');
    expect(event(run, 'progress', 'paytable').map((e) => e.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(event(run, 'progress', 'pool-liquidity')[0]?.status).toBe('skipped');
    expect(await balanceOf(rpc, deployer.signer.address)).toBe(balance);
    expect(await signatureCount(rpc, deployer.signer.address)).toBe(signatures);
    expect(run.last).toEqual(deployment);
  });

  it('upgrades to a larger build: ExtendProgram then Upgrade; old wagers stay readable, new ones open and settle', async () => {
    const larger = await variant;
    expect(larger.length).toBeGreaterThan(build.length);
    const run = await runDeploy(localnet, [...deployArgs, '--program-so', dir.path('variant.so')], dir.path('data'));
    expect(run.code).toBe(0);
    expect(plan(run).program).toMatchObject({ action: 'upgrade', extendBytes: expect.any(Number) });
    const steps = run.events.filter((e) => e.event === 'progress' && ['extend', 'upgrade', 'deploy'].includes(e.step as string)).map((e) => e.step);
    expect(steps).toEqual(['extend', 'upgrade']);

    const upgraded = parseDeployment(run.last, 'stdout');
    expect(upgraded).toEqual({ ...deployment, programSha256: sha256(larger), deployedSlot: expect.any(Number) });
    expect(upgraded.deployedSlot).toBeGreaterThan(deployment.deployedSlot);
    const state = decodeUpgradeableLoaderAccount((await accountBytes(rpc, address(deployment.programData)))!) as { bytes: Uint8Array };
    expect(Buffer.from(state.bytes.subarray(0, larger.length)).equals(Buffer.from(larger))).toBe(true);
    expect(state.bytes.subarray(larger.length).every((byte) => byte === 0)).toBe(true);

    // The wager opened before the upgrade is still there and reads the same.
    expect(await readWager(firstWager)).toMatchObject({ status: WagerStatus.Open, stake: 1_000_000n });

    // The upgraded program opens a wager, takes its randomness request and settles it.
    const program = address(deployment.programs.wager);
    const wager = await openWager(deployment, app);
    const opened = (await readWager(wager))!;
    const slotHashes = await waitFor(async () => {
      const hashes = await readSlotHashes(rpc);
      return hashes.some((entry) => entry.slot > opened.openSlot) ? hashes : undefined;
    }, 'a slot hash after the open');
    const oracle = { programAddress: address(localnet.manifest.programs.oracle), networkState: address(localnet.manifest.oracle.networkState), treasury: address(localnet.manifest.oracle.treasury) };
    const request = await getRequestRandomnessForWager({ caller: app.app, wagerAddress: wager, wager: opened, oracle, slotHashes, programAddress: program });
    await sendInstructions(rpc, app.app, [request.instruction]);
    await waitFor(async () => {
      const bytes = await accountBytes(rpc, request.oracleRequest);
      return bytes && getRandomnessV2Decoder().decode(bytes).request.__kind === 'Fulfilled' ? true : undefined;
    }, 'the oracle to fulfil');
    const requested = (await readWager(wager))!;
    expect(requested.status).toBe(WagerStatus.Requested);
    await sendInstructions(rpc, app.app, [await getSettleForWager({ caller: app.app, wagerAddress: wager, wager: requested, programAddress: program })]);
    expect(await readWager(wager)).toBeNull();
    deployment = upgraded;
  });
});

describe('wager-keeper deploy refuses before sending anything', () => {
  it('--dry-run prints the plan and its cost, sends nothing and writes nothing', async () => {
    const elsewhere = await tempDir('deploy-dry-');
    try {
      const balance = await balanceOf(rpc, deployer.signer.address);
      const signatures = await signatureCount(rpc, deployer.signer.address);
      const run = await runDeploy(localnet, ['--rpc', localnet.rpcUrl, '--keypair', deployer.file, '--out', elsewhere.path('d.json'), '--oracle-program', localnet.manifest.programs.oracle, '--dry-run'], elsewhere.path('data'));
      expect(run.code).toBe(0);
      expect(run.last).toMatchObject({ event: 'plan', dryRun: true, program: { action: 'deploy', chunks: Math.ceil(build.length / 900) } });
      const cost = plan(run).cost;
      expect(Number(cost.transactions)).toBeGreaterThan(80);
      expect(Number(cost.rentSol)).toBeGreaterThan(0.49);
      expect(Number(cost.feeSol)).toBeGreaterThan(0);
      expect(Number(cost.neededSol)).toBeGreaterThan(Number(cost.rentSol));
      expect(await balanceOf(rpc, deployer.signer.address)).toBe(balance);
      expect(await signatureCount(rpc, deployer.signer.address)).toBe(signatures);
      expect(await readdir(elsewhere.dir)).toEqual([]);
    } finally {
      await elsewhere.remove();
    }
  });

  it('a deployer without enough SOL gets one line naming the SOL needed and the SOL it has (exit 1)', async () => {
    const poor = await fundedDeployer(localnet, dir.dir, LAMPORTS_PER_SOL / 10n, 'poor.json');
    const run = await spawnDeploy(localnet, ['--rpc', localnet.rpcUrl, '--keypair', poor.file, '--out', dir.path('poor-deployment.json'), '--oracle-program', localnet.manifest.programs.oracle], dir.path('xdg'));
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const said = new RegExp(`^wager-keeper deploy: the deployer ${poor.signer.address} has 0\\.1 SOL and this deploy needs (\\d+\\.\\d+) SOL \\(rent `).exec(lines[0]!);
    expect(said, lines[0]).not.toBeNull();
    expect(Number(said![1])).toBeGreaterThan(1); // a program of ~70 KB: its data's rent, and as much held by the buffer meanwhile
    expect(await balanceOf(rpc, poor.signer.address)).toBe(LAMPORTS_PER_SOL / 10n);
    expect(await signatureCount(rpc, poor.signer.address)).toBe(1); // its airdrop
  });

  it('refuses the committed localnet program keypair on a cluster that is not a wager-keeper localnet (exit 2)', async () => {
    const proxy = await plainRpcProxy(localnet.rpcUrl);
    try {
      const committed = join(REPO_ROOT, 'resources', 'programs', 'wager-keypair.json');
      const args = ['--keypair', deployer.file, '--out', dir.path('public.json'), '--program-keypair', committed, '--oracle-program', localnet.manifest.programs.oracle, '--dry-run'];
      const run = await spawnDeploy(localnet, ['--rpc', proxy.url, ...args], dir.path('xdg'));
      expect(run.code).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^wager-keeper deploy: refusing to deploy the committed localnet program keypair .* is not one;/)]);
      expect(run.stdout.some((line) => line.includes('"plan"'))).toBe(false);

      // On the wager-keeper localnet itself it is accepted; that deployment was set up with other values,
      // and the error names the first field that differs.
      await expect(runDeploy(localnet, ['--rpc', localnet.rpcUrl, ...args, '--guardian', localnet.manifest.devKeys.guardian.address], dir.path('data'))).rejects.toThrow(
        /^config\.epochLength on chain is 300, this deploy wants 750$/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('names --oracle-program when ORAO VRF is not on the cluster, or the program given is no ORAO VRF oracle', async () => {
    const dry = ['--rpc', localnet.rpcUrl, '--keypair', deployer.file, '--out', dir.path('oracle.json'), '--dry-run'];
    await expect(runDeploy(localnet, dry, dir.path('data'))).rejects.toThrow(
      /^the default oracle, ORAO VRF \(VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y\),? is not a program on this cluster: pass --oracle-program ADDRESS/,
    );
    await expect(runDeploy(localnet, [...dry, '--oracle-program', localnet.manifest.programs.wager], dir.path('data'))).rejects.toThrow(
      new RegExp(`^--oracle-program ${localnet.manifest.programs.wager} has no network state at \\w+ \\(seed "orao-vrf-network-configuration"\\)`),
    );
  });

  it('on mainnet-beta (by genesis hash) requires --usdc-mint (exit 2)', async () => {
    const proxy = await plainRpcProxy(localnet.rpcUrl, { genesisHash: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d' });
    try {
      const run = await spawnDeploy(localnet, ['--rpc', proxy.url, '--keypair', deployer.file, '--out', dir.path('mainnet.json'), '--oracle-program', localnet.manifest.programs.oracle, '--dry-run'], dir.path('xdg'));
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('wager-keeper deploy: on mainnet-beta --usdc-mint ADDRESS is required (a 6-decimal SPL Token mint: USDC)\n');
    } finally {
      await proxy.close();
    }
  });

  it('wrong flags exit 2 with a line naming the flag; --help lists every flag', async () => {
    const missing = await spawnDeploy(localnet, ['--rpc', localnet.rpcUrl, '--keypair', deployer.file], dir.path('xdg'));
    expect(missing).toMatchObject({ code: 2, stderr: 'wager-keeper deploy: missing --out FILE (the deployment document to write)\n' });
    const badMint = await spawnDeploy(localnet, [...deployArgs, '--usdc-mint', 'not-an-address'], dir.path('xdg'));
    expect(badMint).toMatchObject({ code: 2, stderr: "wager-keeper deploy: --usdc-mint must be a base58 address (got 'not-an-address')\n" });
    const help = await spawnDeploy(localnet, ['--help'], dir.path('xdg'));
    expect(help.code).toBe(0);
    const { DEPLOY_OPTIONS } = await import('../../commands/deploy-command');
    for (const flag of Object.keys(DEPLOY_OPTIONS)) expect(help.stdout.join('\n')).toMatch(new RegExp(`--${flag}\\b`));
    expect(await readFile(out, 'utf8')).toContain(deployment.programSha256);
  });
});
