/**
 * One transaction of a wager in full, for the Inspector's opened step (what Solscan's transaction page and
 * the Explorer's program logs show, in this console): block time, result in words, fee payer, fee, compute
 * units, every SOL and USDC balance change by account with the wager's parties as labels, the wager
 * program's logs and an Explorer link. Read only when a step opens, so the Inspector's first answer
 * stays as fast as before. The pure parts (labels, balance changes, failure words, logs, link) are
 * exported for tests.
 */
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit';
import { scrubSecrets } from '../../src-shared/secret-scrub';
import { describeTransactionError } from '../localnet/rpc-errors';
import { explainCustomError, explainRefusal } from '../protocol/program-error-sentences';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import { findWagerFeesPda } from '../protocol/generated/wager/pdas/wagerFees';
import { findServiceAddresses } from '../protocol/wager/service-instructions';
import type { BalanceChangeView, WagerTransactionView } from '../../src-shared/contract/inspection';
import type { ClusterName } from '../../src-shared/cluster-identity';
import { readConfirmedTransaction } from '../chain/read-transaction';

/** The wager's parties as the inspection reports them (the `inspect` fields of the same names). */
export interface WagerParties {
  stakeOwner?: string;
  beneficiary?: string;
  app?: string;
  payer?: string;
}

/** The subset of a `json`-encoded getTransaction answer this module reads. */
export interface TransactionJson {
  slot: bigint | number;
  blockTime: bigint | number | null;
  transaction: {
    message: {
      accountKeys: readonly string[];
      instructions: readonly { programIdIndex: number; accounts: readonly number[] }[];
    };
  };
  meta: {
    err: unknown;
    fee: bigint | number;
    preBalances: readonly (bigint | number)[];
    postBalances: readonly (bigint | number)[];
    preTokenBalances?: readonly TokenBalanceJson[] | null;
    postTokenBalances?: readonly TokenBalanceJson[] | null;
    logMessages?: readonly string[] | null;
    computeUnitsConsumed?: bigint | number | null;
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } | null;
  } | null;
}

