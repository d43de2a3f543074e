/**
 * SPL Token accounts and mints as a validator shows them: `jsonParsed` account data
 * (`{ program: 'spl-token', parsed: { type, info }, space }`), UiTokenAmount, and the token balances of
 * getTransaction's meta. Decoding uses @solana-program/token's codecs; anything that is not a
 * base-size Token / Token-2022 account or mint is left to the caller's base64 fallback, as a validator
 * falls back when it cannot parse (extensions are not parsed here).
 */
import { isSome, type Address, type ReadonlyUint8Array } from '@solana/kit';
import { AccountState, getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { formatUnits } from '../../src-shared/units';

export const TOKEN_2022_PROGRAM_ADDRESS = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address;
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112' as Address;
const NATIVE_MINT_DECIMALS = 9;
const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;

/** Token and Token-2022: the programs a validator's token methods accept (is_known_spl_token_id). */
export const isTokenProgram = (program: string): boolean => program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS;

export interface OwnedData {
  programAddress: Address;
  data: ReadonlyUint8Array;
}

/** Decimals of a mint, for amounts held in its accounts (0 when the mint is unknown, as a validator). */
export type MintDecimals = (mint: Address) => number;

export function decodeTokenAccount(account: OwnedData) {
  if (!isTokenProgram(account.programAddress) || account.data.length !== TOKEN_ACCOUNT_SIZE) return null;
  const token = getTokenDecoder().decode(account.data);
  return token.state === AccountState.Uninitialized ? null : token;
}

export function decodeMint(account: OwnedData) {
  if (!isTokenProgram(account.programAddress) || account.data.length !== MINT_SIZE) return null;
  const mint = getMintDecoder().decode(account.data);
  return mint.isInitialized ? mint : null;
}

/** Decimals of `mint` read through `read`; the native mint needs no account. */
export function mintDecimalsReader(read: (address: Address) => OwnedData | null): MintDecimals {
  return (mint) => {
    if (mint === NATIVE_MINT) return NATIVE_MINT_DECIMALS;
    const account = read(mint);
    return (account && decodeMint(account)?.decimals) ?? 0;
  };
}

/**
 * mintDecimalsReader that reads each mint once: for one transaction's snapshots, one notification
 * round or one request's listing (short-lived, so a mint changed later is read afresh next time).
 */
export function memoisedMintDecimals(read: (address: Address) => OwnedData | null): MintDecimals {
  const decimalsOf = mintDecimalsReader(read);
  const known = new Map<Address, number>();
  return (mint) => {
    let decimals = known.get(mint);
    if (decimals === undefined) known.set(mint, (decimals = decimalsOf(mint)));
    return decimals;
  };
}


/** A validator's UiTokenAmount (uiAmount is amount / 10^decimals as a float, as Agave computes it). */
export function uiTokenAmount(amount: bigint, decimals: number) {
  return { amount: amount.toString(), decimals, uiAmount: Number(amount) / 10 ** decimals, uiAmountString: formatUnits(amount, decimals) };
}

const programName = (program: Address) => (program === TOKEN_PROGRAM_ADDRESS ? 'spl-token' : 'spl-token-2022');
const STATE_NAMES = { [AccountState.Uninitialized]: 'uninitialized', [AccountState.Initialized]: 'initialized', [AccountState.Frozen]: 'frozen' };

/** The `jsonParsed` form of a token account or mint, or null when a validator would fall back to base64. */
export function parsedTokenData(account: OwnedData, decimalsOf: MintDecimals) {
  const space = BigInt(account.data.length);
  const program = programName(account.programAddress);
  const token = decodeTokenAccount(account);
  if (token) {
    const decimals = decimalsOf(token.mint);
    const info: Record<string, unknown> = {
      isNative: isSome(token.isNative),
      mint: token.mint,
      owner: token.owner,
      state: STATE_NAMES[token.state],
      tokenAmount: uiTokenAmount(token.amount, decimals),
    };
    // Optional fields are written only when set (Agave: skip_serializing_if = "Option::is_none").
    if (isSome(token.delegate)) {
      info.delegate = token.delegate.value;
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
    }
    if (isSome(token.closeAuthority)) info.closeAuthority = token.closeAuthority.value;
    if (isSome(token.isNative)) info.rentExemptReserve = uiTokenAmount(token.isNative.value, decimals);
    return { program, parsed: { type: 'account', info }, space };
  }
  const mint = decodeMint(account);
  if (mint) {
    const info = {
      decimals: mint.decimals,
      freezeAuthority: isSome(mint.freezeAuthority) ? mint.freezeAuthority.value : null,
      isInitialized: mint.isInitialized,
      mintAuthority: isSome(mint.mintAuthority) ? mint.mintAuthority.value : null,
      supply: mint.supply.toString(),
    };
    return { program, parsed: { type: 'mint', info }, space };
  }
  return null;
}

/** One entry of getTransaction's pre/postTokenBalances. */
export interface TokenBalance {
  accountIndex: number;
  mint: Address;
  owner: Address;
  programId: Address;
  uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

export function tokenBalanceOf(accountIndex: number, account: OwnedData, decimalsOf: MintDecimals): TokenBalance | null {
  const token = decodeTokenAccount(account);
  if (!token) return null;
  return { accountIndex, mint: token.mint, owner: token.owner, programId: account.programAddress, uiTokenAmount: uiTokenAmount(token.amount, decimalsOf(token.mint)) };
}
