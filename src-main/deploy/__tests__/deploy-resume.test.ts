/**
 * `wager-keeper deploy` killed outright (SIGKILL) while it writes the program, then run again with the same
 * --out, as an operator whose machine died would: it continues from its buffer, writes only the chunks
 * the chain does not hold, and every lamport the deployer spent is in the deployment's accounts or paid
 * as fees (no buffer rent left behind). A buffer left by an interrupted upgrade to another build is
 * closed back to the deployer when the program already holds the build being deployed.
 */
import { stat } from 'node:fs/promises';
import { address, type Address, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsProgram } from '../../chain/program-deployer';
import { decodeUpgradeableLoaderAccount } from '../../chain/upgradeable-loader';
import { parseDeployment, type Deployment } from '../../protocol/deployment';
import { startLocalnet, type Localnet } from '../../localnet/localnet';
import { readProgramBytes } from '../../protocol/program-artifacts';
import { findServiceAddresses } from '../../protocol/wager/service-instructions';
import {
  accountBytes,
  balanceOf,
  buffersOf,
  buildWagerVariant,
  feesPaidBy,
  fundedDeployer,
  LAMPORTS_PER_SOL,
  readJson,
  rpcOf,
  runDeploy,
  slotPump,
  spawnDeploy,
  tempDir,
  type DeployRun,
} from './deploy-test-helpers';

let localnet: Localnet;
let rpc: ReturnType<typeof rpcOf>;
let pump: ReturnType<typeof slotPump>;
let dir: Awaited<ReturnType<typeof tempDir>>;
let deployer: { signer: KeyPairSigner; file: string };
let out: string;
let args: string[];
let variant: Promise<Uint8Array>;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  rpc = rpcOf(localnet);
  pump = slotPump(localnet);
  dir = await tempDir('deploy-resume-');
  deployer = await fundedDeployer(localnet, dir.dir, 10n * LAMPORTS_PER_SOL);
  out = dir.path('deployment.json');
  args = ['--rpc', localnet.rpcUrl, '--keypair', deployer.file, '--out', out, '--oracle-program', localnet.manifest.programs.oracle];
  variant = buildWagerVariant(dir.path('variant.so'));
  variant.catch(() => undefined);
});
afterAll(async () => {
  pump?.stop();
  await localnet?.stop();
  await dir?.remove();
});

const progress = (run: DeployRun, step: string) => run.events.filter((e) => e.event === 'progress' && e.step === step);
const lamportsOf = async (account: Address) => (await rpc.getBalance(account, { commitment: 'confirmed' }).send()).value;

/**
 * Kills `deploy ARGS` (a child process) once it printed `after` chunk-write progress lines; resolves with
 * how many it printed in all (lines already in the pipe when the kill landed count: they were written).
 */
async function killDuringWrites(extra: string[], after: number) {
  let writes = 0;
  const run = await spawnDeploy(localnet, [...args, ...extra], dir.path('xdg'), (line, kill) => {
    if (line.includes('"step":"write"') && ++writes === after) kill();
  });
  expect(run.signal).toBe('SIGKILL');
  expect(run.stdout.some((line) => line.includes('"step":"deploy"') || line.includes('"step":"upgrade"'))).toBe(false);
  return writes;
}

let deployment: Deployment;

