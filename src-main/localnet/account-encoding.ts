/**
 * Account configs, filters and encodings shared by the JSON-RPC methods and the PubSub server, so both
 * read a request and show an account the same way a validator does (Agave's RpcAccountInfoConfig /
 * RpcFilterType / encode_ui_account): configs are parsed once with serde's messages, filters verified
 * as verify_filters does (memcmp bytes decoded once, not per account scanned), data encoded as
 * binary / base58 (128-byte limit), base64, base64+zstd or jsonParsed (SPL Token), with dataSlice.
 */
import { getBase58Decoder, getBase58Encoder, type Address, type ReadonlyUint8Array } from '@solana/kit';
import { Buffer } from 'node:buffer';
// A namespace import: zstdCompressSync only exists from Node 22.15, and a named import of it would make
// this module fail to load on the 22.12-22.14 that package.json allows.
import * as zlib from 'node:zlib';
import { RPC_INVALID_REQUEST, RpcError, invalidParams } from './rpc-errors';
import { isTokenProgram, parsedTokenData, type MintDecimals } from './spl-token-views';

const U64_MAX = 18_446_744_073_709_551_615n;
/** Agave's limits for getProgramAccounts/programSubscribe filters (solana-rpc-client-api). */
const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58_CHARS = 175;
const MAX_MEMCMP_BASE64_CHARS = 172;
/** SPL Token account layout: 165 bytes, state at 108 (0 = uninitialized); Token-2022 marks extended accounts with 2 at 165. */
const TOKEN_ACCOUNT_LEN = 165;
const TOKEN_ACCOUNT_STATE_OFFSET = 108;
const TOKEN_2022_ACCOUNT_TYPE_ACCOUNT = 2;
const TOKEN_MULTISIG_LEN = 355;
/** Agave's MAX_BASE58_BYTES. */
const MAX_BASE58_BYTES = 128;

export const ACCOUNT_ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'] as const;
export type AccountEncoding = (typeof ACCOUNT_ENCODINGS)[number];
const COMMITMENTS = ['processed', 'confirmed', 'finalized'];

export interface AccountView {
  encoding: AccountEncoding;
  dataSlice: { offset: number; length: number } | null;
}

// ---- Parameters, with the messages jsonrpc-core gives for what serde refuses -------------------------

/** What serde calls a JSON value in its "invalid type" errors. */
function jsonKind(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  return String(value);
}

