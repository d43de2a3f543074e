/**
 * The Liquidity screen's service: the pool and its requests read (liquidity-view.ts), and the cranks the
 * operator may send from it (strike the live epoch, claim a struck request) with the keeper's key.
 */
import { address, isAddress, type Instruction } from '@solana/kit';
import { bookedCrank } from '../runtime/booked-crank';
import type { KeeperControl } from '../runtime/keeper-control';
import type { KeeperSide } from '../runtime/keeper-side';
import { balanceAfterClaim, claimInstruction, readLiquidity, simulatorFor, strikeInstruction, type LiquidityContext } from '../read-models/liquidity-view';
import type { CrankActionView } from '../../src-shared/contract/liquidity';
import type { OperatorApi } from '../../src-shared/contract/operator-api';

export type LiquidityApi = Pick<OperatorApi, 'liquidity' | 'strikeEpoch' | 'claimLiquidity'>;

export function createLiquidityService(control: KeeperControl): LiquidityApi {
  /** What the Liquidity screen reads and simulates with: the keeper's RPC and key, the deployment's programs. */
  const liquidityContext = (side: KeeperSide): LiquidityContext => {
    const deployment = control.requireDeployment();
    return {
      rpc: side.core.connection.rpc,
      program: address(deployment.programs.wager),
      usdcMint: address(deployment.usdcMint),
      caller: side.signer,
      simulate: simulatorFor(side.core.connection.rpc, side.signer),
      programs: { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) },
    };
  };
  /** Sends a crank the operator asked for and says what it did, with the fee it earned (from its booking). */
  const operatorCrank = (side: KeeperSide, step: 'strike_epoch' | 'claim_deposit' | 'claim_withdraw', subject: string, instructions: Instruction[]): Promise<CrankActionView> =>
    bookedCrank(side.core.keeper, () => side.core.keeper.crank(step, subject, instructions));

  return {
    async liquidity({ owner }) {
      if (owner !== null && owner !== undefined && owner !== '' && !isAddress(owner.trim())) throw new Error(`'${owner}' is not a Solana address: filter by an LP's wallet address`);
      const side = control.keeperSide;
      if (!side || !control.chain) throw control.notRunning('see Settings');
      return readLiquidity(liquidityContext(side), owner ? owner.trim() : null);
    },
    async strikeEpoch(args) {
      const side = control.keeperSide;
      if (!side) throw control.notRunning('see Settings');
      const { epoch, subject, instructions } = await strikeInstruction(side.core.connection.rpc, address(control.requireDeployment().programs.wager), side.signer);
      // The screen showed an older epoch: someone struck it meanwhile (striking the next one was not asked).
      if (typeof args?.epoch === 'number' && BigInt(args.epoch) < epoch)
        return { outcome: 'lost', error: 'alreadyStruck', sentence: `Already struck: epoch ${args.epoch} was struck meanwhile; the live epoch is now ${epoch}.` };
      return operatorCrank(side, 'strike_epoch', subject, instructions);
    },
    async claimLiquidity({ request }) {
      const side = control.keeperSide;
      if (!side) throw control.notRunning('see Settings');
      if (typeof request !== 'string' || !isAddress(request)) throw new Error(`'${request}' is not a request address`);
      const context = liquidityContext(side);
      const { kind, instructions, destination } = await claimInstruction(context, address(request));
      const result = await operatorCrank(side, kind === 'deposit' ? 'claim_deposit' : 'claim_withdraw', request, instructions);
      return result.outcome === 'landed' ? { ...result, balance: await balanceAfterClaim(context.rpc, kind, destination) } : result;
    },
  };
}
