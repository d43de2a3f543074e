/**
 * Support's search: users give a wallet or a token account, rarely a wager address. Any address is
 * classified against the deployment and sent where it belongs: a wager (open, or closed with its opening in
 * its history) to the Inspector, the pool to the Liquidity screen, a wallet or a USDC token account to the
 * list of its wagers, anything else to a sentence saying what it is.
 *
 * A wallet's wagers come from two places, since neither alone sees all of them: the open ones from
 * getProgramAccounts (memcmp on the Wager's stakeOwner, beneficiary and integratorAuthority), the closed
 * ones from the history of the wallet and its USDC accounts (their WagerOpened events). Status and payout
 * come from the keeper's record, the open account, events already read, or the wager's own history.
 *
 * A wallet can have hundreds of wagers: all are found (from the histories), sorted newest first, and only the
 * first `limit` get their outcome and final transaction looked up (a page; the console asks again for more).
 * Times are the block times of the opening and of the last transaction (claim, settlement or expiry).
 */
import {
  getAddressDecoder,
  getBase64Encoder,
  isAddress,
  type Address,
  type Base58EncodedBytes,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { decodeWagerAccount } from '../keeper/chain-view';
import { resolveWagerOutcome } from '../keeper/outcome-resolver';
import { wagerStatusName, WagerStatus, type WagerProgramEvent } from '../protocol/wager';
import type { AddressSearchView, FoundWagerView } from '../../src-shared/contract/inspection';
import { readConfirmedTransaction } from '../chain/read-transaction';
import { readTransactionEvents } from '../history/transaction-events';
import { newestSignatures } from '../history/wager-history-walk';

/** Byte offsets in the 336-byte Wager account (docs/wager-program.md). */
export const WAGER_ACCOUNT_SIZE = 336n;
export const WAGER_OFFSETS = { beneficiary: 80n, stakeOwner: 144n, integratorAuthority: 176n } as const;

const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC8PQ6rBGmGCEEPKUn';
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
/** The newest transactions read per address: a busy app's wallet has many more than a user asks about. */
const MAX_SIGNATURES = 500;
/** Closed wagers whose end is looked up in their own history when nothing else said (each costs a few reads). */
const MAX_OUTCOME_LOOKUPS = 25;
const CONCURRENCY = 8;
/** Wagers listed with their outcomes per search unless asked for more (the console's page), and at most. */
export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_LIMIT = 5_000;

/** What the search reads besides the chain: the deployment's addresses and the keeper's records. */
export interface SearchContext {
  program: Address;
  pool: string;
  usdcMint: string;
  config: string;
  paytables: { name: string; address: string }[];
  /** The keeper's record of a wager (SQLite), when it has one. */
  record?: (address: string) =>
    | {
        state: string;
        payout: string | null;
        bucket: number | null;
        payoutPending: boolean;
        openSlot: number | null;
        stake: string | null;
        settleSignature?: string | null;
        expireSignature?: string | null;
        claimSignature?: string | null;
      }
    | undefined;
}

type AccountBytes = {
  owner: string;
  executable: boolean;
  data: Uint8Array;
  encoded: NonNullable<Parameters<typeof decodeWagerAccount>[0]>;
};

async function readAccount(rpc: Rpc<SolanaRpcApi>, key: Address): Promise<AccountBytes | null> {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) return null;
  return {
    owner: value.owner,
    executable: value.executable,
    data: new Uint8Array(getBase64Encoder().encode(value.data[0])),
    encoded: { data: value.data, owner: value.owner },
  };
}

/** Runs `work` over `items`, `CONCURRENCY` at a time (an RPC is not asked hundreds of things at once). */
async function mapLimited<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

/** A token program's mint or token account (Token-2022 ones with extensions carry their kind at byte 165). */
function tokenKind(data: Uint8Array): 'mint' | 'account' | null {
  if (data.length === 82 || (data.length > 165 && data[165] === 1)) return 'mint';
  if (data.length === 165 || (data.length > 165 && data[165] === 2)) return 'account';
  return null;
}