describe('wager-keeper deploy killed with SIGKILL while writing', () => {
  it('resumes from its buffer, writes only the missing chunks and leaves no buffer rent behind', async () => {
    const build = await readProgramBytes('wager');
    const balanceBefore = await balanceOf(rpc, deployer.signer.address);
    const printed = await killDuringWrites([], 20);
    expect(printed).toBeGreaterThanOrEqual(20);

    // What the killed run leaves: a state file naming its buffer, whose keypair is 0600 beside --out,
    // and that buffer on chain, holding the deployer's authority.
    const state = (await readJson(`${out}.deploy-state.json`)) as { buffer: string; bufferKeypair: string };
    expect((await stat(`${out}.buffer-keypair.json`)).mode & 0o777).toBe(0o600);
    expect((await buffersOf(rpc, deployer.signer.address)).map((b) => b.pubkey)).toEqual([state.buffer]);

    const resumed = await runDeploy(localnet, args, dir.path('data'));
    expect(resumed.code).toBe(0);
    const [buffer] = progress(resumed, 'buffer');
    expect(buffer).toMatchObject({ buffer: state.buffer, reused: true, chunks: Math.ceil(build.length / 900) });
    const alreadyWritten = buffer!.alreadyWritten as number;
    expect(alreadyWritten).toBeGreaterThanOrEqual(printed); // what the killed run saw land, and maybe a few in flight
    expect(alreadyWritten + (buffer!.toWrite as number)).toBe(buffer!.chunks);
    expect(progress(resumed, 'write')).toHaveLength(buffer!.toWrite as number);
    expect(resumed.events.find((e) => e.event === 'plan')?.transactions).not.toContainEqual(expect.objectContaining({ label: 'create buffer' }));

    deployment = parseDeployment(resumed.last, 'stdout');
    const programData = decodeUpgradeableLoaderAccount((await accountBytes(rpc, address(deployment.programData)))!) as { bytes: Uint8Array };
    expect(holdsProgram(programData.bytes, build)).toBe(true);

    // No buffer left on chain nor on disk; the deployer's SOL went into the deployment's accounts and fees.
    expect(await buffersOf(rpc, deployer.signer.address)).toEqual([]);
    await expect(stat(`${out}.deploy-state.json`)).rejects.toThrow(/ENOENT/);
    await expect(stat(`${out}.buffer-keypair.json`)).rejects.toThrow(/ENOENT/);
    const service = await findServiceAddresses(address(deployment.programs.wager));
    const accounts = [
      deployment.programs.wager,
      deployment.programData,
      deployment.usdcMint,
      service.config,
      service.pool,
      service.vault,
      service.escrow,
      service.shareMint,
      service.shareEscrow,
      ...deployment.paytables.map((p) => p.address),
    ].map((a) => address(a));
    let kept = 0n;
    for (const account of accounts) kept += await lamportsOf(account);
    const fees = await feesPaidBy(rpc, deployer.signer.address);
    expect(balanceBefore - (await balanceOf(rpc, deployer.signer.address))).toBe(kept + fees.lamports);
  });

  it('closes the buffer of an interrupted upgrade to another build back to the deployer when the program already holds this one', async () => {
    await variant;
    const balanceBefore = await balanceOf(rpc, deployer.signer.address);
    const feesBefore = await feesPaidBy(rpc, deployer.signer.address);
    await killDuringWrites(['--program-so', dir.path('variant.so')], 10);
    const [left] = await buffersOf(rpc, deployer.signer.address);
    expect(left).toBeDefined();
    const leftLamports = await lamportsOf(left!.pubkey);

    // The same deploy of the committed build: the program holds it, so the leftover buffer is closed.
    const again = await runDeploy(localnet, args, dir.path('data'));
    expect(again.code).toBe(0);
    expect(again.events.find((e) => e.event === 'plan')?.program).toMatchObject({ action: 'unchanged', closeBuffers: 1 });
    expect(progress(again, 'close-buffer')).toEqual([expect.objectContaining({ buffer: left!.pubkey, lamports: String(leftLamports) })]);
    expect(progress(again, 'write')).toEqual([]);
    expect(await buffersOf(rpc, deployer.signer.address)).toEqual([]);
    expect(again.last).toEqual(deployment);
    // Only fees were spent: the interrupted upgrade's transactions and the close.
    const fees = await feesPaidBy(rpc, deployer.signer.address);
    expect(balanceBefore - (await balanceOf(rpc, deployer.signer.address))).toBe(fees.lamports - feesBefore.lamports);
  });
});
