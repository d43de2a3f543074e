/**
 * Where the keeper's key lives: the OS keychain (service "wager-keeper", via @napi-rs/keyring) or a
 * Solana CLI keypair file. The secret never leaves this module but as a signer; only the address is
 * ever logged or shown.
 */
import { Entry } from '@napi-rs/keyring';
import { existsSync } from 'node:fs';
import type { KeyPairSigner } from '@solana/kit';
import { generateKeypairWithBytes, keypairFromBytes, readKeypairFile } from './keypair-bytes';

export const KEYCHAIN_SERVICE = 'wager-keeper';
export const KEYCHAIN_ACCOUNT = 'keeper';

export class KeychainUnavailableError extends Error {
  constructor(cause: string) {
    super(
      `the OS keychain is not available (${cause}); run the keeper with --keypair FILE (a Solana CLI keypair file), ` +
        'or start a Secret Service (e.g. gnome-keyring) for this session',
    );
  }
}

export interface KeeperKey {
  signer: KeyPairSigner;
  source: 'keychain' | 'keychain (created)' | 'file';
}

// The Secret Service only, never the kernel keyring (which forgets at reboot) as a silent fallback.
const entry = (account: string) => new Entry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });

/**
 * On Linux the keychain is the Secret Service on the session D-Bus. Without a reachable session bus the
 * keyring library can still answer from the kernel keyring, which forgets everything at reboot: a keeper
 * key kept only there would be lost with its funds. So no bus, no keychain.
 */
export function sessionBusProblem(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const address = process.env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return 'no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)';
  const path = /(?:^|;)unix:path=([^,;]+)/.exec(address)?.[1];
  if (path && !existsSync(path)) return `the D-Bus session socket ${path} does not exist`;
  return undefined;
}

function readKeychain(account: string): string | null {
  const problem = sessionBusProblem();
  if (problem) throw new KeychainUnavailableError(problem);
  try {
    return entry(account).getPassword() ?? null;
  } catch (error) {
    throw new KeychainUnavailableError((error as Error).message);
  }
}

/**
 * The keeper's signer: from `keypairFile` when given; else from the keychain, creating and storing a new
 * key on first use (the caller shows its address so the operator can fund it).
 */
export async function loadKeeperKey(options: { keypairFile?: string; account?: string } = {}): Promise<KeeperKey> {
  if (options.keypairFile) return { signer: await readKeypairFile(options.keypairFile), source: 'file' };
  const account = options.account ?? KEYCHAIN_ACCOUNT;
  const stored = readKeychain(account);
  if (stored) return { signer: await keypairFromBytes(JSON.parse(stored) as number[]), source: 'keychain' };
  const fresh = await generateKeypairWithBytes();
  try {
    entry(account).setPassword(JSON.stringify(Array.from(fresh.secretKey)));
  } catch (error) {
    throw new KeychainUnavailableError((error as Error).message);
  }
  return { signer: fresh.signer, source: 'keychain (created)' };
}

/** The address of the keeper key in the keychain, or null when none is stored (never creates one). */
export async function readKeeperKeyAddress(account = KEYCHAIN_ACCOUNT): Promise<string | null> {
  const stored = readKeychain(account);
  return stored ? (await keypairFromBytes(JSON.parse(stored) as number[])).address : null;
}

/** The signer stored in the keychain under `account`, or null when none is stored (never creates one). */
export async function readKeychainSigner(account: string): Promise<KeyPairSigner | null> {
  const stored = readKeychain(account);
  return stored ? keypairFromBytes(JSON.parse(stored) as number[]) : null;
}

/** The 64 secret bytes stored under `account`, or null (for a backup only; the caller zeroes them after use). */
export function readKeychainBytes(account: string): Uint8Array | null {
  const stored = readKeychain(account);
  return stored ? Uint8Array.from(JSON.parse(stored) as number[]) : null;
}

/** Stores a keypair (64 bytes) in the keychain, replacing any previous keeper key. */
export function storeKeeperKey(secretKey: Uint8Array, account = KEYCHAIN_ACCOUNT): void {
  const problem = sessionBusProblem();
  if (problem) throw new KeychainUnavailableError(problem);
  try {
    entry(account).setPassword(JSON.stringify(Array.from(secretKey)));
  } catch (error) {
    throw new KeychainUnavailableError((error as Error).message);
  }
}

/** The text stored under `account` (service "wager-keeper"), or null: for records beside the keys (replaced-keys.ts). */
export function readKeychainText(account: string): string | null {
  return readKeychain(account);
}

/** Stores `text` under `account` (service "wager-keeper"), replacing what was there. */
export function writeKeychainText(account: string, text: string): void {
  const problem = sessionBusProblem();
  if (problem) throw new KeychainUnavailableError(problem);
  try {
    entry(account).setPassword(text);
  } catch (error) {
    throw new KeychainUnavailableError((error as Error).message);
  }
}

export function deleteKeeperKey(account = KEYCHAIN_ACCOUNT): void {
  try {
    entry(account).deletePassword();
  } catch (error) {
    throw new KeychainUnavailableError((error as Error).message);
  }
}