const addressDecoder = getAddressDecoder();
const base58 = (key: Uint8Array): string => addressDecoder.decode(key);

/** A transaction's events, signature and block time (epoch ms; null when the RPC has none). */
interface HistoryTransaction {
  signature: string;
  at: number | null;
  events: readonly WagerProgramEvent[];
}

/** What one search has read: each transaction's events and block time, by signature (a transaction is in several histories). */
interface SearchCache {
  events: Map<string, readonly WagerProgramEvent[]>;
  times: Map<string, number | null>;
}
const newCache = (): SearchCache => ({ events: new Map(), times: new Map() });

const blockTimeMs = (blockTime: bigint | number | null | undefined): number | null =>
  blockTime === null || blockTime === undefined ? null : Number(blockTime) * 1000;

/** The wager program's events of each successful transaction of `key` (newest first), and whether the history went further back. */
async function historyEvents(rpc: Rpc<SolanaRpcApi>, key: Address, program: Address, cache: SearchCache) {
  const signatures = await newestSignatures(rpc, key, MAX_SIGNATURES);
  const ok = signatures.filter((entry) => entry.err === null);
  const transactions = await mapLimited(ok, async ({ signature, blockTime }): Promise<HistoryTransaction> => {
    const at = blockTimeMs(blockTime);
    cache.times.set(signature, at);
    const known = cache.events.get(signature);
    if (known) return { signature, at, events: known };
    const decoded = (await readTransactionEvents(rpc, signature, program))?.events ?? [];
    cache.events.set(signature, decoded);
    return { signature, at, events: decoded };
  });
  return {
    transactions,
    events: transactions.flatMap((tx) => tx.events),
    truncated: signatures.length >= MAX_SIGNATURES,
  };
}

/** A transaction's block time (epoch ms): from the histories already read, else one read. */
async function timeOf(rpc: Rpc<SolanaRpcApi>, signature: string, cache: SearchCache): Promise<number | null> {
  if (cache.times.has(signature)) return cache.times.get(signature)!;
  const tx = await readConfirmedTransaction(rpc, signature);
  const at = blockTimeMs(tx?.blockTime);
  cache.times.set(signature, at);
  return at;
}

/** Open wagers whose field at `offset` is `key`. */
async function openWagersWith(rpc: Rpc<SolanaRpcApi>, program: Address, offset: bigint, key: string) {
  const accounts = await rpc
    .getProgramAccounts(program, {
      encoding: 'base64',
      commitment: 'confirmed',
      filters: [
        { dataSize: WAGER_ACCOUNT_SIZE },
        { memcmp: { offset, bytes: key as Base58EncodedBytes, encoding: 'base58' } },
      ],
    })
    .send();
  return accounts.flatMap(({ pubkey, account }) => {
    const wager = decodeWagerAccount({ data: account.data, owner: account.owner }, program);
    return wager ? [{ address: pubkey as string, wager }] : [];
  });
}

/** A wallet's answer: the wagers found through it and its USDC accounts (`usdc`), the newest `limit` looked up. */
async function walletResult(
  rpc: Rpc<SolanaRpcApi>,
  context: SearchContext,
  wallet: string,
  usdc: string[],
  cache: SearchCache,
  limit: number,
): Promise<Extract<AddressSearchView, { kind: 'wallet' | 'tokenAccount' }>> {
  const { wagers, total, truncated } = await findWagersOf(rpc, context, { wallet, tokenAccounts: usdc }, cache, limit);
  return { kind: 'wallet', address: wallet, owner: null, searched: [wallet, ...usdc], wagers, total, note: truncated ? TRUNCATED_NOTE : null };
}

/**
 * The wagers of `keys` (a wallet and its USDC accounts, or one token account): open ones by memcmp, closed
 * ones from their histories, newest first. `wallet` is the key that signs an opening as stake owner.
 */
