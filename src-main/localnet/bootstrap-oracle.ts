/**
 * Puts the local VRF oracle on a LiteSVM chain the way an operator would on a cluster: deploy the
 * committed build through the upgradeable loader, then create its network configuration signed by the
 * upgrade authority.
 */
import { generateKeyPairSigner, type Address, type TransactionSigner } from '@solana/kit';
import { findProgramDataAddress } from '../chain/upgradeable-loader';
import { findNetworkStatePda, getInitNetworkInstructionAsync } from '../protocol/generated/oracle';
import { readProgramBytes, readProgramKeypair } from '../protocol/program-artifacts';
import type { LiteSvmRunner } from './litesvm-runner';

export interface LocalOracleConfig {
  /** Pays for the deployment and becomes the upgrade authority and configuration authority. */
  payer: TransactionSigner;
  treasury: Address;
  requestFee: bigint;
  fulfillmentAuthorities: readonly Address[];
}

export interface LocalOracle {
  programAddress: Address;
  networkState: Address;
}

export async function bootstrapLocalOracle(runner: LiteSvmRunner, config: LocalOracleConfig): Promise<LocalOracle> {
  const program = await readProgramKeypair('oracle');
  await runner.deployUpgradeable({
    payer: config.payer,
    program,
    buffer: await generateKeyPairSigner(),
    authority: config.payer,
    bytes: await readProgramBytes('oracle'),
  });
  return initOracleNetwork(runner, program.address, config);
}

/**
 * Creates the network configuration of the oracle deployed at `programAddress` (wherever it was put),
 * signed by `config.payer`, which must be the program's upgrade authority.
 */
export async function initOracleNetwork(runner: LiteSvmRunner, programAddress: Address, config: LocalOracleConfig): Promise<LocalOracle> {
  const initNetwork = await getInitNetworkInstructionAsync(
    {
      payer: config.payer,
      programData: await findProgramDataAddress(programAddress),
      requestFee: config.requestFee,
      authority: config.payer.address,
      treasury: config.treasury,
      fulfillmentAuthorities: [...config.fulfillmentAuthorities],
    },
    { programAddress },
  );
  await runner.sendOrThrow(config.payer, [initNetwork]);
  const [networkState] = await findNetworkStatePda({ programAddress });
  return { programAddress, networkState };
}
