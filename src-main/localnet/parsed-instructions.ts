/**
 * The `jsonParsed` form of instructions, as Agave's solana-transaction-status writes it (parse_instruction,
 * parse_system, parse_token, parse_associated_token): a parsable program's instruction becomes
 * `{ program, programId, parsed: { type, info }, stackHeight }` (a memo's `parsed` is its text), anything
 * else `{ programId, accounts, data, stackHeight }` (PartiallyDecodedInstruction). Agave parses System,
 * SPL Token and Token-2022, the Associated Token Account program and Memo here; it does not parse Compute
 * Budget, so neither does this. Written here because no JS package reproduces Agave's parsers; the
 * Token-2022 extension instructions, vote, stake, loaders and lookup tables are not parsed (they come
 * partially decoded; docs/localnet.md).
 */
import { getBase58Decoder } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { isTokenProgram, uiTokenAmount } from './spl-token-views';

/** Memo v1 and v3 (no kept client package names them). */
const MEMO_PROGRAMS = new Set(['Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr']);

export interface InstructionToParse {
  programId: string;
  /** Indexes into `keys`. */
  accounts: readonly number[];
  data: Uint8Array;
  stackHeight: number | null;
}

type Info = Record<string, unknown>;
type Parsed = { type: string; info?: Info };

/** Not parsable as Agave would parse it: the instruction comes partially decoded. */
class NotParsable extends Error {}

/** Reads the little-endian fields of one instruction's data, refusing to read past its end. */
class Reader {
  private offset = 0;
  constructor(private readonly bytes: Uint8Array) {}
  private take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new NotParsable();
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
  u8 = () => this.take(1)[0]!;
  u32 = () => new DataView(this.take(4).slice().buffer).getUint32(0, true);
  u64 = () => new DataView(this.take(8).slice().buffer).getBigUint64(0, true);
  pubkey = () => getBase58Decoder().decode(this.take(32));
  /** bincode String: u64 length, then UTF-8 bytes. */
  string = () => new TextDecoder('utf-8', { fatal: true }).decode(this.take(Number(this.u64())));
  /** spl-token's COption<Pubkey> in instruction data: a 1-byte tag, then the key when 1. */
  optionalPubkey = () => {
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag !== 1) throw new NotParsable();
    return this.pubkey();
  };
}

/** A u64 as serde_json writes it in `info`: a JSON number (the RPC layer writes bigints as bare integers). */
const number = (value: bigint) => value;

function parseSystem(data: Uint8Array, key: (position: number) => string, count: number): Parsed {
  const need = (n: number) => {
    if (count < n) throw new NotParsable();
  };
  const read = new Reader(data);
  switch (read.u32()) {
    case 0: {
      need(2);
      const lamports = read.u64();
      const space = read.u64();
      return { type: 'createAccount', info: { source: key(0), newAccount: key(1), lamports: number(lamports), space: number(space), owner: read.pubkey() } };
    }
    case 1:
      need(1);
      return { type: 'assign', info: { account: key(0), owner: read.pubkey() } };
    case 2:
      need(2);
      return { type: 'transfer', info: { source: key(0), destination: key(1), lamports: number(read.u64()) } };
    case 3: {
      need(2);
      const base = read.pubkey();
      const seed = read.string();
      const lamports = read.u64();
      const space = read.u64();
      return { type: 'createAccountWithSeed', info: { source: key(0), newAccount: key(1), base, seed, lamports: number(lamports), space: number(space), owner: read.pubkey() } };
    }
    case 4:
      need(3);
      return { type: 'advanceNonce', info: { nonceAccount: key(0), recentBlockhashesSysvar: key(1), nonceAuthority: key(2) } };
    case 5:
      need(5);
      return {
        type: 'withdrawFromNonce',
        info: { nonceAccount: key(0), destination: key(1), recentBlockhashesSysvar: key(2), rentSysvar: key(3), nonceAuthority: key(4), lamports: number(read.u64()) },
      };
    case 6:
      need(3);
      return { type: 'initializeNonce', info: { nonceAccount: key(0), recentBlockhashesSysvar: key(1), rentSysvar: key(2), nonceAuthority: read.pubkey() } };
    case 7:
      need(2);
      return { type: 'authorizeNonce', info: { nonceAccount: key(0), nonceAuthority: key(1), newAuthorized: read.pubkey() } };
    case 8:
      need(1);
      return { type: 'allocate', info: { account: key(0), space: number(read.u64()) } };
    case 9: {
      need(2);
      const base = read.pubkey();
      const seed = read.string();
      const space = read.u64();
      return { type: 'allocateWithSeed', info: { account: key(0), base, seed, space: number(space), owner: read.pubkey() } };
    }
    case 10: {
      need(2);
      const base = read.pubkey();
      const seed = read.string();
      return { type: 'assignWithSeed', info: { account: key(0), base, seed, owner: read.pubkey() } };
    }
    case 11: {
      need(3);
      const lamports = read.u64();
      const sourceSeed = read.string();
      return { type: 'transferWithSeed', info: { source: key(0), sourceBase: key(1), destination: key(2), lamports: number(lamports), sourceSeed, sourceOwner: read.pubkey() } };
    }
    case 12:
      need(1);
      return { type: 'upgradeNonce', info: { nonceAccount: key(0) } };
    default:
      throw new NotParsable();
  }
}

