/**
 * A devnet deployment rehearsed end to end on a cluster that looks like a fresh public one: a bare
 * localnet (no programs of ours, the oracle at ORAO VRF's address fulfilling as on devnet, airdrops
 * only). Every step is the command a user types, as a child process over JSON-RPC only:
 *
 *   deploy --pool-liquidity -> deploy again (nothing sent) -> keeper --deployment with the faucet ->
 *   a faucet claim -> open -> settled by the keeper, its randomness verified against the oracle at ORAO's
 *   address -> an upgrade with changed bytes -> the earlier wager still inspects, a new wager settles.
 */
import { address, createSolanaRpc, type Address, type Signature } from '@solana/kit';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeployment, type Deployment } from '../../protocol/deployment';
import { startLocalnet, type BareLocalnet } from '../../localnet/localnet';
import { fulfilledRandomness } from '../../protocol/oracle';
import { ORAO_VRF_PROGRAM_ADDRESS } from '../../protocol/oracle/orao-vrf';
import { decodeWagerEventsFromLogs } from '../../protocol/wager';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import { waitFor } from '../../keeper/__tests__/keeper-test-helpers';
import { BIN, balanceOf, buildWagerVariant, buffersOf, fundedDeployer, signatureCount, spawnDeploy, tempDir, type ChildRun } from './deploy-test-helpers';

const run = promisify(execFile);
const SOL = 1_000_000_000n;

let localnet: BareLocalnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
let pump: NodeJS.Timeout;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  localnet = (await startLocalnet({ rpcPort: 0, manualSlots: true, bare: true })) as BareLocalnet;
  pump = setInterval(() => localnet.chain.advanceSlots(1), 100); // 100 ms slots
  dir = await tempDir('devnet-rehearsal-');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  clearInterval(pump);
  await localnet?.stop();
  await dir?.remove();
});

const env = () => ({ ...process.env, XDG_DATA_HOME: dir.path('data') });
const deployment = async (file: string): Promise<Deployment> => parseDeployment(JSON.parse(await readFile(file, 'utf8')), file);
const lastJson = (result: ChildRun) => JSON.parse(result.stdout.at(-1)!) as unknown;

