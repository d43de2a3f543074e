/**
 * JSON with u64 numbers: a validator writes lamports, slots and amounts as bare JSON integers that can
 * exceed 2^53, and kit's RPC transport parses them as bigint. JSON.stringify cannot write a bigint, so
 * bigints pass through a marker string that is unquoted afterwards.
 */
const MARKER = '__u64__';
const MARKED = new RegExp(`"${MARKER}(-?\\d+)"`, 'g');

export function stringifyWithU64(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARKER}${v}` : v)).replace(MARKED, '$1');
}