/** Token-2022's ExtensionType numbers 0..19 as Agave names them (UiExtensionType); later ones are not parsed here. */
const EXTENSION_TYPES = [
  'uninitialized',
  'transferFeeConfig',
  'transferFeeAmount',
  'mintCloseAuthority',
  'confidentialTransferMint',
  'confidentialTransferAccount',
  'defaultAccountState',
  'immutableOwner',
  'memoTransfer',
  'nonTransferable',
  'interestBearingConfig',
  'cpiGuard',
  'permanentDelegate',
  'nonTransferableAccount',
  'transferHook',
  'transferHookAccount',
  'confidentialTransferFeeConfig',
  'confidentialTransferFeeAmount',
  'metadataPointer',
  'tokenMetadata',
];

/** spl-token's AuthorityType as Agave names it (UiAuthorityType), for the types of both token programs' base set. */
const AUTHORITY_TYPES = ['mintTokens', 'freezeAccount', 'accountOwner', 'closeAccount'];

function parseToken(data: Uint8Array, key: (position: number) => string, count: number): Parsed {
  const need = (n: number) => {
    if (count < n) throw new NotParsable();
  };
  /** Agave's parse_signers: the authority, or a multisig authority and its signers. */
  const signers = (info: Info, last: number, single: string, multisig: string): Info => {
    if (count > last + 1) {
      info[multisig] = key(last);
      info.signers = Array.from({ length: count - last - 1 }, (_, i) => key(last + 1 + i));
    } else info[single] = key(last);
    return info;
  };
  const read = new Reader(data);
  const tag = read.u8();
  switch (tag) {
    case 0:
    case 20: {
      need(tag === 0 ? 2 : 1);
      const decimals = read.u8();
      const mintAuthority = read.pubkey();
      const freezeAuthority = read.optionalPubkey();
      return {
        type: tag === 0 ? 'initializeMint' : 'initializeMint2',
        info: { mint: key(0), decimals, mintAuthority, ...(tag === 0 ? { rentSysvar: key(1) } : {}), ...(freezeAuthority ? { freezeAuthority } : {}) },
      };
    }
    case 1:
      need(4);
      return { type: 'initializeAccount', info: { account: key(0), mint: key(1), owner: key(2), rentSysvar: key(3) } };
    case 16:
      need(3);
      return { type: 'initializeAccount2', info: { account: key(0), mint: key(1), owner: read.pubkey(), rentSysvar: key(2) } };
    case 18:
      need(2);
      return { type: 'initializeAccount3', info: { account: key(0), mint: key(1), owner: read.pubkey() } };
    case 2:
    case 19: {
      const first = tag === 2 ? 2 : 1;
      need(first + 1);
      const m = read.u8();
      return {
        type: tag === 2 ? 'initializeMultisig' : 'initializeMultisig2',
        info: { multisig: key(0), ...(tag === 2 ? { rentSysvar: key(1) } : {}), signers: Array.from({ length: count - first }, (_, i) => key(first + i)), m },
      };
    }
    case 3:
      need(3);
      return { type: 'transfer', info: signers({ source: key(0), destination: key(1), amount: read.u64().toString() }, 2, 'authority', 'multisigAuthority') };
    case 4:
      need(3);
      return { type: 'approve', info: signers({ source: key(0), delegate: key(1), amount: read.u64().toString() }, 2, 'owner', 'multisigOwner') };
    case 5:
      need(2);
      return { type: 'revoke', info: signers({ source: key(0) }, 1, 'owner', 'multisigOwner') };
    case 6: {
      need(2);
      const authorityType = AUTHORITY_TYPES[read.u8()];
      if (!authorityType) throw new NotParsable();
      const owned = authorityType === 'accountOwner' || authorityType === 'closeAccount' ? 'account' : 'mint';
      return { type: 'setAuthority', info: signers({ [owned]: key(0), authorityType, newAuthority: read.optionalPubkey() }, 1, 'authority', 'multisigAuthority') };
    }
    case 7:
      need(3);
      return { type: 'mintTo', info: signers({ mint: key(0), account: key(1), amount: read.u64().toString() }, 2, 'mintAuthority', 'multisigMintAuthority') };
    case 8:
      need(3);
      return { type: 'burn', info: signers({ account: key(0), mint: key(1), amount: read.u64().toString() }, 2, 'authority', 'multisigAuthority') };
    case 9:
      need(3);
      return { type: 'closeAccount', info: signers({ account: key(0), destination: key(1) }, 2, 'owner', 'multisigOwner') };
    case 10:
    case 11:
      need(3);
      return { type: tag === 10 ? 'freezeAccount' : 'thawAccount', info: signers({ account: key(0), mint: key(1) }, 2, 'freezeAuthority', 'multisigFreezeAuthority') };
    case 12: {
      need(4);
      const amount = read.u64();
      return { type: 'transferChecked', info: signers({ source: key(0), mint: key(1), destination: key(2), tokenAmount: uiTokenAmount(amount, read.u8()) }, 3, 'authority', 'multisigAuthority') };
    }
    case 13: {
      need(4);
      const amount = read.u64();
      return { type: 'approveChecked', info: signers({ source: key(0), mint: key(1), delegate: key(2), tokenAmount: uiTokenAmount(amount, read.u8()) }, 3, 'owner', 'multisigOwner') };
    }
    case 14: {
      need(3);
      const amount = read.u64();
      return { type: 'mintToChecked', info: signers({ mint: key(0), account: key(1), tokenAmount: uiTokenAmount(amount, read.u8()) }, 2, 'mintAuthority', 'multisigMintAuthority') };
    }
    case 15: {
      need(3);
      const amount = read.u64();
      return { type: 'burnChecked', info: signers({ account: key(0), mint: key(1), tokenAmount: uiTokenAmount(amount, read.u8()) }, 2, 'authority', 'multisigAuthority') };
    }
    case 17:
      need(1);
      return { type: 'syncNative', info: { account: key(0) } };
    case 21: {
      need(1);
      // The ATA program asks with ImmutableOwner: the extension types as Agave names them (UiExtensionType).
      const extensionTypes: string[] = [];
      while (extensionTypes.length * 2 + 1 < data.length) {
        const name = EXTENSION_TYPES[new DataView(data.slice(1 + extensionTypes.length * 2, 3 + extensionTypes.length * 2).buffer).getUint16(0, true)];
        if (!name) throw new NotParsable();
        extensionTypes.push(name);
      }
      return { type: 'getAccountDataSize', info: { mint: key(0), ...(extensionTypes.length > 0 ? { extensionTypes } : {}) } };
    }
    case 22:
      need(1);
      return { type: 'initializeImmutableOwner', info: { account: key(0) } };
    case 23:
      need(1);
      return { type: 'amountToUiAmount', info: { mint: key(0), amount: read.u64().toString() } };
    default:
      throw new NotParsable();
  }
}

