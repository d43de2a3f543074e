/**
 * The full localnet's deployment document (src-main/protocol/deployment.ts), as `deploy` would have
 * written it for this cluster: read from the genesis and, where the chain holds the answer (deployment
 * slot, upgrade authority), from the chain itself.
 */
import { createHash } from 'node:crypto';
import { findProgramDataAddress } from '../chain/upgradeable-loader';
import { DEPLOYMENT_VERSION, type Deployment } from '../protocol/deployment';
import { findConfigPda } from '../protocol/generated/wager';
import { readProgramBytes } from '../protocol/program-artifacts';
import { decodeProgramData } from './genesis-program';
import type { Genesis } from './genesis';
import type { LocalChain } from './local-chain';

/** sha256 (hex) of the committed wager program build, which genesis deployed. */
export async function wagerProgramSha256(): Promise<string> {
  return createHash('sha256').update(await readProgramBytes('wager')).digest('hex');
}

/** The deployment genesis made on `chain`. */
export async function describeLocalnetDeployment(chain: LocalChain, genesis: Genesis): Promise<Deployment> {
  const wager = genesis.programs.wager;
  const programData = await findProgramDataAddress(wager);
  const account = chain.svm.getAccount(programData);
  if (!account.exists) throw new Error(`the wager program ${wager} has no ProgramData account ${programData}`);
  const { slot, upgradeAuthority } = decodeProgramData(account.data);
  if (!upgradeAuthority) throw new Error(`the wager program ${wager} is immutable: genesis left it an upgrade authority`);
  const [config] = await findConfigPda({ programAddress: wager });
  return {
    version: DEPLOYMENT_VERSION,
    cluster: { genesisHash: chain.genesisHash, name: 'localnet' },
    programs: { wager, oracle: genesis.programs.oracle },
    programData,
    upgradeAuthority,
    config,
    pool: genesis.pool,
    usdcMint: genesis.usdcMint,
    paytables: genesis.paytables.map(({ name, address }) => ({ name, address })),
    guardian: genesis.keys.guardian.signer.address,
    deployedSlot: Number(slot),
    programSha256: await wagerProgramSha256(),
  };
}
