export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Resolves on SIGINT (Ctrl-C), SIGTERM or SIGHUP with the signal's name; the long-running commands then
 * stop cleanly and exit 0. While they stop, one more signal is ignored (a Ctrl-C reaches a process run
 * through bin/wager-keeper.js's re-run twice: from the terminal and forwarded by the wrapper); a third
 * ends the process at once (exit 1).
 */
export function untilSignal(): Promise<StopSignal> {
  return new Promise((resolve) => {
    let received = 0;
    const onSignal = (signal: StopSignal) => {
      received += 1;
      if (received === 1) resolve(signal);
      else if (received >= 3) process.exit(1);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  });
}
