/** Resolves on SIGINT (Ctrl-C) or SIGTERM with the signal's name; the long-running commands then stop cleanly and exit 0. */
export function untilSignal(): Promise<'SIGINT' | 'SIGTERM'> {
  return new Promise((resolve) => {
    const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
