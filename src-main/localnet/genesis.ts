/**
 * The local cluster's genesis: both programs deployed through the upgradeable loader, a test USDC mint,
 * config and pool initialized, the standard paytables, pool liquidity seeded through the real deposit
 * epoch path, and funded dev keys (app, keeper). Returns what the manifest publishes.
 */
import type { Address } from '@solana/kit';
import { findPoolPda, findShareMintPda } from '../protocol/generated/wager';
import { generateKeypairWithBytes, type KeypairWithBytes } from '../secrets/keypair-bytes';
import { bootstrapLocalOracle } from './bootstrap-oracle';
import {
  DEFAULT_WAGER_CONFIG,
  STANDARD_PAYTABLES,
  bootstrapWagerProgram,
  createPaytable,
  createUsdcMint,
  mintTokens,
  seedLiquidity,
  type PaytableDefinition,
} from './bootstrap-wager';
import type { LocalChain } from './local-chain';
import { createLiteSvmRunner } from './litesvm-runner';
import { LAMPORTS_PER_SOL_BIGINT as SOL } from '../../src-shared/units';

export const LOCALNET_ORACLE_FEE = 10_000n;
/** Liquidity epochs of 300 slots (about 2 minutes at 400 ms): quick enough to try LP actions locally. */
export const LOCALNET_EPOCH_SLOTS = 300n;
export const SEED_LIQUIDITY_USDC = 1_000_000n;
export const DEV_APP_USDC = 100_000n;

export interface Genesis {
  programs: { wager: Address; oracle: Address };
  usdcMint: Address;
  pool: Address;
  shareMint: Address;
  oracle: { networkState: Address; treasury: Address; fulfilmentAuthority: Address; requestFee: bigint };
  paytables: (PaytableDefinition & { address: Address })[];
  keys: {
    admin: KeypairWithBytes;
    guardian: KeypairWithBytes;
    mintAuthority: KeypairWithBytes;
    fulfiller: KeypairWithBytes;
    app: KeypairWithBytes;
    keeper: KeypairWithBytes;
    lp: KeypairWithBytes;
  };
}

export async function createGenesis(chain: LocalChain): Promise<Genesis> {
  const runner = createLiteSvmRunner(chain.svm, { advanceSlots: (slots) => chain.advanceSlots(slots) });
  const [admin, guardian, mintAuthority, fulfiller, app, keeper, lp, treasury] = await Promise.all(
    Array.from({ length: 8 }, () => generateKeypairWithBytes()),
  );
  const fund = (key: KeypairWithBytes, sol: bigint) => chain.airdrop(key.signer.address, sol * SOL);
  fund(admin!, 100n);
  fund(guardian!, 10n);
  fund(mintAuthority!, 10n);
  fund(fulfiller!, 100n);
  fund(app!, 100n);
  fund(keeper!, 100n);
  fund(lp!, 10n);
  fund(treasury!, 1n);

  const oracle = await bootstrapLocalOracle(runner, {
    payer: admin!.signer,
    treasury: treasury!.signer.address,
    requestFee: LOCALNET_ORACLE_FEE,
    fulfillmentAuthorities: [fulfiller!.signer.address],
  });
  const usdcMint = await createUsdcMint(runner, admin!.signer, mintAuthority!.signer.address);
  const usdc = { address: usdcMint, authority: mintAuthority!.signer };
  const wager = await bootstrapWagerProgram(runner, {
    admin: admin!.signer,
    guardian: guardian!.signer.address,
    usdcMint,
    oracleProgram: oracle.programAddress,
    config: { ...DEFAULT_WAGER_CONFIG, epochLength: LOCALNET_EPOCH_SLOTS },
  });
  const paytables = [];
  for (const paytable of STANDARD_PAYTABLES) {
    paytables.push({ ...paytable, address: await createPaytable(runner, admin!.signer, paytable) });
  }
  await seedLiquidity(runner, lp!.signer, usdc, SEED_LIQUIDITY_USDC * 1_000_000n);
  await mintTokens(runner, app!.signer, usdc, app!.signer.address, DEV_APP_USDC * 1_000_000n);

  return {
    programs: { wager, oracle: oracle.programAddress },
    usdcMint,
    pool: (await findPoolPda())[0],
    shareMint: (await findShareMintPda())[0],
    oracle: { networkState: oracle.networkState, treasury: treasury!.signer.address, fulfilmentAuthority: fulfiller!.signer.address, requestFee: LOCALNET_ORACLE_FEE },
    paytables,
    keys: { admin: admin!, guardian: guardian!, mintAuthority: mintAuthority!, fulfiller: fulfiller!, app: app!, keeper: keeper!, lp: lp! },
  };
}
