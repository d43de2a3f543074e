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
 */
import {
  getAddressDecoder,
  getBase64Encoder,
  isAddress,
  type Address,
  type Base58EncodedBytes,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { decodeWagerAccount } from '../keeper/chain-view';
import { resolveWagerOutcome } from '../keeper/outcome-resolver';
import { decodeWagerEventsFromLogs, wagerStatusName, WagerStatus, type WagerProgramEvent } from '../protocol/wager';
import type { AddressSearchView, FoundWagerView } from './operator-interface';

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

/** What the search reads besides the chain: the deployment's addresses and the keeper's records. */
export interface SearchContext {
  program: Address;
  pool: string;
  usdcMint: string;
  config: string;
  paytables: { name: string; address: string }[];
  /** The keeper's record of a wager (SQLite), when it has one. */
  record?: (address: string) => { state: string; payout: string | null; bucket: number | null; payoutPending: boolean; openSlot: number | null; stake: string | null } | undefined;
}

type AccountBytes = { owner: string; executable: boolean; data: Uint8Array; encoded: NonNullable<Parameters<typeof decodeWagerAccount>[0]> };

async function readAccount(rpc: Rpc<SolanaRpcApi>, key: Address): Promise<AccountBytes | null> {
  const { value } = await rpc.getAccountInfo(key, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) return null;
  return { owner: value.owner, executable: value.executable, data: new Uint8Array(getBase64Encoder().encode(value.data[0])), encoded: { data: value.data, owner: value.owner } };
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

/** The wager program's events of each successful transaction of `key` (newest first), and whether the history went further back. */
async function historyEvents(rpc: Rpc<SolanaRpcApi>, key: Address, program: Address, cache: Map<string, WagerProgramEvent[]>) {
  const signatures = await rpc.getSignaturesForAddress(key, { limit: MAX_SIGNATURES, commitment: 'confirmed' }).send();
  const ok = signatures.filter((entry) => entry.err === null);
  const events = await mapLimited(ok, async ({ signature }) => {
    const known = cache.get(signature);
    if (known) return known;
    const tx = await rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
    const decoded = tx ? decodeWagerEventsFromLogs(tx.meta?.logMessages ?? [], program) : [];
    cache.set(signature, decoded);
    return decoded;
  });
  return { events: events.flat(), truncated: signatures.length >= MAX_SIGNATURES };
}

/** Open wagers whose field at `offset` is `key`. */
async function openWagersWith(rpc: Rpc<SolanaRpcApi>, program: Address, offset: bigint, key: string) {
  const accounts = await rpc
    .getProgramAccounts(program, {
      encoding: 'base64',
      commitment: 'confirmed',
      filters: [{ dataSize: WAGER_ACCOUNT_SIZE }, { memcmp: { offset, bytes: key as Base58EncodedBytes, encoding: 'base58' } }],
    })
    .send();
  return accounts.flatMap(({ pubkey, account }) => {
    const wager = decodeWagerAccount({ data: account.data, owner: account.owner }, program);
    return wager ? [{ address: pubkey as string, wager }] : [];
  });
}

/**
 * The wagers of `keys` (a wallet and its USDC accounts, or one token account): open ones by memcmp, closed
 * ones from their histories, newest first. `wallet` is the key that signs an opening as stake owner.
 */
export async function findWagersOf(
  rpc: Rpc<SolanaRpcApi>,
  context: SearchContext,
  keys: { wallet: string | null; tokenAccounts: string[] },
  /** Transactions' events already read in this search, by signature. */
  cache = new Map<string, WagerProgramEvent[]>(),
) {
  const { program } = context;
  type Found = { roles: Set<FoundWagerView['roles'][number]>; openSlot: bigint | null; stake: bigint | null; status: string | null; payout: bigint | null; bucket: number | null };
  const found = new Map<string, Found>();
  const entry = (address: string): Found => {
    let value = found.get(address);
    if (!value) found.set(address, (value = { roles: new Set(), openSlot: null, stake: null, status: null, payout: null, bucket: null }));
    return value;
  };
  const tokenAccounts = new Set(keys.tokenAccounts);

  // Open wagers, read on chain.
  type Search = readonly [bigint, string, FoundWagerView['roles'][number]];
  const searches: Search[] = [
    ...(keys.wallet ? [[WAGER_OFFSETS.stakeOwner, keys.wallet, 'stake owner'] as const, [WAGER_OFFSETS.integratorAuthority, keys.wallet, 'integrator'] as const] : []),
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
  const ends = new Map<string, WagerProgramEvent>();
  let truncated = false;
  for (const key of [...(keys.wallet ? [keys.wallet] : []), ...keys.tokenAccounts]) {
    const history = await historyEvents(rpc, key as Address, program, cache);
    truncated ||= history.truncated;
    for (const event of history.events) {
      if (event.name === 'WagerSettled' || event.name === 'WagerExpired') {
        if (!ends.has(event.data.wager)) ends.set(event.data.wager, event); // newest first: the latest end
        continue;
      }
      if (event.name !== 'WagerOpened') continue;
      const opened = event.data;
      const value = entry(opened.wager);
      // An address reopened later (same integrator and nonce) is listed once, at its newest opening.
      if (value.openSlot !== null && value.openSlot > opened.openSlot) continue;
      value.openSlot = opened.openSlot;
      value.stake = opened.stake;
      if (opened.beneficiary === key || tokenAccounts.has(opened.beneficiary)) value.roles.add('beneficiary');
      if (keys.wallet && opened.integratorAuthority === keys.wallet) value.roles.add('integrator');
      if (keys.wallet && opened.payer === keys.wallet) value.roles.add('payer');
      // In the opening's transaction but none of the named roles: the stake owner (it signs) or its stake source account.
      if (value.roles.size === 0) value.roles.add('stake owner');
    }
  }

  let lookups = 0;
  const wagers = await mapLimited([...found.entries()], async ([address, value]): Promise<FoundWagerView> => {
    const record = context.record?.(address);
    const finishedRecord = record && (record.state === 'settled' || record.state === 'expired') ? record : undefined;
    let { status, payout, bucket } = value;
    if (finishedRecord) {
      status = finishedRecord.payoutPending ? 'PayoutPending' : finishedRecord.state;
      payout = finishedRecord.payout === null ? null : BigInt(finishedRecord.payout);
      bucket = finishedRecord.bucket;
    } else if (status === null) {
      const end = ends.get(address);
      if (end?.name === 'WagerSettled') [status, payout, bucket] = ['settled', end.data.payout, end.data.bucket];
      else if (end?.name === 'WagerExpired') status = 'expired';
      else if (lookups++ < MAX_OUTCOME_LOOKUPS) {
        // Not open and no end seen yet: the wager's own history (the wallet is not in a settlement by a keeper).
        const account = await readAccount(rpc, address as Address);
        const open = account ? decodeWagerAccount(account.encoded, program) : null;
        if (open) status = wagerStatusName(open.status);
        else {
          const outcome = await resolveWagerOutcome(rpc, address as Address, program, value.openSlot !== null ? { openSlot: value.openSlot } : {});
          if (outcome.kind === 'settled') [status, payout, bucket] = [outcome.pending ? 'PayoutPending' : 'settled', outcome.payout, outcome.bucket];
          else status = outcome.kind;
        }
      } else status = record?.state ?? 'unknown';
    }
    return {
      address,
      roles: [...value.roles],
      status: status ?? 'unknown',
      openSlot: value.openSlot === null ? (record?.openSlot ?? null) : Number(value.openSlot),
      stake: value.stake === null ? (record?.stake ?? null) : value.stake.toString(),
      payout: payout === null ? null : payout.toString(),
      bucket,
    };
  });
  wagers.sort((a, b) => (b.openSlot ?? -1) - (a.openSlot ?? -1) || (a.address < b.address ? -1 : 1));
  return { wagers, truncated };
}

const TRUNCATED_NOTE = `only the newest ${MAX_SIGNATURES} transactions of each address were read: older closed wagers may be missing (open ones are all listed)`;

/** The USDC token accounts `wallet` owns (for the beneficiary search and their histories). */
async function usdcAccountsOf(rpc: Rpc<SolanaRpcApi>, wallet: Address, mint: string): Promise<string[]> {
  const { value } = await rpc.getTokenAccountsByOwner(wallet, { mint: mint as Address }, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value.map(({ pubkey }) => pubkey as string);
}

/** Classifies `text` against the deployment and, for a wallet or token account, lists its wagers. */
export async function searchAddress(rpc: Rpc<SolanaRpcApi>, context: SearchContext, text: string): Promise<AddressSearchView> {
  const input = text.trim();
  if (!isAddress(input)) return { kind: 'notOurs', address: input, what: 'notAddress', message: `'${input}' is not a Solana address at all (base58, 32 to 44 characters): paste a wallet, token account or wager address` };
  const key = input as Address;
  if (input === context.pool) return { kind: 'pool', address: input };
  const notOurs = (what: Exclude<Extract<AddressSearchView, { kind: 'notOurs' }>['what'], 'notAddress'>, message: string): AddressSearchView => ({ kind: 'notOurs', address: input, what, message: `Not something of this service: ${message}.` });

  const account = await readAccount(rpc, key);
  if (!account) {
    // Nothing here now: a closed wager (its opening is in its history), a wallet with no SOL left, or nothing.
    const cache = new Map<string, WagerProgramEvent[]>();
    const history = await historyEvents(rpc, key, context.program, cache);
    if (history.events.some((event) => event.name === 'WagerOpened' && event.data.wager === input)) return { kind: 'wager', address: input };
    // A wallet holding no SOL is no account, yet it can own USDC accounts and have wagers.
    const usdc = await usdcAccountsOf(rpc, key, context.usdcMint);
    const { wagers, truncated } = await findWagersOf(rpc, context, { wallet: input, tokenAccounts: usdc }, cache);
    if (wagers.length > 0 || usdc.length > 0) return { kind: 'wallet', address: input, owner: null, searched: [input, ...usdc], wagers, note: truncated ? TRUNCATED_NOTE : null };
    return notOurs('nothingHere', 'an address with no account on this cluster and no wager of this service in its history (a typo, or another cluster?)');
  }
  if (account.owner === context.program) {
    if (decodeWagerAccount(account.encoded, context.program)) return { kind: 'wager', address: input };
    const named =
      input === context.config ? 'the service\'s config' : context.paytables.find((paytable) => paytable.address === input) ? `paytable '${context.paytables.find((p) => p.address === input)!.name}'` : 'an account';
    return notOurs('serviceAccount', `${named} of the wager program (${context.program}), not a wager, a wallet or the pool`);
  }
  if (account.executable) return notOurs('program', input === context.program ? 'this is the wager program itself (a program), not a wager or a wallet' : `a program (executable, loader ${account.owner}), not a wallet, a wager or the pool`);
  if (account.owner === TOKEN_PROGRAM_ADDRESS || account.owner === TOKEN_2022_PROGRAM) {
    const kind = tokenKind(account.data);
    if (kind === 'mint') return notOurs('mint', input === context.usdcMint ? "the USDC mint the wagers stake (a mint), not a wallet's account" : `a token mint (program ${account.owner}), not a wallet or a token account`);
    if (kind === 'account') {
      const mint = base58(account.data.subarray(0, 32));
      const owner = base58(account.data.subarray(32, 64));
      if (mint !== context.usdcMint) return notOurs('tokenAccount', `a token account of another mint (${mint}, owner ${owner}); this service stakes ${context.usdcMint}`);
      const { wagers, truncated } = await findWagersOf(rpc, context, { wallet: null, tokenAccounts: [input] });
      return { kind: 'tokenAccount', address: input, owner, searched: [input], wagers, note: truncated ? TRUNCATED_NOTE : null };
    }
    return notOurs('otherAccount', `an account of the token program ${account.owner}`);
  }
  if (account.owner === SYSTEM_PROGRAM) {
    const usdc = await usdcAccountsOf(rpc, key, context.usdcMint);
    const { wagers, truncated } = await findWagersOf(rpc, context, { wallet: input, tokenAccounts: usdc });
    return { kind: 'wallet', address: input, owner: null, searched: [input, ...usdc], wagers, note: truncated ? TRUNCATED_NOTE : null };
  }
  return notOurs('otherAccount', `an account of another program (owner ${account.owner}), not a wallet, a wager or the pool`);
}
