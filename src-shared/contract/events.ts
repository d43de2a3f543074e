/**
 * The console contract, live events: what the core pushes; the UI folds them into its query cache. Records
 * and steps come in batches.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { AlertMessage } from '../alert-types';
import type { QueueRow, StepView, OracleLatencyView } from './activity';
import type { StatusView, HealthView } from './status';

/** Live events the core pushes; the UI folds them into its query cache. Records and steps come in batches. */
export type OperatorEvent =
  | { type: 'status'; status: StatusView }
  | { type: 'health'; health: HealthView }
  | { type: 'records'; records: QueueRow[] }
  | { type: 'steps'; steps: StepView[] }
  /** Something was booked in the earnings ledger: refetch the earnings views. */
  | { type: 'earnings' }
  | { type: 'latency'; latency: OracleLatencyView[] }
  /** The guardian paused or resumed new wagers, or its key or settings changed: read the guardian view again. */
  | { type: 'guardian' }
  /**
   * An alert fired, reminded or resolved: refetch `alerts`. The desktop host shows a system notification
   * unless `muted` (recorded in the history while muted, delivered to no channel).
   */
  | { type: 'alert'; message: AlertMessage; muted?: boolean };
