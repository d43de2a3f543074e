/** Paytable names: UTF-8, at most 32 bytes, zero padded on chain (the PDA seed and the stored name). */
export function encodePaytableName(name: string): Uint8Array {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length === 0 || bytes.length > 32) throw new Error(`a paytable name is 1 to 32 UTF-8 bytes, got ${bytes.length}`);
  const padded = new Uint8Array(32);
  padded.set(bytes);
  return padded;
}

export function decodePaytableName(bytes: ArrayLike<number>): string {
  const array = Uint8Array.from(bytes);
  const end = array.indexOf(0);
  return new TextDecoder().decode(end === -1 ? array : array.subarray(0, end));
}
