/**
 * Settings → Guardian: the deployment's guardian and whether new wagers are paused (read on chain), the
 * guardian key this console holds, pausing or resuming new wagers with it, and importing that key.
 */
import { address, createSolanaRpc } from '@solana/kit';
import { fetchConfig } from '../keeper/chain-view';
import { readGuardianKeyAddress, storeGuardianKey } from '../secrets/guardian-key';
import { readKeypairFileBytes } from '../secrets/keypair-bytes';
import type { KeeperControl } from '../runtime/keeper-control';
import type { GuardianView } from '../../src-shared/contract/guardian';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';

export type GuardianApi = Pick<OperatorApi, 'guardian' | 'setNewWagersPaused' | 'importGuardianKey'>;

export function createGuardianService(
  control: KeeperControl,
  options: Pick<ResolvedOperatorOptions, 'guardianKeychainAccount' | 'log'>,
  emit: (event: OperatorEvent) => void,
): GuardianApi {
  const { guardianKeychainAccount, log } = options;
  const guardianApi: GuardianApi = {
    async guardian() {
      const settings = control.settings();
      const side = control.keeperSide;
      const chain = control.chain;
      const deployment = chain?.deployment ?? null;
      const guardian = side?.core.guardian;
      let keychain: GuardianView['keychain'];
      try {
        keychain = { address: await readGuardianKeyAddress(guardianKeychainAccount), error: null };
      } catch (error) {
        keychain = { address: null, error: (error as Error).message };
      }
      let onChain: { paused: boolean; guardian: string } | null = null;
      let readError: string | null = null;
      if (deployment && chain) {
        try {
          const rpc = side?.core.connection.rpc ?? createSolanaRpc(chain.rpcUrl);
          const config = await fetchConfig(rpc, address(deployment.config), address(deployment.programs.wager));
          onChain = { paused: config.paused !== 0, guardian: config.guardian };
        } catch (error) {
          readError = `cannot read the config on chain: ${(error as Error).message}`;
        }
      } else readError = chain?.view.noDeployment ?? 'no cluster is running';
      const state = guardian?.state();
      return {
        guardian: onChain?.guardian ?? deployment?.guardian ?? null,
        paused: onChain?.paused ?? null,
        readError,
        key: side?.guardianKey ?? null,
        keyProblem: side ? side.guardianKeyProblem : 'the keeper is not running, so neither is its guardian',
        keychain,
        automatic: {
          enabled: settings.guardianAutomatic,
          running: Boolean(state?.automatic),
          pauseAfterSlots: state?.pauseAfterSlots ?? settings.guardianPauseAfterSlots,
          resumeAfterSlots: state?.resumeAfterSlots ?? settings.guardianResumeAfterSlots,
          lastError: state?.lastError ?? null,
        },
        pausedByGuardian: Boolean(state?.pausedByGuardian && onChain?.paused),
        actions: guardian?.actions() ?? [],
      };
    },
    async setNewWagersPaused({ paused }) {
      if (typeof paused !== 'boolean') throw new Error('paused must be true or false');
      const side = control.keeperSide;
      if (!side) throw control.notRunning('see Settings');
      const guardian = side.core.guardian;
      if (!guardian)
        throw new Error(
          `only the deployment's guardian (${control.chain?.deployment?.guardian ?? 'see the deployment'}) can ${paused ? 'pause' : 'resume'} new wagers, and ${side.guardianKeyProblem ?? 'this console does not hold its key'}`,
        );
      return guardian.setPaused(paused, paused ? 'paused by a person from the console' : 'resumed by a person from the console');
    },
    async importGuardianKey({ path, replace }) {
      if (typeof path !== 'string' || path.trim() === '') throw new Error("give the path of the guardian's Solana CLI keypair file (a JSON array of 64 bytes) on the machine that runs the keeper");
      const file = path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~');
      const { signer, bytes } = await readKeypairFileBytes(file);
      const existing = await readGuardianKeyAddress(guardianKeychainAccount);
      if (existing && existing !== signer.address && !replace)
        throw new Error(`the keychain already holds a guardian key (${existing}); importing ${signer.address} replaces it: confirm the replacement`);
      storeGuardianKey(bytes, guardianKeychainAccount);
      bytes.fill(0);
      log.info({ address: signer.address }, 'guardian key imported into the OS keychain');
      // The guardian runs with the core's key: restart the keeper when the keychain is where its key comes from.
      const keeperSide = control.keeperSide;
      const source = keeperSide?.guardianKey?.source;
      if (keeperSide && source !== 'file' && source !== 'localnet dev key') await control.restartKeeper().catch(() => undefined);
      emit({ type: 'guardian' });
      return guardianApi.guardian();
    },
  };
  return guardianApi;
}
