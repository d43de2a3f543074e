/**
 * The alert conditions (issue 26): each one, from a snapshot of what the core knows now, to a reading
 * (does it hold, how bad, and a sentence with the figures and what to do). Pure: the engine adds time
 * (debounce, reminders, resolution); readiness.ts reads the critical ones raw.
 */
import type { AlertName, AlertSeverity, AlertThresholds } from '../../src-shared/alert-types';
import { oracleStallLevel, type OracleWait } from '../../src-shared/oracle-stall';
import { T_SETTLE_SLOTS } from '../../src-shared/wager-timing';
import { LAMPORTS_PER_SOL } from '../../src-shared/units';

/** An epoch strike stays news this long (then the notice resolves by itself). */
export const EPOCH_STRUCK_NOTICE_MS = 10 * 60_000;

/** What the conditions read of the keeper's health (the operator's HealthView carries this and more). */
export interface AlertHealth {
  /** The keeper's balance, lamports as a decimal string. */
  lamports: string;
  /** Unix ms of the last completed loop pass. */
  lastTick: number;
  rpcError: string | null;
  /** Unix ms the slot was last read successfully (0: never). */
  checkedAt: number;
  runway: { cranks: number };
  oracleWait: OracleWait;
  /** Wagers still without a request; heldFor null: this keeper's own. */
  overdue: readonly { heldFor: unknown; slotsLate: number }[];
}

/** What the core knows now, gathered by the alert service. */
export interface AlertSnapshot {
  /** Unix ms. */
  now: number;
  /** The keeper's health; null while no keeper runs (nothing about the keeper can alert then). */
  health: AlertHealth | null;
  /** Unix ms the current core started: the reference for "never succeeded yet". */
  startedAt: number;
  /** Cranks per hour over the last hour (runway in hours = runway cranks / this). */
  cranksPerHour: number;
  /** The keeper's own crank failures in the last 10 minutes. */
  crankFailuresLast10Min: number;
  /** This keeper's wagers still without a request, with the slots left before they expire. */
  unrequested: { wager: string; slotsLeft: number }[];
  /** New wagers paused on chain (null: unknown, no deployment). */
  newWagersPaused: boolean | null;
  fleet: readonly { url: string; stale: boolean }[];
  /** The liquidity pool as last read (null: not read, or no deployment). */
  liquidity: { epochStruckAtMs: number | null; struckEpoch: number | null; claimsReady: number } | null;
}

export interface ConditionReading {
  holds: boolean;
  severity: AlertSeverity;
  /** One sentence with the figures and what to do ('' when it does not hold). */
  summary: string;
}

const clear: ConditionReading = { holds: false, severity: 'warning', summary: '' };
const warning = (summary: string): ConditionReading => ({ holds: true, severity: 'warning', summary });
const critical = (summary: string): ConditionReading => ({ holds: true, severity: 'critical', summary });
const sol = (lamports: number) => `${(lamports / LAMPORTS_PER_SOL).toFixed(3)} SOL`;
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

type Condition = (snapshot: AlertSnapshot, thresholds: AlertThresholds) => ConditionReading;

