/**
 * The automatic mode: every check (a timer, or a test calling `check`) reads the balance and, when it
 * exceeds reserve + threshold and the last automatic sweep is one interval old (sweep-plan.ts), sends
 * everything above the reserve. The last automatic sweep's time comes from the ledger, so a restart does
 * not send again within the interval.
 */
import type { BookedSweep, SweepLedger } from '../store/sweep-ledger';
import { automaticSweepDue } from './sweep-plan';
import type { Sweeper } from './sweeper';

export interface AutomaticSweepConfig {
  enabled: boolean;
  destination: string | null;
  reserveLamports: bigint;
  thresholdLamports: bigint;
  everyMs: number;
}

export type AutomaticCheck =
  | { outcome: 'off' }
  | { outcome: 'waiting'; reason: string }
  | { outcome: 'sent'; sweep: BookedSweep }
  | { outcome: 'failed'; error: string };

export interface AutomaticSweep {
  check(): Promise<AutomaticCheck>;
  /** Checks every `periodMs` until stopped. */
  start(periodMs: number): void;
  stop(): void;
  /** The last check's outcome (null before the first). */
  last(): AutomaticCheck | null;
}

export function createAutomaticSweep(options: {
  sweeper: Pick<Sweeper, 'balance' | 'plan' | 'send' | 'exclusive'>;
  ledger: Pick<SweepLedger, 'lastAtMs'>;
  /** Read at every check: the settings may change between checks. */
  config(): AutomaticSweepConfig;
  now?: () => number;
  onSent?(sweep: BookedSweep): void;
  onError?(error: string): void;
}): AutomaticSweep {
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<AutomaticCheck> | undefined;
  let last: AutomaticCheck | null = null;

  const run = async (): Promise<AutomaticCheck> => {
    const config = options.config();
    if (!config.enabled || !config.destination) return { outcome: 'off' };
    try {
      // Under the key's sweep lock: "Send now" may be sending; the balance is read once it has ended.
      const destination = config.destination;
      return await options.sweeper.exclusive(() => sweepIfDue({ ...config, destination }));
    } catch (error) {
      const message = (error as Error).message;
      options.onError?.(message);
      return { outcome: 'failed', error: message };
    }
  };
  const sweepIfDue = async (config: AutomaticSweepConfig & { destination: string }): Promise<AutomaticCheck> => {
    const balanceLamports = await options.sweeper.balance();
    const due = automaticSweepDue({
      ...config,
      balanceLamports,
      lastAutomaticAtMs: options.ledger.lastAtMs('automatic'),
      nowMs: now(),
    });
    if (!due.due) return { outcome: 'waiting', reason: due.reason };
    const plan = await options.sweeper.plan({
      destination: config.destination,
      reserveLamports: config.reserveLamports,
    });
    const sweep = await options.sweeper.send(plan, 'automatic');
    options.onSent?.(sweep);
    return { outcome: 'sent', sweep };
  };
  // One check at a time: a slow confirmation never overlaps the next timer tick (no double send).
  const check = () => {
    running ??= run().then((outcome) => {
      last = outcome;
      running = undefined;
      return outcome;
    });
    return running;
  };
  return {
    check,
    start(periodMs) {
      clearInterval(timer);
      timer = setInterval(() => void check(), periodMs);
      timer.unref();
    },
    stop: () => clearInterval(timer),
    last: () => last,
  };
}
