/**
 * The full localnet's manifest carries its deployment (src-main/protocol/deployment.ts), and what it says
 * is what the chain holds, read over JSON-RPC: the config owned by the wager program and naming the same
 * mint, guardian, admin and oracle; the ProgramData with that upgrade authority and deployment slot, holding
 * the bytes whose sha256 the document gives; the pool and paytables of the manifest.
 */
import { address, createSolanaRpc, getBase64Encoder, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BPF_LOADER_UPGRADEABLE_ADDRESS, findProgramDataAddress } from '../../chain/upgradeable-loader';
import { parseDeployment, type Deployment } from '../../protocol/deployment';
import { getConfigDecoder } from '../../protocol/wager';
import { readProgramBytes } from '../../protocol/program-artifacts';
import { decodeProgramData } from '../genesis-program';
import { fetchLocalnetManifest } from '../localnet-admin-client';
import { startLocalnet, type Localnet } from '../localnet';
import type { LocalRpc } from './localnet-test-helpers';

let localnet: Localnet;
let rpc: LocalRpc;
let deployment: Deployment;

beforeAll(async () => {
  localnet = await startLocalnet({ rpcPort: 0, manualSlots: true });
  rpc = createSolanaRpc(localnet.rpcUrl);
  // As a command reads it: from localnet_manifest, checked by the deployment parser.
  const manifest = await fetchLocalnetManifest(localnet.rpcUrl);
  if (manifest.bare) throw new Error('expected the full localnet');
  deployment = parseDeployment(manifest.deployment, 'the localnet manifest');
});
afterAll(async () => {
  await localnet?.stop();
});

const accountOf = async (at: string) => (await rpc.getAccountInfo(address(at), { encoding: 'base64' }).send()).value;
const dataOf = (account: NonNullable<Awaited<ReturnType<typeof accountOf>>>) => getBase64Encoder().encode(account.data[0]);

describe("the full localnet's deployment document", () => {
  it('parses as a deployment of this cluster, unchanged by the parser, with no keeper API', async () => {
    expect(deployment).toEqual(localnet.manifest.deployment);
    expect(deployment.cluster).toEqual({ genesisHash: await rpc.getGenesisHash().send(), name: 'localnet' });
    expect(deployment.keeperApi).toBeUndefined();
    expect(deployment).toMatchObject({
      programs: localnet.manifest.programs,
      pool: localnet.manifest.pool,
      usdcMint: localnet.manifest.usdcMint,
      guardian: localnet.manifest.devKeys.guardian.address,
      paytables: localnet.manifest.paytables.map(({ name, address: at }) => ({ name, address: at })),
    });
  });

  it('names the config account, which the wager program owns and which names the same mint, guardian, oracle and admin', async () => {
    const config = await accountOf(deployment.config);
    expect(config?.owner).toBe(deployment.programs.wager);
    expect(getConfigDecoder().decode(dataOf(config!))).toMatchObject({
      usdcMint: deployment.usdcMint,
      guardian: deployment.guardian,
      oracleProgram: deployment.programs.oracle,
      admin: deployment.upgradeAuthority,
    });
    expect((await accountOf(deployment.pool))?.owner).toBe(deployment.programs.wager);
    for (const paytable of deployment.paytables) expect((await accountOf(paytable.address))?.owner, paytable.name).toBe(deployment.programs.wager);
  });

  it("names the wager program's ProgramData, with the upgrade authority (genesis's admin) and the slot it was deployed at", async () => {
    expect(deployment.programData).toBe(await findProgramDataAddress(address(deployment.programs.wager)));
    const programData = await accountOf(deployment.programData);
    expect(programData?.owner).toBe(BPF_LOADER_UPGRADEABLE_ADDRESS);
    const header = decodeProgramData(dataOf(programData!));
    expect(header.upgradeAuthority).toBe(deployment.upgradeAuthority);
    expect(deployment.upgradeAuthority).toBe(localnet.genesis.keys.admin.signer.address as Address);
    expect(BigInt(deployment.deployedSlot)).toBe(header.slot);
    expect(header.slot).toBeLessThanOrEqual(await rpc.getSlot().send());
  });

  it('gives the sha256 of the bytes the ProgramData holds, the committed wager.so', async () => {
    const { programBytes } = decodeProgramData(dataOf((await accountOf(deployment.programData))!));
    const built = await readProgramBytes('wager');
    // ProgramData is sized for upgrades: the program, then zeros.
    const deployed = programBytes.subarray(0, built.length);
    expect(programBytes.subarray(built.length).every((byte) => byte === 0)).toBe(true);
    expect(createHash('sha256').update(deployed).digest('hex')).toBe(deployment.programSha256);
    expect(createHash('sha256').update(built).digest('hex')).toBe(deployment.programSha256);
  });
});
