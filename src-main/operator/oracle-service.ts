/** The local oracle of a wager-keeper localnet: its state, and stalling or resuming it to see the expiry path. */
import { localOracleStatus, resumeLocalOracle, stallLocalOracle } from '../localnet/localnet-admin-client';
import type { KeeperControl } from '../runtime/keeper-control';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';

export type LocalOracleApi = Pick<OperatorApi, 'localOracle' | 'setLocalOracleStalled'>;

export function createLocalOracleService(control: KeeperControl, { log }: Pick<ResolvedOperatorOptions, 'log'>): LocalOracleApi {
  return {
    async localOracle() {
      const chain = control.chain;
      if (!chain?.view.wagerKeeperLocalnet) return null;
      return localOracleStatus(chain.rpcUrl);
    },
    async setLocalOracleStalled({ stalled }) {
      const chain = control.chain;
      if (!chain?.view.wagerKeeperLocalnet) throw new Error("only a wager-keeper localnet has an oracle the console can stall; this cluster's oracle is not ours to stop");
      if (typeof stalled !== 'boolean') throw new Error('stalled must be true or false');
      await (stalled ? stallLocalOracle(chain.rpcUrl) : resumeLocalOracle(chain.rpcUrl));
      log.warn({ stalled }, stalled ? 'local oracle stalled from the console' : 'local oracle resumed from the console');
      return localOracleStatus(chain.rpcUrl);
    },
  };
}
