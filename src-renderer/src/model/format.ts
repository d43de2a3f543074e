/**
 * How the console words numbers, as pure functions (tested in __tests__): amounts with their units, ages,
 * the cluster's name, the runway and the low-balance advice.
 */
import type { ClusterName } from '@shared/cluster-identity';
import type { RunwayView } from '@shared/contract/status';
import { groupDigits } from '@shared/units';

// Amounts and their units are written once, in src-shared/units.ts; the screens read them from here.
export { formatSol, formatSolExact, formatUsdc, groupDigits, LAMPORTS_PER_SOL } from '@shared/units';

/** 12345 → "12,345 lamports"; 1 → "1 lamport". */
export const formatLamports = (lamports: number): string => {
  const rounded = Math.round(lamports);
  return `${groupDigits(rounded)} ${rounded === 1 ? 'lamport' : 'lamports'}`;
};

/** 1234 → "1,234 slots"; 1 → "1 slot". */
export const formatSlots = (slots: number): string => `${groupDigits(slots)} ${slots === 1 ? 'slot' : 'slots'}`;

/** A duration: "0.4 s", "5 s", "12 s", "3 min", "2 h", "3 d". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, ms / 1000);
  if (seconds < 10) return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3_600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** How long ago: "0.4 s ago", "12 s ago", "3 min ago", "2 h ago"; 0 (never happened) → "never". */
export const formatAge = (atMs: number, nowMs: number): string => (atMs ? `${formatDuration(nowMs - atMs)} ago` : 'never');

/** "AbCd…WxYz" for long addresses and signatures (the full text stays in a title and the copy button). */
export const shorten = (text: string, keep = 4): string => (text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`);

export { clusterLabel } from '@shared/contract/cluster';

/**
 * The Solana Explorer page of a transaction or an address, on public clusters only (a localnet's or a
 * custom cluster's are not on Explorer: those are shown with a copy button alone).
 * @example explorerUrl('devnet', 'address', 'Ab…') // "https://explorer.solana.com/address/Ab…?cluster=devnet"
 */
export function explorerUrl(cluster: ClusterName | null | undefined, kind: 'tx' | 'address', value: string): string | null {
  if (cluster !== 'mainnet-beta' && cluster !== 'devnet' && cluster !== 'testnet') return null;
  return `https://explorer.solana.com/${kind}/${value}${cluster === 'mainnet-beta' ? '' : `?cluster=${cluster}`}`;
}

/** "about 19,999 cranks at 5,000 lamports each". */
export const describeRunway = (runway: RunwayView): string =>
  `about ${groupDigits(runway.cranks)} ${runway.cranks === 1 ? 'crank' : 'cranks'} at ${formatLamports(runway.lamportsPerCrank)} each`;

/** What to do about a low balance: where to send SOL, and on devnet (or testnet) the airdrop command. */
export function lowBalanceAdvice(address: string, cluster: ClusterName | null): { send: string; airdrop: string | null } {
  const send = `Send SOL to ${address}: the keeper pays each crank's transaction fee up front and stops cranking when it cannot.`;
  const airdrop = cluster === 'devnet' || cluster === 'testnet' ? `solana airdrop 1 ${address} --url ${cluster}` : null;
  return { send, airdrop };
}

/** Local midnight of the day containing `nowMs` (the "today" of earnings and crank counts). */
export function startOfLocalDay(nowMs: number): number {
  const day = new Date(nowMs);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}