/** `wager-keeper ARGS` to its end; stdout parsed as one JSON line (the commands' answer). */
async function command<T>(args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [BIN, ...args], { env: env(), timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/** A funded user keypair file (SOL for fees and rent; USDC comes from the faucet). */
async function fundedUser(name: string) {
  const key = await generateKeypairWithBytes();
  const file = dir.path(name);
  await writeFile(file, JSON.stringify(Array.from(key.secretKey)), { mode: 0o600 });
  localnet.chain.airdrop(key.signer.address, 2n * SOL);
  return { address: key.signer.address, file };
}

/** The keeper's /v1 record of a wager until it is settled. */
async function settledRecord(api: string, wager: string) {
  return waitFor(
    async () => {
      const record = (await (await fetch(`${api}/v1/wagers/${wager}`)).json()) as { state: string; requestSignature?: string; settleSignature?: string };
      if (record.state === 'expired') throw new Error(`wager ${wager} expired`);
      return record.state === 'settled' ? record : undefined;
    },
    60_000,
    `wager ${wager} to be settled by the keeper`,
    200,
  );
}

describe('a devnet deployment rehearsed on a bare cluster', () => {
  it('deploys, cranks, serves the faucet, settles a verified draw, upgrades, and keeps settling', async () => {
    const rpc = createSolanaRpc(localnet.rpcUrl);
    // Nothing of ours is there yet: a cluster like a fresh devnet.
    expect(localnet.manifest.bare).toBe(true);
    expect((await rpc.getAccountInfo(address(ORAO_VRF_PROGRAM_ADDRESS), { encoding: 'base64' }).send()).value?.executable).toBe(true);

    // 1. Deploy with a pool seed (the default oracle: ORAO's address).
    const deployer = await fundedDeployer(localnet as never, dir.dir, 10n * SOL);
    const out = dir.path('devnet.json');
    const args = ['--rpc', localnet.rpcUrl, '--keypair', deployer.file, '--out', out];
    const first = await spawnDeploy(localnet as never, [...args, '--pool-liquidity', '10000'], dir.path('data'));
    expect(first.code, first.stderr).toBe(0);
    const deployed = await deployment(out);
    expect(lastJson(first)).toEqual(deployed);
    expect(deployed.cluster).toEqual({ genesisHash: localnet.manifest.genesisHash, name: 'localnet' }); // a wager-keeper localnet, bare or not
    expect(deployed.programs.oracle).toBe(ORAO_VRF_PROGRAM_ADDRESS);
    expect(deployed.paytables.map((p) => p.name)).toEqual(['coin-flip', 'dice', 'wheel']);
    expect(await buffersOf(rpc, deployer.signer.address)).toHaveLength(0);

    // 2. Again: nothing is sent, the balance does not move.
    const balance = await balanceOf(rpc, deployer.signer.address);
    const sent = await signatureCount(rpc, deployer.signer.address);
    const again = await spawnDeploy(localnet as never, args, dir.path('data'));
    expect(again.code, again.stderr).toBe(0);
    expect(await balanceOf(rpc, deployer.signer.address)).toBe(balance);
    expect(await signatureCount(rpc, deployer.signer.address)).toBe(sent);

    // 3. A cranker's keeper from the deployment file, with the faucet (the deployer holds the test mint).
    const keeperKey = await fundedUser('keeper.json');
    const keeper = spawn(
      process.execPath,
      [BIN, 'keeper', '--rpc', localnet.rpcUrl, '--ws', localnet.wsUrl, '--deployment', out, '--keypair', keeperKey.file, '--db', dir.path('keeper.db'), '--port', '0', '--faucet-mint', deployed.usdcMint, '--faucet-authority', deployer.file],
      { env: env(), stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(keeper);
    let keeperErr = '';
    keeper.stderr.on('data', (chunk: Buffer) => (keeperErr = (keeperErr + chunk.toString()).slice(-5_000)));
    const ready = await new Promise<{ api: string; deployment: { cluster: string; wagerProgram: string } }>((resolve, reject) => {
      createInterface({ input: keeper.stdout }).once('line', (line) => resolve(JSON.parse(line) as never));
      keeper.once('exit', (code) => reject(new Error(`keeper exited ${code}: ${keeperErr}`)));
    });
    expect(ready.deployment).toEqual({ cluster: 'localnet', wagerProgram: deployed.programs.wager });

    // 4. A tester claims test USDC from that keeper's faucet.
    const user = await fundedUser('user.json');
    const claim = await fetch(`${ready.api}/v1/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ owner: user.address }) });
    expect(claim.status, await claim.clone().text()).toBe(200);

    // 5. Opens a wager with the command, on this deployment; the keeper settles it.
    const opened = await command<{ wager: string }>(['open', '--rpc', localnet.rpcUrl, '--deployment', out, '--keypair', user.file, '--paytable', 'coin-flip', '--amount', '1.00']);
    const record = await settledRecord(ready.api, opened.wager);

    // 6. Its randomness, from the oracle at ORAO's address, verifies offline against the oracle's authority.
    const requestTx = await rpc.getTransaction(record.requestSignature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
    const requested = decodeWagerEventsFromLogs(requestTx!.meta!.logMessages!, address(deployed.programs.wager)).find((e) => e.name === 'WagerRandomnessRequested');
    const { oracleRequest, seed } = requested!.data as unknown as { oracleRequest: Address; seed: Uint8Array };
    const requestAccount = (await rpc.getAccountInfo(oracleRequest, { encoding: 'base64' }).send()).value!;
    expect(requestAccount.owner).toBe(ORAO_VRF_PROGRAM_ADDRESS);
    const randomness = fulfilledRandomness(new Uint8Array(Buffer.from(requestAccount.data[0], 'base64')))!;
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    const verdict = await command<{ valid: boolean; authority?: string }>(['verify-randomness', '--rpc', localnet.rpcUrl, '--deployment', out, '--seed', hex(seed), '--randomness', hex(randomness)]);
    expect(verdict).toEqual({ valid: true, authority: localnet.manifest.oracle.fulfilmentAuthority });

    // 7. An upgrade with changed (and larger) bytes.
    const variant = dir.path('wager-variant.so');
    await buildWagerVariant(variant);
    const upgrade = await spawnDeploy(localnet as never, [...args, '--program-so', variant], dir.path('data'));
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const upgraded = await deployment(out);
    expect(upgraded.programs.wager).toBe(deployed.programs.wager);
    expect(upgraded.programSha256).not.toBe(deployed.programSha256);

    // 8. The earlier wager still inspects; a new wager on the upgraded program settles.
    const inspected = await command<{ state?: string; kind?: string; outcome?: { kind: string } }>(['inspect', opened.wager, '--rpc', localnet.rpcUrl, '--deployment', out]);
    expect(JSON.stringify(inspected)).toMatch(/settled/i);
    const second = await command<{ wager: string }>(['open', '--rpc', localnet.rpcUrl, '--deployment', out, '--keypair', user.file, '--paytable', 'dice', '--amount', '0.50']);
    await settledRecord(ready.api, second.wager);

    keeper.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => keeper.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
  }, 300_000);
});