interface TokenBalanceJson {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

/**
 * The Explorer page of a transaction: public clusters by name (mainnet-beta with no parameter), any other
 * cluster (a localnet, a custom RPC) through the Explorer's custom-RPC parameter.
 * @example transactionExplorerUrl('devnet', 'https://api.devnet.solana.com', 'Sig') // "https://explorer.solana.com/tx/Sig?cluster=devnet"
 */
export function transactionExplorerUrl(
  cluster: ClusterName | null,
  rpcUrl: string,
  signature: string,
): string {
  const base = `https://explorer.solana.com/tx/${signature}`;
  if (cluster === 'mainnet-beta') return base;
  if (cluster === 'devnet' || cluster === 'testnet') return `${base}?cluster=${cluster}`;
  // The link leaves the app (browser history, the Explorer's page): a key in the RPC URL is masked in it.
  return `${base}?cluster=custom&customUrl=${encodeURIComponent(scrubSecrets(rpcUrl))}`;
}

/** The transaction's accounts in index order: the message's, then those loaded from lookup tables. */
const accountKeysOf = (tx: TransactionJson): string[] => [
  ...tx.transaction.message.accountKeys,
  ...(tx.meta?.loadedAddresses?.writable ?? []),
  ...(tx.meta?.loadedAddresses?.readonly ?? []),
];

/** Each known account's label; a token account of a labelled wallet is "<that label>'s USDC account". */
export function labelAccounts(
  keys: readonly string[],
  known: ReadonlyMap<string, string>,
  tokenOwners: ReadonlyMap<string, string>,
): Map<string, string> {
  const labels = new Map<string, string>();
  for (const key of keys) {
    const own = known.get(key);
    const owner = tokenOwners.get(key);
    const ownerLabel = owner ? known.get(owner) : undefined;
    labels.set(
      key,
      own ?? (ownerLabel ? `${ownerLabel}'s USDC account` : owner ? 'a USDC account' : 'other account'),
    );
  }
  return labels;
}

/** Known accounts of a wager, named; several roles of one key are joined ("stake owner, app, payer"). */
export function knownAccounts(entries: readonly [string | undefined, string][]): Map<string, string> {
  const known = new Map<string, string>();
  for (const [key, label] of entries) {
    if (!key) continue;
    const before = known.get(key);
    if (!before) known.set(key, label);
    else if (!before.split(', ').includes(label)) known.set(key, `${before}, ${label}`);
  }
  return known;
}

/** Every account whose SOL or USDC changed: signed lamports and USDC base units as decimal strings. */
export function balanceChanges(
  tx: TransactionJson,
  usdcMint: string,
  labels: ReadonlyMap<string, string>,
): BalanceChangeView[] {
  const meta = tx.meta;
  if (!meta) return [];
  const keys = accountKeysOf(tx);
  const usdcByIndex = (balances: readonly TokenBalanceJson[] | null | undefined) =>
    new Map(
      (balances ?? [])
        .filter((b) => b.mint === usdcMint)
        .map((b) => [b.accountIndex, BigInt(b.uiTokenAmount.amount)]),
    );
  const usdcBefore = usdcByIndex(meta.preTokenBalances);
  const usdcAfter = usdcByIndex(meta.postTokenBalances);
  const changes: BalanceChangeView[] = [];
  keys.forEach((key, index) => {
    const sol = BigInt(meta.postBalances[index] ?? 0) - BigInt(meta.preBalances[index] ?? 0);
    const isUsdc = usdcBefore.has(index) || usdcAfter.has(index);
    const usdc = isUsdc ? (usdcAfter.get(index) ?? 0n) - (usdcBefore.get(index) ?? 0n) : null;
    if (sol === 0n && !usdc) return;
    changes.push({
      address: key,
      label: labels.get(key) ?? 'other account',
      solLamports: sol.toString(),
      usdc: usdc === null ? null : usdc.toString(),
    });
  });
  return changes;
}

/** A failed transaction's error in words: the raising program's sentence, else the runtime's. */
export function failureInWords(tx: TransactionJson, programs: ErrorNamingPrograms): string | null {
  const err = tx.meta?.err ?? null;
  if (err === null || err === undefined) return null;
  const instructionError = (err as { InstructionError?: [number, unknown] }).InstructionError;
  const custom = (instructionError?.[1] as { Custom?: number | bigint } | undefined)?.Custom;
  if (instructionError && custom !== undefined) {
    const keys = accountKeysOf(tx);
    const instruction = tx.transaction.message.instructions[Number(instructionError[0])];
    const program = instruction ? keys[instruction.programIdIndex] : undefined;
    const { code, sentence } = explainCustomError(program, Number(custom), programs);
    return `${code}: ${sentence}`;
  }
  const { code, sentence } = explainRefusal({ message: describeTransactionError(err), err }, programs);
  return code === sentence ? sentence : `${code}: ${sentence}`;
}

/** The wager program's own log lines: from each of its invocations to its end, CPIs within included (it never calls itself). */
export function programLogs(logs: readonly string[], program: string): string[] {
  const kept: string[] = [];
  let inside = false;
  for (const line of logs) {
    if (!inside && line.startsWith(`Program ${program} invoke [`)) inside = true;
    if (!inside) continue;
    kept.push(line);
    if (line === `Program ${program} success` || line.startsWith(`Program ${program} failed`)) inside = false;
  }
  return kept;
}

/** What the opened step needs: the wager's parties, the deployment and this keeper, where the link points. */
export interface TransactionContext {
  wager: Address;
  parties: WagerParties;
  programs: ErrorNamingPrograms & { wager: Address };
  usdcMint: string;
  keeper: string | null;
  cluster: ClusterName | null;
  rpcUrl: string;
}

export async function readTransactionJson(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
): Promise<TransactionJson | null> {
  return (await readConfirmedTransaction(rpc, signature)) as unknown as TransactionJson | null;
}

/** The wager's accounts named: its parties, the pool's vault and escrow, its fee account, this keeper. */
export async function wagerAccountLabels(context: TransactionContext): Promise<Map<string, string>> {
  const [service, [fees]] = await Promise.all([
    findServiceAddresses(context.programs.wager),
    findWagerFeesPda({ wager: context.wager }, { programAddress: context.programs.wager }),
  ]);
  const { parties } = context;
  return knownAccounts([
    [context.wager, 'wager account'],
    [fees, "wager's fee account (prefund)"],
    [parties.stakeOwner, 'stake owner'],
    [parties.beneficiary, 'beneficiary (USDC account)'],
    [parties.app, 'app'],
    [parties.payer, 'payer'],
    [service.vault, 'pool vault'],
    [service.escrow, 'payout escrow'],
    [service.pool, 'pool'],
    [service.config, 'service config'],
    [context.keeper ?? undefined, 'keeper (this keeper)'],
  ]);
}

/** The transaction `signature` of a wager in full; null when this RPC does not have it. */
export async function readWagerTransaction(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  context: TransactionContext,
): Promise<WagerTransactionView | null> {
  const [tx, known] = await Promise.all([readTransactionJson(rpc, signature), wagerAccountLabels(context)]);
  if (!tx) return null;
  const keys = accountKeysOf(tx);
  const tokenOwners = new Map<string, string>();
  for (const balance of [...(tx.meta?.preTokenBalances ?? []), ...(tx.meta?.postTokenBalances ?? [])])
    if (balance.owner) tokenOwners.set(keys[balance.accountIndex]!, balance.owner);
  const labels = labelAccounts(keys, known, tokenOwners);
  const feePayer = keys[0]!;
  if (!known.has(feePayer)) labels.set(feePayer, 'fee payer (sender)');
  const units = tx.meta?.computeUnitsConsumed;
  return {
    signature,
    slot: Number(tx.slot),
    blockTime: tx.blockTime === null ? null : new Date(Number(tx.blockTime) * 1000).toISOString(),
    failure: failureInWords(tx, context.programs),
    feePayer,
    feeLamports: Number(tx.meta?.fee ?? 0),
    computeUnits: units === undefined || units === null ? null : Number(units),
    balanceChanges: balanceChanges(tx, context.usdcMint, labels),
    programLogs: programLogs(tx.meta?.logMessages ?? [], context.programs.wager),
    explorerUrl: transactionExplorerUrl(context.cluster, context.rpcUrl, signature),
  };
}