export const CONDITIONS: Record<AlertName, Condition> = {
  'balance-low': ({ health, cranksPerHour }, t) => {
    if (!health) return clear;
    const lamports = Number(health.lamports);
    const fund = 'fund the keeper address (Overview shows it) so it can keep paying transaction fees';
    if (lamports < t.balanceCriticalSol * LAMPORTS_PER_SOL) return critical(`The keeper balance is ${sol(lamports)}, below the critical level of ${t.balanceCriticalSol} SOL: ${fund} now.`);
    if (lamports < t.balanceWarningSol * LAMPORTS_PER_SOL) return warning(`The keeper balance is ${sol(lamports)}, below the warning level of ${t.balanceWarningSol} SOL: ${fund}.`);
    const runwayHours = cranksPerHour > 0 ? health.runway.cranks / cranksPerHour : Infinity;
    if (runwayHours < t.runwayWarningHours)
      return warning(`At ${Math.round(cranksPerHour)} cranks an hour the keeper balance of ${sol(lamports)} lasts about ${runwayHours.toFixed(1)} h, under ${t.runwayWarningHours} h: ${fund}.`);
    return clear;
  },
  'rpc-failing': ({ health, now, startedAt }, t) => {
    if (!health) return clear;
    const failingForMs = now - (health.checkedAt || startedAt);
    if (failingForMs <= t.rpcFailingSeconds * 1000) return clear;
    const why = health.rpcError ? ` (${health.rpcError})` : '';
    return critical(`The RPC has not answered for ${seconds(failingForMs)}${why}: check the node or pick another RPC in Settings → Cluster.`);
  },
  'loop-stalled': ({ health, now, startedAt }, t) => {
    if (!health) return clear;
    const stalledForMs = now - (health.lastTick || startedAt);
    if (stalledForMs <= t.loopStalledSeconds * 1000) return clear;
    return critical(`The crank loop has not completed a pass for ${seconds(stalledForMs)}: check the RPC and the log, and restart the keeper if it stays stuck.`);
  },
  'requests-overdue': ({ health }) => {
    const own = health?.overdue.filter((entry) => entry.heldFor === null) ?? [];
    if (own.length === 0) return clear;
    const worst = Math.max(...own.map((entry) => entry.slotsLate));
    return warning(`${own.length} wager${own.length === 1 ? '' : 's'} still without a randomness request, the oldest ${worst} slots late: check the RPC and the keeper balance; the queue shows each one's last error.`);
  },
  'expiry-without-request': ({ unrequested }, t) => {
    const near = unrequested.filter((entry) => entry.slotsLeft <= t.expiryWarningSlots);
    if (near.length === 0) return clear;
    const soonest = Math.min(...near.map((entry) => entry.slotsLeft));
    return critical(`${near.length} wager${near.length === 1 ? '' : 's'} will expire within ${t.expiryWarningSlots} slots with no randomness request (the soonest in ${Math.max(0, soonest)}): its stake goes back unplayed unless the request lands; check the RPC and the keeper balance.`);
  },
  'oracle-stalled': ({ health }) => {
    const level = oracleStallLevel(health?.oracleWait);
    if (level === 'none' || !health) return clear;
    const what = `${health.oracleWait.waiting} randomness request${health.oracleWait.waiting === 1 ? '' : 's'} waiting, the oldest for ${health.oracleWait.oldestWaitSlots} slots`;
    return level === 'critical'
      ? critical(`The oracle has stalled: ${what}; wagers expire at ${T_SETTLE_SLOTS} slots: pause new wagers (Guardian) until it fulfils again.`)
      : warning(`The oracle is slow: ${what}; watch it, and pause new wagers (Guardian) if it reaches 60.`);
  },
  'guardian-paused': ({ newWagersPaused }) =>
    newWagersPaused ? warning('New wagers are paused by the guardian: players cannot open wagers until it is lifted (Guardian → Resume new wagers).') : clear,
  'fleet-member-silent': ({ fleet }) => {
    const silent = fleet.filter((member) => member.stale);
    if (silent.length === 0) return clear;
    return warning(`${silent.length} fleet member${silent.length === 1 ? '' : 's'} silent (${silent.map((member) => member.url).join(', ')}): its shard's wagers wait for the takeover; check that keeper and its network.`);
  },
  'crank-failures': ({ crankFailuresLast10Min }, t) =>
    crankFailuresLast10Min > t.crankFailuresPer10Min
      ? warning(`${crankFailuresLast10Min} crank failures in the last 10 minutes (the threshold is ${t.crankFailuresPer10Min}): the Overview's step table and the log show why.`)
      : clear,
  'lp-epoch-struck': ({ liquidity, now }) =>
    liquidity?.epochStruckAtMs !== null && liquidity !== null && now - liquidity.epochStruckAtMs < EPOCH_STRUCK_NOTICE_MS
      ? warning(`Liquidity epoch ${liquidity.struckEpoch} was struck: its deposit and withdrawal requests can be claimed now (Liquidity).`)
      : clear,
  'lp-claim-ready': ({ liquidity }) =>
    liquidity && liquidity.claimsReady > 0
      ? warning(`${liquidity.claimsReady} deposit or withdrawal claim${liquidity.claimsReady === 1 ? ' is' : 's are'} ready: claim ${liquidity.claimsReady === 1 ? 'it' : 'them'} on the Liquidity screen.`)
      : clear,
};

/** Every condition's reading now. */
/**
 * What a "resolved" message says: the condition no longer holds, in words. (The firing's summary ends
 * with what to do, which is wrong advice once it has cleared.)
 */
export const RESOLVED_SUMMARIES: Record<AlertName, string> = {
  'balance-low': "The keeper's balance and runway are above the alert levels again.",
  'rpc-failing': 'The RPC answers again.',
  'loop-stalled': "The keeper's loop passes again.",
  'requests-overdue': 'No randomness request is overdue any more.',
  'expiry-without-request': 'No wager is near its expiry without a randomness request any more.',
  'oracle-stalled': 'The oracle fulfils again: no randomness request waits long any more.',
  'guardian-paused': 'New wagers are open again: the guardian lifted its pause.',
  'fleet-member-silent': 'Every fleet member answers again.',
  'crank-failures': "The keeper's crank failures are back under the alert rate.",
  'lp-epoch-struck': 'The epoch notice is over.',
  'lp-claim-ready': 'No liquidity claim is waiting any more.',
};

export function readConditions(snapshot: AlertSnapshot, thresholds: AlertThresholds): Record<AlertName, ConditionReading> {
  return Object.fromEntries(Object.entries(CONDITIONS).map(([name, condition]) => [name, condition(snapshot, thresholds)])) as Record<AlertName, ConditionReading>;
}