/** jsonrpc-core's answer when the params do not deserialize: "Invalid params: <serde error>." */
export const badParams = (serdeMessage: string) => invalidParams(`Invalid params: ${serdeMessage}.`);
export const invalidType = (value: unknown, expected: string) => badParams(`invalid type: ${jsonKind(value)}, expected ${expected}`);
export const unknownVariant = (value: string, variants: readonly string[]) =>
  badParams(`unknown variant \`${value}\`, expected one of ${variants.map((v) => `\`${v}\``).join(', ')}`);

/** An optional config object: absent or null is the default; anything else must be a JSON object. */
export function configParam(value: unknown, struct: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidType(value, `struct ${struct}`);
  return value as Record<string, unknown>;
}

export function usizeParam(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidType(value, 'usize');
  return value;
}

function u64Param(value: unknown): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidType(value, 'u64');
  return BigInt(value);
}

/** An optional bool field (withContext, sortResults). */
export function optionalBoolParam(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidType(value, 'a boolean');
  return value;
}

export function commitmentParam(value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') throw invalidType(value, 'a commitment level');
  if (!COMMITMENTS.includes(value)) throw unknownVariant(value, COMMITMENTS);
}

/** True when this Node.js can compress with zstd (22.15 and later). */
export const zstdAvailable = (): boolean => typeof zlib.zstdCompressSync === 'function';

/** An optional UiAccountEncoding; base64+zstd is refused (-32602) where this Node.js has no zstd. */
export function encodingParam(value: unknown, fallback: AccountEncoding): AccountEncoding {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw invalidType(value, 'an account encoding');
  if (!(ACCOUNT_ENCODINGS as readonly string[]).includes(value)) throw unknownVariant(value, ACCOUNT_ENCODINGS);
  if (value === 'base64+zstd' && !zstdAvailable()) {
    throw invalidParams('Invalid param: base64+zstd encoding needs zstd, which this Node.js does not have (22.15 or later)');
  }
  return value as AccountEncoding;
}

/**
 * RpcAccountInfoConfig (encoding, dataSlice, commitment, minContextSlot). The default encoding is the
 * method's: "binary" for getAccountInfo, getProgramAccounts and subscriptions, "base64" for getMultipleAccounts.
 */
export function accountViewParam(config: Record<string, unknown>, defaultEncoding: AccountEncoding): AccountView {
  commitmentParam(config.commitment);
  if (config.minContextSlot !== undefined && config.minContextSlot !== null) u64Param(config.minContextSlot);
  const encoding = encodingParam(config.encoding, defaultEncoding);
  let dataSlice: AccountView['dataSlice'] = null;
  if (config.dataSlice !== undefined && config.dataSlice !== null) {
    const slice = configParam(config.dataSlice, 'UiDataSliceConfig');
    if (slice.offset === undefined) throw badParams('missing field `offset`');
    if (slice.length === undefined) throw badParams('missing field `length`');
    dataSlice = { offset: usizeParam(slice.offset), length: usizeParam(slice.length) };
  }
  return { encoding, dataSlice };
}

/** Agave's check_slice_and_encoding (requests only; subscriptions accept a slice with jsonParsed). */
export function checkSliceAndEncoding(view: AccountView): void {
  if (view.encoding === 'jsonParsed' && view.dataSlice) {
    throw new RpcError(RPC_INVALID_REQUEST, 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.');
  }
}

// ---- Filters -----------------------------------------------------------------------------------------

/** An RpcFilterType as deserialized: memcmp bytes still in their encoding (verifyFilters decodes them). */
export type FilterParam =
  | { dataSize: bigint }
  | { memcmp: { offset: number; bytes: { base58: string } | { base64: string } | { raw: Uint8Array } } }
  | { tokenAccountState: true };

/** A verified filter, memcmp bytes decoded once. */
export type AccountFilter = { dataSize: bigint } | { memcmp: { offset: number; bytes: Uint8Array } } | { tokenAccountState: true };

/** A filter refused by Agave's verify_filters; the message is its text (PubSub puts "Invalid params: " before it). */
export class FilterError extends Error {}

const MEMCMP_ENCODINGS = ['base58', 'base64', 'bytes'];
const FILTER_VARIANTS = ['dataSize', 'memcmp', 'tokenAccountState'];

function filterParam(raw: unknown): FilterParam {
  if (raw === 'tokenAccountState') return { tokenAccountState: true };
  if (typeof raw === 'string') throw unknownVariant(raw, FILTER_VARIANTS);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidType(raw, 'enum RpcFilterType');
  const keys = Object.keys(raw);
  if (keys.length !== 1) throw invalidType(raw, 'map with a single key');
  const [name] = keys as [string];
  const value = (raw as Record<string, unknown>)[name];
  switch (name) {
    case 'dataSize':
      return { dataSize: u64Param(value) };
    case 'tokenAccountState':
      if (value !== null) throw invalidType(value, 'unit variant');
      return { tokenAccountState: true };
    case 'memcmp': {
      const memcmp = configParam(value, 'Memcmp');
      if (memcmp.offset === undefined) throw badParams('missing field `offset`');
      if (memcmp.bytes === undefined) throw badParams('missing field `bytes`');
      const offset = usizeParam(memcmp.offset);
      const encoding = memcmp.encoding ?? null;
      if (encoding !== null && (typeof encoding !== 'string' || !MEMCMP_ENCODINGS.includes(encoding))) {
        throw typeof encoding === 'string' ? unknownVariant(encoding, MEMCMP_ENCODINGS) : invalidType(encoding, 'a memcmp encoding');
      }
      if (typeof memcmp.bytes === 'string' && encoding !== 'bytes') {
        return { memcmp: { offset, bytes: encoding === 'base64' ? { base64: memcmp.bytes } : { base58: memcmp.bytes } } };
      }
      if (Array.isArray(memcmp.bytes) && (encoding === null || encoding === 'bytes')) {
        if (!memcmp.bytes.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255)) throw invalidType(memcmp.bytes, 'u8');
        return { memcmp: { offset, bytes: { raw: Uint8Array.from(memcmp.bytes as number[]) } } };
      }
      throw badParams('data did not match any variant of untagged enum DataType');
    }
    default:
      throw unknownVariant(name, FILTER_VARIANTS);
  }
}

/** The `filters` of RpcProgramAccountsConfig, deserialized (not yet verified). */
export function filtersParam(raw: unknown): FilterParam[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidType(raw, 'a sequence');
  return raw.map(filterParam);
}

/** The Debug text of bs58's decode error, which Agave puts in its message. */
function base58Bytes(text: string): Uint8Array {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const chars = [...text];
  const index = chars.findIndex((c) => !alphabet.includes(c));
  if (index >= 0) throw new FilterError(`Invalid param: Base58DecodeError(InvalidCharacter { character: '${chars[index]}', index: ${index} })`);
  return Uint8Array.from(getBase58Encoder().encode(text));
}

function base64Bytes(text: string): Uint8Array {
  const bad = [...text].findIndex((c) => !/[A-Za-z0-9+/=]/.test(c));
  if (bad >= 0) throw new FilterError(`Invalid param: Base64DecodeError(InvalidByte(${bad}, ${text.charCodeAt(bad)}))`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new FilterError('Invalid param: Base64DecodeError(InvalidPadding)');
  return Uint8Array.from(Buffer.from(text, 'base64'));
}

const dataTooLarge = () => new FilterError('Invalid param: DataTooLarge');

/** Agave's verify_filters: at most 4, then each memcmp within 128 bytes and decodable. Throws FilterError. */
export function verifyFilters(filters: FilterParam[]): AccountFilter[] {
  if (filters.length > MAX_FILTERS) throw new FilterError(`Too many filters provided; max ${MAX_FILTERS}`);
  return filters.map((filter) => {
    if (!('memcmp' in filter)) return filter;
    const { offset, bytes: encoded } = filter.memcmp;
    let bytes: Uint8Array;
    if ('raw' in encoded) {
      bytes = encoded.raw;
    } else if ('base64' in encoded) {
      if (encoded.base64.length > MAX_MEMCMP_BASE64_CHARS) throw dataTooLarge();
      bytes = base64Bytes(encoded.base64);
    } else {
      if (encoded.base58.length > MAX_MEMCMP_BASE58_CHARS) throw dataTooLarge();
      bytes = base58Bytes(encoded.base58);
    }
    if (bytes.length > MAX_MEMCMP_BYTES) throw dataTooLarge();
    return { memcmp: { offset, bytes } };
  });
}

/** Token (or Token-2022) account data that is initialized: Agave's filter_allows for tokenAccountState. */
function isInitializedTokenAccount(data: ReadonlyUint8Array): boolean {
  if (data.length < TOKEN_ACCOUNT_LEN || data[TOKEN_ACCOUNT_STATE_OFFSET] === 0) return false;
  return data.length === TOKEN_ACCOUNT_LEN || (data.length !== TOKEN_MULTISIG_LEN && data[TOKEN_ACCOUNT_LEN] === TOKEN_2022_ACCOUNT_TYPE_ACCOUNT);
}

/** Agave's filter_allows, for every filter. */
export function matchesFilters(data: ReadonlyUint8Array, filters: readonly AccountFilter[]): boolean {
  for (const filter of filters) {
    if ('dataSize' in filter) {
      if (BigInt(data.length) !== filter.dataSize) return false;
    } else if ('memcmp' in filter) {
      const { offset, bytes } = filter.memcmp;
      if (offset + bytes.length > data.length) return false;
      for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
    } else if (!isInitializedTokenAccount(data)) {
      return false;
    }
  }
  return true;
}

// ---- Encoding, as Agave's encode_ui_account ---------------------------------------------------------

export interface AccountLike {
  data: ReadonlyUint8Array;
  executable: boolean;
  lamports: bigint;
  programAddress: Address;
  /** u64::MAX (rent-exempt) unless given: a closed account's default is 0. */
  rentEpoch?: bigint;
}

export interface EncodeOptions {
  /** Decimals of a token account's mint, for jsonParsed. */
  decimalsOf: MintDecimals;
  /**
   * Base58 data over 128 bytes: a request is refused (-32600, Agave's encode_account); a subscription
   * gets the text Agave's encode_ui_account puts in its place.
   */
  base58Overflow: 'refuse' | 'text';
}

const asBuffer = (bytes: ReadonlyUint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

function sliceOf(data: ReadonlyUint8Array, slice: AccountView['dataSlice']): ReadonlyUint8Array {
  return slice ? data.subarray(slice.offset, slice.offset + slice.length) : data;
}

function encodeData(bytes: ReadonlyUint8Array, encoding: AccountEncoding, base58Overflow: EncodeOptions['base58Overflow']): unknown {
  switch (encoding) {
    case 'binary':
    case 'base58': {
      let text: string;
      if (bytes.length <= MAX_BASE58_BYTES) text = getBase58Decoder().decode(bytes);
      else if (base58Overflow === 'text') text = 'error: data too large for bs58 encoding';
      else {
        throw new RpcError(RPC_INVALID_REQUEST, `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
      }
      return encoding === 'binary' ? text : [text, 'base58']; // binary: legacy, the bare string
    }
    case 'base64+zstd':
      // Refused at parse time without zstd; Agave falls back to plain base64 when compression fails.
      if (zstdAvailable()) return [zlib.zstdCompressSync(bytes as Uint8Array).toString('base64'), 'base64+zstd'];
      return [asBuffer(bytes).toString('base64'), 'base64'];
    case 'base64':
    case 'jsonParsed': // data a validator cannot parse falls back to base64
      return [asBuffer(bytes).toString('base64'), 'base64'];
  }
}

/**
 * An account as a validator shows it (UiAccount). jsonParsed parses SPL Token accounts and mints whole
 * (Agave's get_parsed_token_account passes no slice, to its base64 fallback either); other owners fall
 * back to base64 of the slice.
 */
export function encodeAccount(account: AccountLike, view: AccountView, options: EncodeOptions) {
  let data: unknown = null;
  let slice = view.dataSlice;
  if (view.encoding === 'jsonParsed' && isTokenProgram(account.programAddress)) {
    data = parsedTokenData(account, options.decimalsOf);
    slice = null;
  }
  return {
    lamports: account.lamports,
    data: data ?? encodeData(sliceOf(account.data, slice), view.encoding, options.base58Overflow),
    owner: account.programAddress,
    executable: account.executable,
    rentEpoch: account.rentEpoch ?? U64_MAX,
    space: BigInt(account.data.length),
  };
}
