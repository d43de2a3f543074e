/**
 * The console contract, keeper key: the key in use, both keychain keys and the keys they replaced; making,
 * importing and exporting one. Never a secret.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { KeyClass } from '../key-class';
import type { KeySource } from './status';

export interface KeyView {
  /** The key the keeper cranks with now. */
  inUse: { address: string; source: KeySource } | null;
  /** The keeper key stored in the OS keychain for the current cluster's class, if any; `error` says why the keychain cannot be read. */
  keychain: { address: string | null; error: string | null };
  /** The current cluster's key class: the one generate, import and export act on unless told another cluster. */
  current: KeyClass;
  /** Both keychain keys, one per key class (mainnet-beta never uses the local/test one). */
  accounts: KeyAccountView[];
}

export interface KeyAccountView {
  keyClass: KeyClass;
  /** The keychain account (service "wager-keeper"). */
  account: string;
  /** The clusters this key cranks, in words. */
  clusters: string;
  address: string | null;
  error: string | null;
  /** The keeper cranks with this key now. */
  inUse: boolean;
  /** Keys this account held before a replacement, kept in the keychain (oldest first): exportable like this one. */
  replaced: ReplacedKeyView[];
}

/** A replaced keeper key kept in the keychain as `<account>-replaced-<UTC time>`. Never the secret. */
export interface ReplacedKeyView {
  /** Its keychain account, e.g. "keeper-replaced-2026-11-28T22-40-05Z": what exportKey's `replaced` names. */
  account: string;
  address: string;
  /** When it was replaced (ISO 8601, UTC). */
  replacedAt: string;
}

/** A keeper key written to a backup file (Solana CLI keypair format, mode 0600). Never the secret. */
export interface KeyExportView {
  path: string;
  address: string;
  keyClass: KeyClass;
}

/** The cluster a key action is about (its key class); absent: the console's current cluster. */
export type KeyCluster = 'localnet' | 'devnet' | 'testnet' | 'mainnet-beta';

/** Keys's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface KeysApi {
  /** Creates a new keeper key in the OS keychain; refuses to replace an existing one unless `replace`. */
  generateKey(args: { replace: boolean; cluster?: KeyCluster }): Promise<KeyView>;
  /**
   * Imports a keeper key into the OS keychain: a file at `path` (a Solana CLI keypair file, or a file
   * holding a base58 secret) or `secret` (a base58 secret or a keypair JSON array, pasted). Never logged.
   */
  importKey(args: { path?: string; secret?: string; replace: boolean; cluster?: KeyCluster }): Promise<KeyView>;
  /**
   * Writes the keychain key to `path` (Solana CLI keypair file, mode 0600; refused if the path exists), or
   * with `replaced` (an account from KeyAccountView.replaced) that replaced key. Answers the address, never the secret.
   */
  exportKey(args: { path: string; confirm: true; cluster?: KeyCluster; replaced?: string }): Promise<KeyExportView>;
}

/** Keys's method names, in the order the transports list them. */
export const KEYS_METHODS = ['generateKey', 'importKey', 'exportKey'] as const satisfies readonly (keyof KeysApi)[];
