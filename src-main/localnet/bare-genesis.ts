/**
 * A bare cluster's genesis, like a fresh public cluster (devnet): LiteSVM's builtins, precompiles and SPL
 * programs (Token, Token-2022, Associated Token, Memo) with the native mints, and the local oracle at ORAO
 * VRF's real program id, upgradeable like ORAO's, its network configured (treasury, fee, one fulfilment
 * authority). None of our programs, no mint, no pool, no paytables, no dev keys: a `deploy` puts those there.
 */
import type { Address } from '@solana/kit';
import { ORAO_VRF_PROGRAM_ADDRESS } from '../protocol/oracle';
import { readProgramBytes } from '../protocol/program-artifacts';
import { generateKeypairWithBytes, type KeypairWithBytes } from '../secrets/keypair-bytes';
import { initOracleNetwork } from './bootstrap-oracle';
import { placeUpgradeableProgram } from './genesis-program';
import { LOCALNET_ORACLE_FEE } from './genesis';
import { createLiteSvmRunner } from './litesvm-runner';
import type { LocalChain } from './local-chain';
import { LAMPORTS_PER_SOL_BIGINT as SOL } from '../../src-shared/units';

export interface BareGenesis {
  programs: { oracle: Address };
  oracle: { networkState: Address; treasury: Address; fulfilmentAuthority: Address; requestFee: bigint };
  keys: {
    /** The oracle's upgrade authority and configuration authority (ORAO's own key on devnet). */
    oracleAuthority: KeypairWithBytes;
    fulfiller: KeypairWithBytes;
  };
}

export async function createBareGenesis(chain: LocalChain): Promise<BareGenesis> {
  // wSOL mints of Token and Token-2022, which every public cluster has and LiteSVM adds only on request.
  chain.svm.withNativeMints();
  const [oracleAuthority, fulfiller, treasury] = await Promise.all(Array.from({ length: 3 }, () => generateKeypairWithBytes()));
  // The oracle's own infrastructure, not dev keys: its authority pays init_network, the fulfiller pays
  // its fulfilments, and the treasury exists rent-exempt before the first fee (docs/oracle.md).
  chain.airdrop(oracleAuthority!.signer.address, 10n * SOL);
  chain.airdrop(fulfiller!.signer.address, 100n * SOL);
  chain.airdrop(treasury!.signer.address, SOL);

  await placeUpgradeableProgram(chain.svm, {
    program: ORAO_VRF_PROGRAM_ADDRESS,
    bytes: await readProgramBytes('oracle'),
    upgradeAuthority: oracleAuthority!.signer.address,
    slot: chain.slot(),
  });
  const runner = createLiteSvmRunner(chain.svm, { advanceSlots: (slots) => chain.advanceSlots(slots) });
  const { networkState } = await initOracleNetwork(runner, ORAO_VRF_PROGRAM_ADDRESS, {
    payer: oracleAuthority!.signer,
    treasury: treasury!.signer.address,
    requestFee: LOCALNET_ORACLE_FEE,
    fulfillmentAuthorities: [fulfiller!.signer.address],
  });
  return {
    programs: { oracle: ORAO_VRF_PROGRAM_ADDRESS },
    oracle: { networkState, treasury: treasury!.signer.address, fulfilmentAuthority: fulfiller!.signer.address, requestFee: LOCALNET_ORACLE_FEE },
    keys: { oracleAuthority: oracleAuthority!, fulfiller: fulfiller! },
  };
}
