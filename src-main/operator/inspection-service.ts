/**
 * Support's Inspector and search: what any address is (a wager of this service, open or closed, with its
 * record; the pool; a wallet's wagers), and the two things support may then do for a wager: hand it to
 * the keeper, or deliver its parked payout now.
 */
import { address, isAddress } from '@solana/kit';
import { searchAddress } from '../read-models/address-search';
import { bookedCrank } from '../runtime/booked-crank';
import type { KeeperControl } from '../runtime/keeper-control';
import type { InspectionView } from '../../src-shared/contract/inspection';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { QueueRows } from '../runtime/queue-rows';
import { inspectWager, type InspectionDeployment } from '../read-models/wager-inspection';
import { readWagerTransaction, type WagerParties } from '../read-models/wager-transaction';
import { chainFailedAttempts, keeperFailedSteps, mergeAttempts } from '../read-models/wager-transaction-attempts';

export type InspectionApi = Pick<OperatorApi, 'inspect' | 'searchAddress' | 'handToKeeper' | 'claimPayout' | 'wagerTransaction' | 'wagerFailedAttempts'>;

/** Wagers whose parties the last inspections named (an opened step labels its accounts with them). */
const PARTIES_KEPT = 200;

const partiesOf = (report: Record<string, unknown>): WagerParties => {
  const text = (key: string) => (typeof report[key] === 'string' ? (report[key] as string) : undefined);
  return { stakeOwner: text('stakeOwner'), beneficiary: text('beneficiary'), app: text('app'), payer: text('payer') };
};

export function createInspectionService(control: KeeperControl, rows: QueueRows): InspectionApi {
  const parties = new Map<string, WagerParties>();
  const remember = (wager: string, found: WagerParties) => {
    parties.delete(wager);
    parties.set(wager, found);
    if (parties.size > PARTIES_KEPT) parties.delete(parties.keys().next().value!);
  };
  /** The keeper side, chain and deployment an inspection reads with. */
  const reading = (what: string) => {
    const side = control.keeperSide;
    const chain = control.chain;
    if (!side || !chain) throw control.notRunning(`${what} reads the chain through it; see Settings`);
    const deployment = control.requireDeployment();
    const source = chain.deploymentSource;
    const inspectionDeployment: InspectionDeployment = {
      programs: { wager: address(deployment.programs.wager), oracle: address(deployment.programs.oracle) },
      ...(source?.kind === 'file' || source?.kind === 'folder' ? { file: source.path } : {}),
    };
    return { side, chain, deployment, inspectionDeployment };
  };
  const wagerAddress = (target: unknown) => {
    if (typeof target !== 'string' || !isAddress(target.trim())) throw new Error(`'${String(target)}' is not a Solana address: pass the wager's address`);
    return address(target.trim());
  };
  return {
    async inspect({ address: target }) {
      const text = typeof target === 'string' ? target.trim() : '';
      if (!isAddress(text))
        return { address: text, problem: { kind: 'notAddress', message: `'${text}' is not a Solana address: paste a wager's address (base58, 32 to 44 characters)` }, report: {}, record: null, slots: null, paytable: null };
      const { side, chain, inspectionDeployment } = reading('the Inspector');
      const inspection = await inspectWager(side.core.connection.rpc, chain.rpcUrl, address(text), inspectionDeployment);
      if (!inspection.notAWager) remember(text, partiesOf(inspection.report));
      const record = side.core.keeper.records.get(text);
      // An address with nothing on chain may still be a wager this keeper finished: its record answers.
      const problem = inspection.notAWager && !(inspection.notAWager.kind === 'nothingHere' && record) ? { kind: inspection.notAWager.kind, message: inspection.notAWager.message } : null;
      return { address: text, problem, report: inspection.report as InspectionView['report'], record: record ? rows.toRow(record) : null, slots: inspection.slots, paytable: inspection.paytable };
    },
    async wagerTransaction({ signature, wager: target }) {
      const wager = wagerAddress(target);
      if (typeof signature !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(signature)) throw new Error(`'${String(signature)}' is not a transaction signature: pass a step's signature (base58)`);
      const { side, chain, deployment, inspectionDeployment } = reading('the Inspector');
      const rpc = side.core.connection.rpc;
      // A step opens after its wager was inspected: its parties are known; otherwise inspect it first.
      let known = parties.get(wager);
      if (!known) {
        known = partiesOf((await inspectWager(rpc, chain.rpcUrl, wager, inspectionDeployment)).report);
        remember(wager, known);
      }
      return readWagerTransaction(rpc, signature, {
        wager,
        parties: known,
        programs: inspectionDeployment.programs,
        usdcMint: deployment.usdcMint,
        keeper: side.core.keeper.address,
        cluster: chain.view.name,
        rpcUrl: chain.rpcUrl,
      });
    },
    async wagerFailedAttempts({ wager: target }) {
      const wager = wagerAddress(target);
      const { side, inspectionDeployment } = reading('the Inspector');
      const onChain = await chainFailedAttempts(side.core.connection.rpc, wager, inspectionDeployment.programs);
      return { attempts: mergeAttempts(onChain, keeperFailedSteps(side.core.db, wager), side.core.keeper.address) };
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