function parseAssociatedToken(data: Uint8Array, key: (position: number) => string, count: number): Parsed {
  const kind = data.length === 0 ? 0 : data[0];
  if (kind === 0 || kind === 1) {
    if (count < 6) throw new NotParsable();
    return { type: kind === 0 ? 'create' : 'createIdempotent', info: { source: key(0), account: key(1), wallet: key(2), mint: key(3), systemProgram: key(4), tokenProgram: key(5) } };
  }
  if (kind === 2) {
    if (count < 7) throw new NotParsable();
    return {
      type: 'recoverNested',
      info: { nestedSource: key(0), nestedMint: key(1), destination: key(2), nestedOwner: key(3), ownerMint: key(4), wallet: key(5), tokenProgram: key(6) },
    };
  }
  throw new NotParsable();
}

/** One instruction in `jsonParsed` form. */
export function parseInstruction(instruction: InstructionToParse, keys: readonly string[]): Record<string, unknown> {
  const { programId, accounts, data, stackHeight } = instruction;
  const partiallyDecoded = () => ({ programId, accounts: accounts.map((index) => keys[index]), data: getBase58Decoder().decode(data), stackHeight });
  if (accounts.some((index) => index >= keys.length)) return partiallyDecoded();
  const key = (position: number) => keys[accounts[position]!]!;
  try {
    if (programId === SYSTEM_PROGRAM_ADDRESS) return { program: 'system', programId, parsed: parseSystem(data, key, accounts.length), stackHeight };
    if (isTokenProgram(programId)) return { program: 'spl-token', programId, parsed: parseToken(data, key, accounts.length), stackHeight };
    if (programId === ASSOCIATED_TOKEN_PROGRAM_ADDRESS) return { program: 'spl-associated-token-account', programId, parsed: parseAssociatedToken(data, key, accounts.length), stackHeight };
    if (MEMO_PROGRAMS.has(programId)) return { program: 'spl-memo', programId, parsed: new TextDecoder('utf-8', { fatal: true }).decode(data), stackHeight };
  } catch (error) {
    if (!(error instanceof NotParsable) && !(error instanceof TypeError)) throw error;
  }
  return partiallyDecoded();
}
