/**
 * The oracle seed of a wager, exactly as request_randomness derives it on chain:
 *   SHA256("SVC/ORACLE-SEED/v1" || program (32) || wager (32) || open_slot (u64 LE) || s* (u64 LE) || h* (32))
 */
import { getAddressEncoder, getBase58Encoder, getU64Encoder, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';

export const ORACLE_SEED_TAG = 'SVC/ORACLE-SEED/v1';

export interface OracleSeedInput {
  programAddress: Address;
  wager: Address;
  openSlot: bigint;
  /** s*: the first slot after the open present in SlotHashes. */
  sStar: bigint;
  /** h*: the hash of s* (32 bytes). */
  hStar: Uint8Array;
}

/** The 32-byte seed request_randomness passes to the oracle for these inputs. */
export function deriveOracleSeed({ programAddress, wager, openSlot, sStar, hStar }: OracleSeedInput): Uint8Array {
  if (hStar.length !== 32) throw new Error(`h* must be 32 bytes, got ${hStar.length}`);
  const address = getAddressEncoder();
  const u64 = getU64Encoder();
  const parts = [address.encode(programAddress), address.encode(wager), u64.encode(openSlot), u64.encode(sStar), hStar];
  const hash = createHash('sha256').update(ORACLE_SEED_TAG);
  for (const part of parts) hash.update(Uint8Array.from(part));
  return new Uint8Array(hash.digest());
}

export interface SlotHash {
  slot: bigint;
  /** base58, as RPC and LiteSVM report SlotHashes entries. */
  hash: string;
}

/**
 * s* and h* for a wager opened at `openSlot`: the oldest SlotHashes entry after the open, provided no
 * slot between the open and it is missing from the list (else the program refuses it too).
 */
export function findFirstSlotHashAfter(
  slotHashes: readonly SlotHash[],
  openSlot: bigint,
): { sStar: bigint; hStar: Uint8Array; index: number } | null {
  let first: SlotHash | undefined;
  let older: SlotHash | undefined;
  for (const entry of slotHashes) {
    if (entry.slot > openSlot && (first === undefined || entry.slot < first.slot)) first = entry;
    if (entry.slot <= openSlot && (older === undefined || entry.slot > older.slot)) older = entry;
  }
  if (!first) return null;
  if (first.slot !== openSlot + 1n && !older) return null;
  // Its index in the sysvar (newest first): the program's lookup starts there.
  const index = slotHashes.filter((entry) => entry.slot > first.slot).length;
  return { sStar: first.slot, hStar: new Uint8Array(getBase58Encoder().encode(first.hash)), index };
}
