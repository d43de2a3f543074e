/**
 * What the keeper reads from the chain, batched: wager accounts and their oracle requests with
 * getMultipleAccounts (100 per call), the SlotHashes sysvar, the program config.
 */
import {
  address,
  getAddressEncoder,
  getBase58Decoder,
  getBase64Encoder,
  type Address,
  type Base64EncodedBytes,
  type Base64EncodedDataResponse,
  type ReadonlyUint8Array,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { createHash } from 'node:crypto';
import { fulfilledRandomness, getNetworkStateDiscriminatorBytes, getRandomnessV2DiscriminatorBytes } from '../protocol/oracle';
import { drawBucket, getConfigDecoder, getConfigDiscriminatorBytes, getPaytableDecoder, getWagerDecoder, payoutFor, type Config, type SlotHash, type Wager } from '../protocol/wager';

export const SLOT_HASHES_SYSVAR = address('SysvarS1otHashes111111111111111111111111111');
const BATCH = 100;

type EncodedAccount = { data: Base64EncodedDataResponse; owner: Address } | null;

export async function fetchAccounts(rpc: Rpc<SolanaRpcApi>, addresses: readonly Address[]): Promise<EncodedAccount[]> {
  const out: EncodedAccount[] = [];
  for (let i = 0; i < addresses.length; i += BATCH) {
    const { value } = await rpc.getMultipleAccounts(addresses.slice(i, i + BATCH), { encoding: 'base64', commitment: 'confirmed' }).send();
    out.push(...value.map((account) => (account ? { data: account.data, owner: account.owner } : null)));
  }
  return out;
}

/**
 * True when `wager` is the account at `at`: the wager PDA ["wager", integrator authority, nonce] with
 * its stored bump. One hash, no bump search (the address is on chain, so it is off the curve already).
 * Hand-written because kit only offers the searching derivation.
 */
export function isWagerAt(at: Address, wager: Wager, program: Address): boolean {
  const nonce = Buffer.alloc(8);
  nonce.writeBigUInt64LE(wager.nonce);
  const encoder = getAddressEncoder();
  const hash = createHash('sha256')
    .update('wager')
    .update(Uint8Array.from(encoder.encode(wager.integratorAuthority)))
    .update(nonce)
    .update(Uint8Array.of(wager.bump))
    .update(Uint8Array.from(encoder.encode(program)))
    .update('ProgramDerivedAddress')
    .digest();
  return getBase58Decoder().decode(hash) === at;
}

const bytesOf = (account: NonNullable<EncodedAccount>) => getBase64Encoder().encode(account.data[0]);

/** A wager account's decoded record, or null when the account is closed or not a wager of `program`. */
export function decodeWagerAccount(account: EncodedAccount, program: Address): Wager | null {
  if (!account || account.owner !== program) return null;
  const bytes = bytesOf(account);
  if (bytes.length !== 336) return null;
  try {
    const wager = getWagerDecoder().decode(bytes);
    return wager.status >= 1 && wager.status <= 3 ? wager : null;
  } catch {
    return null;
  }
}

/** RandomnessV2 variant byte (after the discriminator): 0 pending, 1 fulfilled. */
const RANDOMNESS_FULFILLED_VARIANT = 1;

/**
 * A getProgramAccounts/programSubscribe filter that matches only fulfilled oracle requests, so the RPC
 * drops every other oracle write (new pending requests, the network state) before it reaches us.
 */
export function fulfilledRequestFilter() {
  const bytes = Uint8Array.from([...getRandomnessV2DiscriminatorBytes(), RANDOMNESS_FULFILLED_VARIANT]);
  return { memcmp: { offset: 0n, bytes: Buffer.from(bytes).toString('base64') as Base64EncodedBytes, encoding: 'base64' as const } };
}

/** True when an oracle request account holds its randomness (RandomnessV2 fulfilled). */
export function isRequestFulfilled(account: EncodedAccount, oracleProgram: Address): boolean {
  if (!account || account.owner !== oracleProgram) return false;
  return fulfilledRandomness(bytesOf(account)) !== null;
}

/**
 * The bucket and payout a settlement of `wager` draws, computed as the program does (draw.c) from its
 * fulfilled randomness and its paytable: for when no RPC shows the settle transaction's event.
 */
export async function drawnSettlement(rpc: Rpc<SolanaRpcApi>, wager: Wager, oracleProgram: Address): Promise<{ bucket: number; payout: bigint } | null> {
  const [request, paytable] = await fetchAccounts(rpc, [wager.oracleRequest, wager.paytable]);
  if (!request || request.owner !== oracleProgram || !paytable) return null;
  const randomness = fulfilledRandomness(bytesOf(request));
  if (!randomness) return null;
  const table = getPaytableDecoder().decode(bytesOf(paytable));
  const bucket = drawBucket(table, randomness);
  return { bucket, payout: payoutFor(wager.stake, table.buckets[bucket]!.multiplierBps) };
}

export async function fetchSlotHashes(rpc: Rpc<SolanaRpcApi>): Promise<SlotHash[]> {
  const { value } = await rpc.getAccountInfo(SLOT_HASHES_SYSVAR, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) return [];
  const bytes = getBase64Encoder().encode(value.data[0]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = Number(view.getBigUint64(0, true));
  const base58 = getBase58Decoder();
  const entries: SlotHash[] = [];
  for (let i = 0; i < count && 8 + (i + 1) * 40 <= bytes.length; i++) {
    const at = 8 + i * 40;
    entries.push({ slot: view.getBigUint64(at, true), hash: base58.decode(bytes.subarray(at + 8, at + 40)) });
  }
  return entries;
}

/** True when `bytes` start with `discriminator`. */
const startsWith = (bytes: ArrayLike<number>, discriminator: ArrayLike<number>) => Array.from(discriminator).every((byte, index) => bytes[index] === byte);

export async function fetchConfig(rpc: Rpc<SolanaRpcApi>, configAddress: Address, program?: Address): Promise<Config> {
  const { value } = await rpc.getAccountInfo(configAddress, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) throw new Error(`the wager program's config ${configAddress} does not exist on this cluster`);
  const bytes = getBase64Encoder().encode(value.data[0]);
  // Owner and discriminator checked: an answer about another account (a stale or mixed-up RPC answer) is refused.
  if ((program && value.owner !== program) || !startsWith(bytes, getConfigDiscriminatorBytes())) {
    throw new Error(`the RPC answered for ${configAddress} with an account that is not the wager program's config (a stale or mixed-up answer)`);
  }
  return getConfigDecoder().decode(bytes);
}

/** The oracle's network state account (owner and discriminator checked), as bytes. */
export async function fetchNetworkStateBytes(rpc: Rpc<SolanaRpcApi>, networkState: Address, oracleProgram: Address): Promise<ReadonlyUint8Array> {
  const { value } = await rpc.getAccountInfo(networkState, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) throw new Error(`the oracle's network state ${networkState} does not exist`);
  const bytes = getBase64Encoder().encode(value.data[0]);
  if (value.owner !== oracleProgram || !startsWith(bytes, getNetworkStateDiscriminatorBytes())) {
    throw new Error(`the RPC answered for ${networkState} with an account that is not the oracle's network state (a stale or mixed-up answer)`);
  }
  return bytes;
}
