/**
 * `wager-keeper localnet --bare` as a person runs it: one ready line with the documented bare shape (the
 * endpoints, `bare: true`, only the oracle at ORAO VRF's address, `deployment: null`, no mint, pool,
 * paytables or dev keys), a cluster serving that program over RPC, and a clean stop on SIGTERM.
 */
import { address, createSolanaRpc } from '@solana/kit';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from '../../chain/upgradeable-loader';
import { ORAO_VRF_PROGRAM_ADDRESS } from '../../protocol/oracle';
import type { BareLocalnetManifest } from '../localnet';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));

/** A `wager-keeper localnet ARGS` process, its stdout read line by line as JSON. */
function spawnLocalnet(args: string[]) {
  const child = spawn(process.execPath, [bin, 'localnet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const nextLine = async () => {
    const next = await lines.next();
    if (next.done) throw new Error(`wager-keeper localnet ended without a line; stderr: ${stderr}`);
    return JSON.parse(next.value) as unknown;
  };
  return { child, nextLine, exited };
}

describe('wager-keeper localnet --bare', () => {
  let localnet: ReturnType<typeof spawnLocalnet>;
  beforeAll(() => {
    localnet = spawnLocalnet(['--bare', '--rpc-port', '0']);
  });
  afterAll(() => {
    const { child } = localnet;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  let ready: { event: string } & BareLocalnetManifest;

  it('prints a ready line of the bare shape: endpoints, oracle accounts, the oracle at ORAO VRF’s id, no programs or keys of ours', async () => {
    ready = (await localnet.nextLine()) as typeof ready;
    expect(Object.keys(ready).sort()).toEqual(['bare', 'deployment', 'event', 'genesisHash', 'network', 'oracle', 'programs', 'rpcUrl', 'slotMs', 'wsUrl']);
    expect(ready).toMatchObject({ event: 'ready', bare: true, programs: { oracle: ORAO_VRF_PROGRAM_ADDRESS }, deployment: null, slotMs: 400 });
    expect(Object.keys(ready.programs)).toEqual(['oracle']);
    expect(Object.keys(ready.oracle).sort()).toEqual(['delaySlots', 'fulfilmentAuthority', 'networkState', 'requestFee', 'treasury']);
    expect(ready.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.network).toBe(`solana:${ready.genesisHash.slice(0, 32)}`);
  });

  it('serves the oracle program at ORAO VRF’s id on the printed RPC URL', async () => {
    const rpc = createSolanaRpc(ready.rpcUrl);
    expect(await rpc.getGenesisHash().send()).toBe(ready.genesisHash);
    const { value } = await rpc.getAccountInfo(address(ORAO_VRF_PROGRAM_ADDRESS), { encoding: 'base64' }).send();
    expect(value).toMatchObject({ executable: true, owner: BPF_LOADER_UPGRADEABLE_ADDRESS });
  });

  it('prints {"event":"stopped"} and exits 0 on SIGTERM', async () => {
    localnet.child.kill('SIGTERM');
    expect(await localnet.nextLine()).toEqual({ event: 'stopped' });
    expect((await localnet.exited)[0]).toBe(0);
  });
});