export async function findWagersOf(
  rpc: Rpc<SolanaRpcApi>,
  context: SearchContext,
  keys: { wallet: string | null; tokenAccounts: string[] },
  /** Transactions already read in this search, by signature. */
  cache: SearchCache = newCache(),
  /** Wagers (newest first) whose outcome and final transaction are looked up and returned. */
  limit = DEFAULT_SEARCH_LIMIT,
) {
  const { program } = context;
  type Found = {
    roles: Set<FoundWagerView['roles'][number]>;
    openSlot: bigint | null;
    stake: bigint | null;
    status: string | null;
    payout: bigint | null;
    bucket: number | null;
    openSignature: string | null;
  };
  const found = new Map<string, Found>();
  const entry = (address: string): Found => {
    let value = found.get(address);
    if (!value)
      found.set(
        address,
        (value = {
          roles: new Set(),
          openSlot: null,
          stake: null,
          status: null,
          payout: null,
          bucket: null,
          openSignature: null,
        }),
      );
    return value;
  };
  const tokenAccounts = new Set(keys.tokenAccounts);

  // Open wagers, read on chain.
  type Search = readonly [bigint, string, FoundWagerView['roles'][number]];
  const searches: Search[] = [
    ...(keys.wallet
      ? [
          [WAGER_OFFSETS.stakeOwner, keys.wallet, 'stake owner'] as const,
          [WAGER_OFFSETS.integratorAuthority, keys.wallet, 'integrator'] as const,
        ]
      : []),
    ...keys.tokenAccounts.map((account) => [WAGER_OFFSETS.beneficiary, account, 'beneficiary'] as const),
  ];
  for (const [offset, key, role] of searches)
    for (const { address, wager } of await openWagersWith(rpc, program, offset, key)) {
      const value = entry(address);
      value.roles.add(role);
      value.openSlot = wager.openSlot;
      value.stake = wager.stake;
      value.status = wagerStatusName(wager.status);
      if (wager.status === WagerStatus.PayoutPending) {
        value.payout = wager.payout;
        value.bucket = wager.bucket;
      }
    }

  // Closed (and open) wagers from the histories: each opening names its wager; settlements and expiries read on the way say how they ended.
  const ends = new Map<string, { event: WagerProgramEvent; signature: string }>();
  const claims = new Map<string, string>();
  let truncated = false;
  for (const key of [...(keys.wallet ? [keys.wallet] : []), ...keys.tokenAccounts]) {
    const history = await historyEvents(rpc, key as Address, program, cache);
    truncated ||= history.truncated;
    for (const { signature, events } of history.transactions)
      for (const event of events) {
        if (event.name === 'WagerSettled' || event.name === 'WagerExpired') {
          if (!ends.has(event.data.wager)) ends.set(event.data.wager, { event, signature }); // newest first: the latest end
          continue;
        }
        if (event.name === 'PayoutClaimed') {
          if (!claims.has(event.data.wager)) claims.set(event.data.wager, signature);
          continue;
        }
        if (event.name !== 'WagerOpened') continue;
        const opened = event.data;
        const value = entry(opened.wager);
        // An address reopened later (same integrator and nonce) is listed once, at its newest opening.
        if (value.openSlot !== null && value.openSlot > opened.openSlot) continue;
        value.openSlot = opened.openSlot;
        value.stake = opened.stake;
        value.openSignature = signature;
        if (opened.beneficiary === key || tokenAccounts.has(opened.beneficiary))
          value.roles.add('beneficiary');
        if (keys.wallet && opened.integratorAuthority === keys.wallet) value.roles.add('integrator');
        if (keys.wallet && opened.payer === keys.wallet) value.roles.add('payer');
        // In the opening's transaction but none of the named roles: the stake owner (it signs) or its stake source account.
        if (value.roles.size === 0) value.roles.add('stake owner');
      }
  }

  // Newest first; only the page asked for gets its outcome and times looked up.
  const openSlotOf = ([address, value]: [string, Found]) =>
    value.openSlot === null ? (context.record?.(address)?.openSlot ?? -1) : Number(value.openSlot);
  const sorted = [...found.entries()].sort((a, b) => openSlotOf(b) - openSlotOf(a) || (a[0] < b[0] ? -1 : 1));
  const page = sorted.slice(0, Math.max(1, Math.min(limit, MAX_SEARCH_LIMIT)));

  let lookups = 0;
  const wagers = await mapLimited(page, async ([address, value]): Promise<FoundWagerView> => {
    const record = context.record?.(address);
    const finishedRecord =
      record && (record.state === 'settled' || record.state === 'expired') ? record : undefined;
    let { status, payout, bucket } = value;
    const end = ends.get(address);
    // The last transaction: a claim, else the settlement or expiry (from the histories, the record, or the wager's own history).
    let finalSignature: string | null = claims.get(address) ?? end?.signature ?? null;
    if (finishedRecord) {
      status = finishedRecord.payoutPending ? 'PayoutPending' : finishedRecord.state;
      payout = finishedRecord.payout === null ? null : BigInt(finishedRecord.payout);
      bucket = finishedRecord.bucket;
      finalSignature =
        finishedRecord.claimSignature ??
        finishedRecord.settleSignature ??
        finishedRecord.expireSignature ??
        finalSignature;
    } else if (status === null) {
      if (end?.event.name === 'WagerSettled')
        [status, payout, bucket] = ['settled', end.event.data.payout, end.event.data.bucket];
      else if (end?.event.name === 'WagerExpired') status = 'expired';
      else if (lookups++ < MAX_OUTCOME_LOOKUPS) {
        // Not open and no end seen yet: the wager's own history (the wallet is not in a settlement by a keeper).
        const account = await readAccount(rpc, address as Address);
        const open = account ? decodeWagerAccount(account.encoded, program) : null;
        if (open) status = wagerStatusName(open.status);
        else {
          const outcome = await resolveWagerOutcome(
            rpc,
            address as Address,
            program,
            value.openSlot !== null ? { openSlot: value.openSlot } : {},
          );
          if (outcome.kind === 'settled')
            [status, payout, bucket] = [
              outcome.pending ? 'PayoutPending' : 'settled',
              outcome.payout,
              outcome.bucket,
            ];
          else status = outcome.kind;
          if (outcome.kind !== 'unknown')
            finalSignature =
              (outcome.kind === 'settled' ? outcome.claimSignature : undefined) ?? outcome.signature;
        }
      } else status = record?.state ?? 'unknown';
    } else if (status === 'PayoutPending') finalSignature = record?.settleSignature ?? finalSignature; // parked: its settlement
    const finished = status === 'settled' || status === 'expired' || status === 'PayoutPending';
    if (!finished) finalSignature = null;
    return {
      address,
      roles: [...value.roles],
      status: status ?? 'unknown',
      openSlot: value.openSlot === null ? (record?.openSlot ?? null) : Number(value.openSlot),
      stake: value.stake === null ? (record?.stake ?? null) : value.stake.toString(),
      payout: payout === null ? null : payout.toString(),
      bucket,
      openSignature: value.openSignature,
      openedAt: value.openSignature ? await timeOf(rpc, value.openSignature, cache) : null,
      finalSignature,
      finalAt: finalSignature ? await timeOf(rpc, finalSignature, cache) : null,
    };
  });
  return { wagers, total: found.size, truncated };
}

