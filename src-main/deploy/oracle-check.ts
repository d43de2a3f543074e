/**
 * The oracle a deployment will use, checked on the cluster before anything is sent: the program exists
 * and is executable, and its ORAO VRF v2 network state (PDA "orao-vrf-network-configuration") exists and
 * decodes, which gives the fee each request pays and the treasury it goes to.
 */
import { address, type Address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { findNetworkStatePda, getNetworkStateDecoder } from '../protocol/generated/oracle';

/** ORAO VRF's program on devnet and mainnet-beta: the default oracle. */
export const ORAO_VRF_PROGRAM = address('VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y');

export interface OracleOnChain {
  program: Address;
  networkState: Address;
  /** Lamports per randomness request. */
  requestFee: bigint;
  treasury: Address;
}

/**
 * Reads the oracle `program` (ORAO VRF's by default) on the cluster; throws a one-line error naming
 * --oracle-program when it is missing or has no network state.
 */
export async function checkOracle(rpc: Rpc<SolanaRpcApi>, program: Address | undefined): Promise<OracleOnChain> {
  const oracle = program ?? ORAO_VRF_PROGRAM;
  const which = program ? `--oracle-program ${oracle}` : `the default oracle, ORAO VRF (${oracle}),`;
  const { value: account } = await rpc.getAccountInfo(oracle, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!account) throw new Error(`${which} is not a program on this cluster: pass --oracle-program ADDRESS (an ORAO VRF v2 program)`);
  if (!account.executable) throw new Error(`${which} is an account but not an executable program: pass --oracle-program ADDRESS (an ORAO VRF v2 program)`);
  const [networkState] = await findNetworkStatePda({ programAddress: oracle });
  const { value: state } = await rpc.getAccountInfo(networkState, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!state || state.owner !== oracle) {
    throw new Error(`${which} has no network state at ${networkState} (seed "orao-vrf-network-configuration"): not a configured ORAO VRF v2 oracle; pass --oracle-program ADDRESS`);
  }
  try {
    const decoded = getNetworkStateDecoder().decode(Buffer.from(state.data[0], 'base64'));
    return { program: oracle, networkState, requestFee: decoded.requestFee, treasury: decoded.treasury };
  } catch (error) {
    throw new Error(`${which}: its network state ${networkState} does not decode as ORAO VRF v2's (${(error as Error).message}); pass --oracle-program ADDRESS`, { cause: error });
  }
}
