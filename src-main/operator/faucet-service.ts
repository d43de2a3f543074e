/**
 * The console's faucet (test USDC and a SOL top-up for a wallet): this keeper's own when it holds the test
 * mint's authority, else the deployment's public keeper's (`keeperApi`), else none and why.
 */
import { address, isAddress } from '@solana/kit';
import { remoteFaucetClaim, remoteFaucetStatus } from '../faucet/remote-faucet';
import type { KeeperControl } from '../runtime/keeper-control';
import type { FaucetView } from '../../src-shared/contract/faucet';
import type { OperatorApi } from '../../src-shared/contract/operator-api';

export type ConsoleFaucetApi = Pick<OperatorApi, 'faucetStatus' | 'faucetClaim'>;

type FaucetSource = Exclude<FaucetView, { source: 'deployment keeper' }> | { source: 'deployment keeper'; keeperApi: string; status: null; error: null };

export function createConsoleFaucet(control: KeeperControl): ConsoleFaucetApi {
  /** Which faucet the console uses: this keeper's own (it holds the test mint's authority), the deployment keeper's, or none and why. */
  const faucetSource = (): FaucetSource => {
    const own = control.keeperSide?.core.faucet;
    if (own) return { source: 'this keeper', status: own.status() };
    const chain = control.chain;
    if (!chain) return { source: 'none', reason: 'no cluster is running' };
    if (chain.view.name === 'mainnet-beta') return { source: 'none', reason: 'mainnet-beta has no faucet: its USDC is real' };
    const deployment = chain.deployment;
    if (!deployment) return { source: 'none', reason: 'no deployment is known for this cluster (Settings → Cluster), so there is no test USDC mint to grant' };
    if (deployment.keeperApi) return { source: 'deployment keeper', keeperApi: deployment.keeperApi, status: null, error: null };
    return {
      source: 'none',
      reason:
        "this keeper does not hold the test USDC mint's authority (a wager-keeper localnet's, or `keeper --faucet-mint MINT --faucet-authority FILE`), and the deployment names no public keeper (`keeperApi`) whose faucet it could ask",
    };
  };

  return {
    async faucetStatus() {
      const source = faucetSource();
      if (source.source !== 'deployment keeper') return source;
      try {
        return { ...source, status: await remoteFaucetStatus(source.keeperApi), error: null };
      } catch (error) {
        return { ...source, error: (error as Error).message };
      }
    },
    async faucetClaim({ owner }) {
      if (typeof owner !== 'string' || !isAddress(owner.trim())) throw new Error(`'${owner}' is not a Solana address: paste a wallet address (base58, 32 to 44 characters)`);
      const source = faucetSource();
      if (source.source === 'none') throw new Error(`no faucet on this cluster: ${source.reason}`);
      // Claims from the console count against the same per-wallet and daily limits; one "client" for the console.
      if (source.source === 'this keeper') return { ...(await control.keeperSide!.core.faucet!.claim(address(owner.trim()), 'operator console')), answeredBy: 'this keeper' };
      return { ...(await remoteFaucetClaim(source.keeperApi, owner.trim())), answeredBy: source.keeperApi };
    },
  };
}
