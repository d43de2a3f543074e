/**
 * One keeper key per cluster class: mainnet-beta never cranks with the key that cranks localnets, devnet,
 * testnet and custom clusters. The keychain account "keeper" stays that local/test key (existing installs
 * keep theirs); mainnet-beta's is "keeper-mainnet-beta". The cluster is what its genesis hash says
 * (cluster-identity.ts), never what a URL looks like. Secrets leave this module only as signers or as a
 * 0600 backup file; only addresses are returned.
 */
import type { KeyPairSigner } from '@solana/kit';
import type { ClusterName } from '../../src-shared/cluster-identity';
import type { KeyClass } from '../../src-shared/key-class';
import {
  KEYCHAIN_ACCOUNT,
  KeychainUnavailableError,
  loadKeeperKey,
  readKeeperKeyAddress,
  readKeychainBytes,
  storeKeeperKey,
} from '../secrets/keeper-key';
import { keypairFromBytes } from '../secrets/keypair-bytes';
import { writeKeypairFile } from '../secrets/keypair-format';
import { keepReplacedKey, listReplacedKeys, readReplacedKeyBytes, type ReplacedKey } from '../secrets/replaced-keys';

export type { KeyClass };

export const KEY_CLASSES: readonly KeyClass[] = ['local', 'mainnet-beta'];

/** The clusters a key class cranks, in words. */
export const KEY_CLASS_CLUSTERS: Readonly<Record<KeyClass, string>> = {
  local: 'localnet, devnet, testnet and custom clusters',
  'mainnet-beta': 'mainnet-beta',
};

export const keyClassOf = (cluster: ClusterName): KeyClass =>
  cluster === 'mainnet-beta' ? 'mainnet-beta' : 'local';

/**
 * The keychain account of a key class; `base` is the local/test key's account ("keeper").
 * @example keychainAccountFor('mainnet-beta') // 'keeper-mainnet-beta'
 */
export function keychainAccountFor(keyClass: KeyClass, base = KEYCHAIN_ACCOUNT): string {
  return keyClass === 'mainnet-beta' ? `${base}-mainnet-beta` : base;
}

/** The other class's stored key address, or null (none stored, or the keychain cannot be read: nothing to compare). */
async function otherClassAddress(keyClass: KeyClass, base: string): Promise<string | null> {
  const other: KeyClass = keyClass === 'mainnet-beta' ? 'local' : 'mainnet-beta';
  try {
    return await readKeeperKeyAddress(keychainAccountFor(other, base));
  } catch (error) {
    if (error instanceof KeychainUnavailableError) return null;
    throw error;
  }
}

/** Throws when `address` is the other class's key: one key must never crank both mainnet-beta and the test clusters. */
export async function refuseSharedKey(
  keyClass: KeyClass,
  address: string,
  base = KEYCHAIN_ACCOUNT,
  what = `the key ${address}`,
): Promise<void> {
  if ((await otherClassAddress(keyClass, base)) !== address) return;
  throw new Error(
    keyClass === 'mainnet-beta'
      ? `${what} is the key that cranks local and test clusters, and mainnet-beta never uses that key: give mainnet-beta its own key (run without --keypair to make one, or import another keypair).`
      : `${what} is the key that cranks mainnet-beta, and the local and test clusters never use that key: give them another key.`,
  );
}

/**
 * The key the keeper cranks `cluster` with: `keypairFile` when given (refused on mainnet-beta if it is
 * the local/test key), else the class's keychain key, created on the first start on that class.
 */
export async function loadClusterKeeperKey(options: {
  cluster: ClusterName;
  keypairFile?: string;
  baseAccount?: string;
}): Promise<{ signer: KeyPairSigner; source: 'keychain' | 'keychain (created)' | 'file' }> {
  const base = options.baseAccount ?? KEYCHAIN_ACCOUNT;
  const keyClass = keyClassOf(options.cluster);
  const key = await loadKeeperKey({
    keypairFile: options.keypairFile,
    account: keychainAccountFor(keyClass, base),
  });
  if (options.keypairFile)
    await refuseSharedKey(
      keyClass,
      key.signer.address,
      base,
      `--keypair ${options.keypairFile} (${key.signer.address})`,
    );
  return key;
}

/** The address of a class's keychain key, or null when none is stored. */
export function clusterKeyAddress(keyClass: KeyClass, base = KEYCHAIN_ACCOUNT): Promise<string | null> {
  return readKeeperKeyAddress(keychainAccountFor(keyClass, base));
}

/** The keys replaced on a class's account (kept in the keychain, replaced-keys.ts), oldest first. */
export function replacedClusterKeys(keyClass: KeyClass, base = KEYCHAIN_ACCOUNT): ReplacedKey[] {
  return listReplacedKeys(keychainAccountFor(keyClass, base));
}

/**
 * Writes a class's keychain key to `path` as a Solana CLI keypair file (mode 0600, never over an
 * existing file); answers its address. With `replaced` (a replaced key's account, as listed), that key.
 */
export async function exportClusterKey(
  keyClass: KeyClass,
  path: string,
  base = KEYCHAIN_ACCOUNT,
  replaced?: string,
): Promise<string> {
  const account = keychainAccountFor(keyClass, base);
  const bytes = replaced === undefined ? readKeychainBytes(account) : readReplacedKeyBytes(account, replaced).bytes;
  if (!bytes)
    throw new Error(
      `the keychain holds no ${keyClass === 'mainnet-beta' ? 'mainnet-beta' : 'local/test'} keeper key to export: generate or import one first`,
    );
  try {
    const { address } = await keypairFromBytes(bytes);
    await writeKeypairFile(path, bytes);
    return address;
  } finally {
    bytes.fill(0);
  }
}

/**
 * Stores `bytes` as a class's keychain key. Refuses the other class's key, and (unless `replace`) a
 * different key already stored: SOL on it would be left behind unnoticed. A key replaced is first kept
 * as `<account>-replaced-<UTC time>` (replaced-keys.ts); if that copy fails nothing is replaced. Zeroes `bytes`.
 */
export async function importClusterKey(
  keyClass: KeyClass,
  bytes: Uint8Array,
  options: { replace: boolean; base?: string },
): Promise<string> {
  const base = options.base ?? KEYCHAIN_ACCOUNT;
  try {
    const { address } = await keypairFromBytes(bytes);
    await refuseSharedKey(keyClass, address, base);
    const existing = await clusterKeyAddress(keyClass, base);
    if (existing && existing !== address && !options.replace)
      throw new Error(
        `the keychain already holds a ${keyClass === 'mainnet-beta' ? 'mainnet-beta' : 'local/test'} keeper key (${existing}); importing ${address} replaces it: move the SOL left on ${existing} first, then confirm the replacement`,
      );
    if (existing && existing !== address) await keepReplacedKey(keychainAccountFor(keyClass, base));
    storeKeeperKey(bytes, keychainAccountFor(keyClass, base));
    return address;
  } finally {
    bytes.fill(0);
  }
}
