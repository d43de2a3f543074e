/**
 * Settings → Keeper key: the key the keeper cranks with and the one in the OS keychain, making a new one
 * or importing a keypair file into the keychain (the keeper restarts when it cranks with the keychain's).
 */
import { readKeeperKeyAddress, storeKeeperKey } from '../secrets/keeper-key';
import { generateKeypairWithBytes, readKeypairFileBytes } from '../secrets/keypair-bytes';
import type { KeeperControl } from './keeper-control';
import type { KeyView, OperatorApi } from './operator-interface';
import type { ResolvedOperatorOptions } from './operator-options';

export interface KeeperKeyService {
  /** The key in use and the keychain's (Settings shows both). */
  keyView(): Promise<KeyView>;
  api: Pick<OperatorApi, 'generateKey' | 'importKey'>;
}

export function createKeeperKeyService(control: KeeperControl, options: Pick<ResolvedOperatorOptions, 'keychainAccount' | 'log'>): KeeperKeyService {
  const { keychainAccount, log } = options;
  const keyView = async (): Promise<KeyView> => {
    let keychain: KeyView['keychain'];
    try {
      keychain = { address: await readKeeperKeyAddress(keychainAccount), error: null };
    } catch (error) {
      keychain = { address: null, error: (error as Error).message };
    }
    const keeperSide = control.keeperSide;
    const keeper = keeperSide?.core.keeper;
    return { inUse: keeper && keeperSide ? { address: keeper.address, source: keeperSide.keySource } : null, keychain };
  };

  /** The keeper key in the keychain changed: restart the keeper if it cranks with that key. */
  const afterKeyChange = async () => {
    const source = control.keeperSide?.keySource;
    if (source === 'keychain' || source === 'keychain (created)') await control.restartKeeper().catch(() => undefined);
    return keyView();
  };

  return {
    keyView,
    api: {
      async generateKey({ replace }) {
        const existing = await readKeeperKeyAddress(keychainAccount);
        if (existing && !replace)
          throw new Error(
            `the keychain already holds a keeper key (${existing}); a new key replaces it, and SOL left on ${existing} stays there: move it first, then confirm the replacement`,
          );
        const fresh = await generateKeypairWithBytes();
        storeKeeperKey(fresh.secretKey, keychainAccount);
        log.info({ address: fresh.signer.address }, 'new keeper key stored in the OS keychain');
        return afterKeyChange();
      },
      async importKey({ path, replace }) {
        if (typeof path !== 'string' || path.trim() === '') throw new Error('give the path of a Solana CLI keypair file (a JSON array of 64 bytes), e.g. ~/.config/solana/id.json');
        const file = path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~');
        const { signer, bytes } = await readKeypairFileBytes(file);
        const existing = await readKeeperKeyAddress(keychainAccount);
        if (existing && existing !== signer.address && !replace)
          throw new Error(`the keychain already holds a keeper key (${existing}); importing ${signer.address} replaces it: confirm the replacement`);
        storeKeeperKey(bytes, keychainAccount);
        bytes.fill(0);
        log.info({ address: signer.address }, 'keeper key imported into the OS keychain');
        return afterKeyChange();
      },
    },
  };
}
