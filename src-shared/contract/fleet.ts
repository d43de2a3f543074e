/**
 * The console contract, fleet: the operator's other keepers as their public /v1/health answers.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** Another member of the operator's fleet, as its public `/v1/health` answers (Settings → Fleet lists their URLs). */
export interface FleetMemberView {
  /** The member's API base, as configured (e.g. `http://10.0.0.2:7300`). */
  url: string;
  keeper: string | null;
  /** Decimal lamports. */
  lamports: string | null;
  /** Unix ms of the member's last loop pass. */
  lastTick: number | null;
  queue: number | null;
  /** `I/N` when the member runs with `--shard`, else null. */
  shard: string | null;
  overdue: number | null;
  rpcError: string | null;
  /** Unix ms of its last answer. */
  answeredAtMs: number | null;
  /** Why the last poll failed (unreachable, HTTP status, not a health record), or null. */
  error: string | null;
  /** No answer for 15 s (three polls): the Overview warns. */
  stale: boolean;
}

/** Fleet's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface FleetApi {
  /** The other fleet members (Settings → Fleet) as their /v1/health last answered. */
  fleet(): Promise<FleetMemberView[]>;
}

/** Fleet's method names, in the order the transports list them. */
export const FLEET_METHODS = ['fleet'] as const satisfies readonly (keyof FleetApi)[];
