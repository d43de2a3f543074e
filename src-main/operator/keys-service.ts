/**
 * Settings → Keeper key: the key the keeper cranks with and both keychain keys (the local/test one and
 * mainnet-beta's own), making a new one, importing one (a keypair file, or a pasted base58 secret), and
 * exporting one to a 0600 backup file. A key replaced is kept in the keychain, listed and exportable. The keeper restarts when it cranks with the key that changed.
 * Answers carry addresses only; secret bytes are zeroed once stored or written.
 */
import {
  clusterKeyAddress,
  exportClusterKey,
  importClusterKey,
  KEY_CLASS_CLUSTERS,
  KEY_CLASSES,
  keyClassOf,
  keychainAccountFor,
  replacedClusterKeys,
} from '../runtime/cluster-keys';
import { generateKeypairWithBytes } from '../secrets/keypair-bytes';
import { parseKeypairText, readKeypairAnyFormat } from '../secrets/keypair-format';
import type { KeeperControl } from '../runtime/keeper-control';
import type { KeyAccountView, KeyCluster, KeyView } from '../../src-shared/contract/keys';
import type { KeyClass } from '../../src-shared/key-class';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';

export interface KeeperKeyService {
  /** The key in use and the keychain's (Settings shows both). */
  keyView(): Promise<KeyView>;
  api: Pick<OperatorApi, 'generateKey' | 'importKey' | 'exportKey'>;
}

const CLUSTERS: readonly KeyCluster[] = ['localnet', 'devnet', 'testnet', 'mainnet-beta'];
const expandHome = (path: string) => path.trim().replace(/^~(?=\/)/, process.env.HOME ?? '~');
const classWords = (keyClass: KeyClass) => (keyClass === 'mainnet-beta' ? 'mainnet-beta' : 'local/test');

export function createKeeperKeyService(
  control: KeeperControl,
  options: Pick<ResolvedOperatorOptions, 'keychainAccount' | 'log'>,
): KeeperKeyService {
  const { keychainAccount: base, log } = options;
  /** The class an action is about: the named cluster's, else the console's current cluster's. */
  const classFor = (cluster: KeyCluster | undefined): KeyClass => {
    if (cluster === undefined) return keyClassOf(control.chain?.view.name ?? 'localnet');
    if (!CLUSTERS.includes(cluster))
      throw new Error(`unknown cluster '${String(cluster)}': name one of ${CLUSTERS.join(', ')}`);
    return keyClassOf(cluster);
  };

  const keyView = async (): Promise<KeyView> => {
    const keeperSide = control.keeperSide;
    const keeper = keeperSide?.core.keeper;
    const inUse = keeper && keeperSide ? { address: keeper.address, source: keeperSide.keySource } : null;
    const current = classFor(undefined);
    const accounts = await Promise.all(
      KEY_CLASSES.map(async (keyClass): Promise<KeyAccountView> => {
        const account = keychainAccountFor(keyClass, base);
        let address: string | null = null;
        let error: string | null = null;
        let replaced: KeyAccountView['replaced'] = [];
        try {
          address = await clusterKeyAddress(keyClass, base);
          replaced = replacedClusterKeys(keyClass, base);
        } catch (failure) {
          error = (failure as Error).message;
        }
        const cranking =
          inUse !== null &&
          keyClass === current &&
          inUse.source.startsWith('keychain') &&
          inUse.address === address;
        return { keyClass, account, clusters: KEY_CLASS_CLUSTERS[keyClass], address, error, inUse: cranking, replaced };
      }),
    );
    const mine = accounts.find((entry) => entry.keyClass === current)!;
    return { inUse, keychain: { address: mine.address, error: mine.error }, current, accounts };
  };

  /** A keychain key changed: restart the keeper if it cranks with that class's keychain key. */
  const afterKeyChange = async (keyClass: KeyClass) => {
    const source = control.keeperSide?.keySource;
    if (keyClass === classFor(undefined) && (source === 'keychain' || source === 'keychain (created)'))
      await control.restartKeeper().catch(() => undefined);
    return keyView();
  };

  return {
    keyView,
    api: {
      async generateKey({ replace, cluster }) {
        const keyClass = classFor(cluster);
        const existing = await clusterKeyAddress(keyClass, base);
        if (existing && !replace)
          throw new Error(
            `the keychain already holds a ${classWords(keyClass)} keeper key (${existing}); a new key replaces it, and SOL left on ${existing} stays there: move it first, then confirm the replacement`,
          );
        const fresh = await generateKeypairWithBytes();
        const address = await importClusterKey(keyClass, fresh.secretKey, { replace: true, base });
        log.info({ address, keyClass }, 'new keeper key stored in the OS keychain');
        return afterKeyChange(keyClass);
      },
      async importKey({ path, secret, replace, cluster }) {
        const keyClass = classFor(cluster);
        const hasPath = typeof path === 'string' && path.trim() !== '';
        const hasSecret = typeof secret === 'string' && secret.trim() !== '';
        if (hasPath === hasSecret)
          throw new Error(
            hasPath
              ? 'give either a keypair file path or a pasted secret, not both'
              : 'give the path of a Solana CLI keypair file (a JSON array of 64 bytes), e.g. ~/.config/solana/id.json, or paste a base58 secret key',
          );
        const { bytes } = hasPath
          ? await readKeypairAnyFormat(expandHome(path!))
          : await parseKeypairText(secret!, 'the pasted secret');
        const address = await importClusterKey(keyClass, bytes, { replace, base });
        log.info({ address, keyClass }, 'keeper key imported into the OS keychain');
        return afterKeyChange(keyClass);
      },
      async exportKey({ path, confirm, cluster, replaced }) {
        if (confirm !== true)
          throw new Error(
            'exporting the keeper key writes its secret to a file: confirm the export (confirm: true)',
          );
        if (typeof path !== 'string' || path.trim() === '')
          throw new Error(
            'give the path of a new file to write the key to, e.g. ~/keeper-backup.json (an existing file is never overwritten)',
          );
        if (replaced !== undefined && typeof replaced !== 'string')
          throw new Error('replaced names a replaced key by its keychain account, as Settings → Keeper key lists it');
        const keyClass = classFor(cluster);
        const file = expandHome(path);
        const address = await exportClusterKey(keyClass, file, base, replaced);
        log.info(
          { address, keyClass, path: file, ...(replaced ? { replaced } : {}) },
          replaced ? 'replaced keeper key exported to a 0600 keypair file' : 'keeper key exported to a 0600 keypair file',
        );
        return { path: file, address, keyClass };
      },
    },
  };
}
