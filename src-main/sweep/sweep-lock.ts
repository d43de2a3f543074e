/**
 * One sweep at a time per keeper key, in this process (issue 33): "Send now", the automatic mode and any
 * sweeper built later for the same key queue on one promise chain. A sweep plans from the balance it
 * reads, so two that overlap would each see the whole balance and together cut into the reserve; run
 * one after the other, the second reads the balance the first left.
 */

const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `sweep` once every earlier sweep of `keeper` has ended (sent, refused or failed), and answers
 * what it answers. Read the balance inside `sweep`, never before.
 */
export function withSweepLock<T>(keeper: string, sweep: () => Promise<T>): Promise<T> {
  const before = tails.get(keeper) ?? Promise.resolve();
  const result = before.then(sweep, sweep);
  // The chain waits for this sweep whatever its outcome; its own caller gets the error.
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  tails.set(keeper, tail);
  void tail.then(() => {
    if (tails.get(keeper) === tail) tails.delete(keeper);
  });
  return result;
}
