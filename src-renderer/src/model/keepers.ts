/**
 * The Keepers list and the fleet view as words, pure (tested in __tests__/keepers.test.ts): a keeper's
 * state pill ("disconnected — retrying in 5 s"), what the status line says about the shown keeper, which
 * connection the console follows, the add form's check, and a fleet row's figures with their units — or
 * "unreachable" with its reason, never a zero.
 */
import { LOCAL_KEEPER_ID, parseServerTarget, type KeeperConnectionState, type KeeperEntryView, type KeeperFleetRow, type KeepersView } from '@shared/contract/keepers';
import { formatDuration, formatSol, formatSolExact, groupDigits } from './format';

/** The event stream's state as the console's transport reports it (transport.ts's ConnectionState). */
export type ShownConnection = 'connecting' | 'connected' | 'disconnected';

/** "retrying in 5 s" (whole seconds, rounded up), "retrying in 3 min", or "retrying now" once the time passed. */
export function retryText(retryAtMs: number, nowMs: number): string {
  const left = retryAtMs - nowMs;
  return left > 0 ? `retrying in ${formatDuration(Math.ceil(left / 1_000) * 1_000)}` : 'retrying now';
}

const STATE_WORDS: Record<KeeperConnectionState, string> = {
  connected: 'connected',
  connecting: 'connecting',
  disconnected: 'disconnected',
  'host-key-unknown': 'host key unknown',
  'host-key-changed': 'host key changed',
  failed: 'failed',
};

/** The pill of a keeper in the list: its state, with the next attempt while it waits to retry. */
export function keeperStateText(entry: Pick<KeeperEntryView, 'state' | 'retryAtMs'>, nowMs: number): string {
  const words = STATE_WORDS[entry.state];
  const retrying = entry.state === 'disconnected' || entry.state === 'failed';
  return retrying && entry.retryAtMs !== null ? `${words} — ${retryText(entry.retryAtMs, nowMs)}` : words;
}

/** The pill's colour: fine, on its way, or needs the operator. */
export function keeperStateTone(state: KeeperConnectionState): 'ok' | 'warn' | 'error' {
  if (state === 'connected') return 'ok';
  if (state === 'connecting' || state === 'disconnected' || state === 'host-key-unknown') return 'warn';
  return 'error';
}

/** The keeper the console shows (null before the list is known, or if the id is not in it). */
export const shownKeeper = (view: KeepersView | undefined): KeeperEntryView | null =>
  view?.keepers.find((entry) => entry.id === view.shown) ?? null;

/**
 * The connection the console follows: the shown keeper's. This computer is always connected (its keeper
 * is in the app); a server is connecting while an attempt runs and disconnected otherwise.
 */
export function shownConnection(view: KeepersView): ShownConnection {
  const shown = shownKeeper(view);
  if (!shown || shown.kind === 'local' || shown.id === LOCAL_KEEPER_ID) return 'connected';
  if (shown.state === 'connected') return 'connected';
  return shown.state === 'connecting' ? 'connecting' : 'disconnected';
}

const BANNER_WORDS: Record<KeeperConnectionState, string> = {
  connected: 'connected',
  connecting: 'connecting…',
  disconnected: 'disconnected — reconnecting',
  'host-key-unknown': 'disconnected — host key to accept in Keepers',
  'host-key-changed': 'disconnected — host key changed, refused',
  failed: 'disconnected — failed, retrying',
};

/** What the status line says about the shown keeper: "This computer", or the server's label and its connection. */
export function bannerKeeperText(entry: KeeperEntryView): { label: string; connection: string | null; tone: 'ok' | 'warn' | 'error' } {
  if (entry.kind === 'local') return { label: entry.label, connection: null, tone: 'ok' };
  return { label: entry.label, connection: BANNER_WORDS[entry.state], tone: keeperStateTone(entry.state) };
}

/** The add form's check before anything is sent: the parseServerTarget error text, or null when it reads. */
export function serverInputError(target: string): string | null {
  if (!target.trim()) return 'Type the server as user@host or user@host:port (for example deploy@203.0.113.7:22).';
  try {
    parseServerTarget(target);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A fleet row's figures as text with their units; a keeper that answered without one says "not reported". */
export interface FleetFigures {
  balance: string;
  runway: string;
  runwayLow: boolean;
  queue: string;
  cranksToday: string;
  netToday: string;
  alerts: string;
}

const NOT_REPORTED = 'not reported';

const count = (value: number | null, one: string, many: string) =>
  value === null ? NOT_REPORTED : `${groupDigits(value)} ${value === 1 ? one : many}`;

/**
 * The unreachable rule: a keeper that could not be asked shows "unreachable" and why, in place of every
 * figure (never a zero or a dash that reads like one). Else its figures, each with its unit.
 */
export function fleetFigures(row: KeeperFleetRow): { unreachable: string } | FleetFigures {
  if (!row.reachable) return { unreachable: `unreachable: ${row.error ?? 'it did not answer'}` };
  return {
    balance: row.lamports === null ? NOT_REPORTED : formatSolExact(row.lamports),
    runway: count(row.runwayCranks, 'crank', 'cranks'),
    runwayLow: row.runwayLow === true,
    queue: count(row.queue, 'wager', 'wagers'),
    cranksToday: count(row.cranksToday, 'crank', 'cranks'),
    netToday: row.netTodayLamports === null ? NOT_REPORTED : formatSol(row.netTodayLamports),
    alerts: row.activeAlerts === null ? NOT_REPORTED : row.activeAlerts === 0 ? 'none' : `${groupDigits(row.activeAlerts)} active`,
  };
}

/** The keeper's own state beside its connection in the fleet: "running", "paused", "starting", … */
export const fleetPhaseText = (row: KeeperFleetRow): string | null =>
  row.phase === null ? null : row.phase === 'running' && row.paused ? 'paused' : row.phase;