const TRUNCATED_NOTE = `only the newest ${MAX_SIGNATURES} transactions of each address were read: older closed wagers may be missing (open ones are all listed)`;

/** The USDC token accounts `wallet` owns (for the beneficiary search and their histories). */
async function usdcAccountsOf(rpc: Rpc<SolanaRpcApi>, wallet: Address, mint: string): Promise<string[]> {
  const { value } = await rpc
    .getTokenAccountsByOwner(
      wallet,
      { mint: mint as Address },
      { encoding: 'base64', commitment: 'confirmed' },
    )
    .send();
  return value.map(({ pubkey }) => pubkey as string);
}

/** Classifies `text` against the deployment and, for a wallet or token account, lists its wagers. */
export async function searchAddress(
  rpc: Rpc<SolanaRpcApi>,
  context: SearchContext,
  text: string,
  limit = DEFAULT_SEARCH_LIMIT,
): Promise<AddressSearchView> {
  const input = text.trim();
  if (!isAddress(input))
    return {
      kind: 'notOurs',
      address: input,
      what: 'notAddress',
      message: `'${input}' is not a Solana address at all (base58, 32 to 44 characters): paste a wallet, token account or wager address`,
    };
  const key = input as Address;
  if (input === context.pool) return { kind: 'pool', address: input };
  const notOurs = (
    what: Exclude<Extract<AddressSearchView, { kind: 'notOurs' }>['what'], 'notAddress'>,
    message: string,
  ): AddressSearchView => ({
    kind: 'notOurs',
    address: input,
    what,
    message: `Not something of this service: ${message}.`,
  });

  const account = await readAccount(rpc, key);
  if (!account) {
    // Nothing here now: a closed wager (its opening is in its history), a wallet with no SOL left, or nothing.
    const cache = newCache();
    const history = await historyEvents(rpc, key, context.program, cache);
    if (history.events.some((event) => event.name === 'WagerOpened' && event.data.wager === input))
      return { kind: 'wager', address: input };
    // A wallet holding no SOL is no account, yet it can own USDC accounts and have wagers.
    const usdc = await usdcAccountsOf(rpc, key, context.usdcMint);
    const wallet = await walletResult(rpc, context, input, usdc, cache, limit);
    if (wallet.wagers.length > 0 || usdc.length > 0) return wallet;
    return notOurs(
      'nothingHere',
      'an address with no account on this cluster and no wager of this service in its history (a typo, or another cluster?)',
    );
  }
  if (account.owner === context.program) {
    if (decodeWagerAccount(account.encoded, context.program)) return { kind: 'wager', address: input };
    const named =
      input === context.config
        ? "the service's config"
        : context.paytables.find((paytable) => paytable.address === input)
          ? `paytable '${context.paytables.find((p) => p.address === input)!.name}'`
          : 'an account';
    return notOurs(
      'serviceAccount',
      `${named} of the wager program (${context.program}), not a wager, a wallet or the pool`,
    );
  }
  if (account.executable)
    return notOurs(
      'program',
      input === context.program
        ? 'this is the wager program itself (a program), not a wager or a wallet'
        : `a program (executable, loader ${account.owner}), not a wallet, a wager or the pool`,
    );
  if (account.owner === TOKEN_PROGRAM_ADDRESS || account.owner === TOKEN_2022_PROGRAM) {
    const kind = tokenKind(account.data);
    if (kind === 'mint')
      return notOurs(
        'mint',
        input === context.usdcMint
          ? "the USDC mint the wagers stake (a mint), not a wallet's account"
          : `a token mint (program ${account.owner}), not a wallet or a token account`,
      );
    if (kind === 'account') {
      const mint = base58(account.data.subarray(0, 32));
      const owner = base58(account.data.subarray(32, 64));
      if (mint !== context.usdcMint)
        return notOurs(
          'tokenAccount',
          `a token account of another mint (${mint}, owner ${owner}); this service stakes ${context.usdcMint}`,
        );
      const { wagers, total, truncated } = await findWagersOf(
        rpc,
        context,
        { wallet: null, tokenAccounts: [input] },
        newCache(),
        limit,
      );
      return {
        kind: 'tokenAccount',
        address: input,
        owner,
        searched: [input],
        wagers,
        total,
        note: truncated ? TRUNCATED_NOTE : null,
      };
    }
    return notOurs('otherAccount', `an account of the token program ${account.owner}`);
  }
  if (account.owner === SYSTEM_PROGRAM) {
    const usdc = await usdcAccountsOf(rpc, key, context.usdcMint);
    return walletResult(rpc, context, input, usdc, newCache(), limit);
  }
  return notOurs(
    'otherAccount',
    `an account of another program (owner ${account.owner}), not a wallet, a wager or the pool`,
  );
}
