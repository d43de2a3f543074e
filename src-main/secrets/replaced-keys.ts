/**
 * A keeper key that is replaced is kept, never destroyed (issue 33): before a new key takes a keychain
 * account, the old one is copied to `<account>-replaced-<UTC time>` (e.g. keeper-replaced-2026-11-28T22-40-05Z)
 * in the same service, read back and compared, and only then may the account be overwritten. SOL left
 * on the old address stays spendable: the key is listed (address, when) and can be exported like the
 * current one. The list (addresses and account names, nothing secret) is kept in the keychain too, under
 * `<account>-replaced`, so the desktop app, `serve` and the `key` command all see the same one.
 */
import { keypairFromBytes } from './keypair-bytes';
import { readKeychainBytes, readKeychainText, storeKeeperKey, writeKeychainText } from './keeper-key';

/** A replaced key as listed: where it is kept and whose key it is. Never the secret. */
export interface ReplacedKey {
  /** Its keychain account, e.g. "keeper-replaced-2026-11-28T22-40-05Z". */
  account: string;
  address: string;
  /** When it was replaced (ISO 8601, UTC). */
  replacedAt: string;
}

const listAccount = (account: string) => `${account}-replaced`;

/**
 * The account a key replaced at `at` is kept under (UTC to the second, colons as dashes: some keychains
 * and file names dislike them).
 * @example replacedAccountName('keeper', new Date('2026-11-28T22:40:05.123Z')) // 'keeper-replaced-2026-11-28T22-40-05Z'
 */
export function replacedAccountName(account: string, at: Date): string {
  return `${listAccount(account)}-${at.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-')}`;
}

/** The keys replaced on `account`, oldest first (an empty list when none). */
export function listReplacedKeys(account: string): ReplacedKey[] {
  const stored = readKeychainText(listAccount(account));
  if (!stored) return [];
  const parsed = JSON.parse(stored) as unknown;
  return Array.isArray(parsed) ? (parsed as ReplacedKey[]) : [];
}

/**
 * Copies the key stored under `account` to its own `-replaced-<time>` account and lists it; answers
 * it, or null when `account` holds no key. Throws (and nothing may be replaced then) when the copy
 * cannot be written or does not read back as the same bytes.
 */
export async function keepReplacedKey(account: string, now = new Date()): Promise<ReplacedKey | null> {
  const bytes = readKeychainBytes(account);
  if (!bytes) return null;
  try {
    const { address } = await keypairFromBytes(bytes);
    const listed = listReplacedKeys(account);
    const base = replacedAccountName(account, now);
    // Two replacements within one second get -2, -3, ...: a copy never overwrites another.
    let kept = base;
    for (let n = 2; listed.some((entry) => entry.account === kept) || readKeychainText(kept) !== null; n++)
      kept = `${base}-${n}`;
    storeKeeperKey(bytes, kept);
    const back = readKeychainBytes(kept);
    const same = back !== null && back.length === bytes.length && back.every((byte, index) => byte === bytes[index]);
    back?.fill(0);
    if (!same)
      throw new Error(
        `the keychain did not keep a copy of the keeper key ${address} (account ${kept} reads back otherwise), so it was not replaced: check the keychain, or export the key first`,
      );
    const entry: ReplacedKey = { account: kept, address, replacedAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z') };
    writeKeychainText(listAccount(account), JSON.stringify([...listed, entry]));
    return entry;
  } finally {
    bytes.fill(0);
  }
}

/**
 * The secret bytes of a key replaced on `account` (for an export; the caller zeroes them). Only an
 * account on that list is read: the name comes from a page or a command line.
 */
export function readReplacedKeyBytes(account: string, replaced: string): { bytes: Uint8Array; entry: ReplacedKey } {
  const entry = listReplacedKeys(account).find((listed) => listed.account === replaced);
  if (!entry)
    throw new Error(
      `'${replaced}' is not a replaced keeper key of ${account}: Settings → Keeper key (or wager-keeper key show --replaced) lists them`,
    );
  const bytes = readKeychainBytes(entry.account);
  if (!bytes)
    throw new Error(`the keychain no longer holds the replaced key ${entry.address} (account ${entry.account})`);
  return { bytes, entry };
}
