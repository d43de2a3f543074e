/**
 * Support's Inspector and search: what any address is (a wager of this service, open or closed, with its
 * record; the pool; a wallet's wagers), and the two things support may then do for a wager: hand it to
 * the keeper, or deliver its parked payout now.
 */
import { address, isAddress } from '@solana/kit';
import { searchAddress } from './address-search';
import { bookedCrank } from './booked-crank';
import type { KeeperControl } from './keeper-control';
import type { InspectionView, OperatorApi } from './operator-interface';
import type { QueueRows } from './queue-rows';
import { inspectWager } from './wager-inspection';

export type InspectionApi = Pick<OperatorApi, 'inspect' | 'searchAddress' | 'handToKeeper' | 'claimPayout'>;

export function createInspectionService(control: KeeperControl, rows: QueueRows): InspectionApi {
  return {
    async inspect({ address: target }) {
      const text = typeof target === 'string' ? target.trim() : '';
      if (!isAddress(text))
        return { address: text, problem: { kind: 'notAddress', message: `'${text}' is not a Solana address: paste a wager's address (base58, 32 to 44 characters)` }, report: {}, record: null, slots: null, paytable: null };
      const side = control.keeperSide;
      const chain = control.chain;
      if (!side || !chain) throw control.notRunning('the Inspector reads the chain through it; see Settings');
      const deployment = control.requireDeployment();
      const source = chain.deploymentSource;
      const inspection = await inspectWager(side.core.connection.rpc, chain.rpcUrl, address(text), {
        programs: { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) },
        ...(source?.kind === 'file' || source?.kind === 'folder' ? { file: source.path } : {}),
      });
      const record = side.core.keeper.records.get(text);
      // An address with nothing on chain may still be a wager this keeper finished: its record answers.
      const problem = inspection.notAWager && !(inspection.notAWager.kind === 'nothingHere' && record) ? { kind: inspection.notAWager.kind, message: inspection.notAWager.message } : null;
      return { address: text, problem, report: inspection.report as InspectionView['report'], record: record ? rows.toRow(record) : null, slots: inspection.slots, paytable: inspection.paytable };
    },
    async searchAddress({ address: target, limit }) {
      const side = control.keeperSide;
      if (!side || !control.chain) throw control.notRunning('the search reads the chain through it; see Settings');
      const deployment = control.requireDeployment();
      const records = side.core.keeper.records;
      return searchAddress(
        side.core.connection.rpc,
        { program: address(deployment.programs.wager), pool: deployment.pool, usdcMint: deployment.usdcMint, config: deployment.config, paytables: deployment.paytables, record: (wager) => records.get(wager) },
        typeof target === 'string' ? target : '',
        typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : undefined,
      );
    },
    async handToKeeper({ address: target }) {
      if (typeof target !== 'string' || !isAddress(target)) throw new Error(`'${target}' is not a Solana address`);
      const keeper = control.requireKeeper();
      const result = await keeper.submitWager(address(target));
      if (result.kind === 'accountNotFound') throw new Error('no account at this address: a closed wager needs no keeper (see how it ended above)');
      if (result.kind === 'notAWager') throw new Error('this account is not a wager of this service: the keeper cannot crank it');
      const record = keeper.records.get(target);
      return record ? rows.toRow(record) : null;
    },
    async claimPayout({ address: target }) {
      if (typeof target !== 'string' || !isAddress(target)) throw new Error(`'${target}' is not a Solana address`);
      const side = control.keeperSide;
      if (!side) throw control.notRunning('see Settings');
      return bookedCrank(side.core.keeper, () => side.core.keeper.claimPayoutNow(address(target)));
    },
  };
}
