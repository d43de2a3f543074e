/**
 * Power: while the keeper has work in flight (its queue from health events, and not paused) the app holds
 * a 'prevent-app-suspension' blocker, so the system does not sleep under a wager (the screen still may);
 * it is released when idle. The machine can still sleep (a closed lid, the user's choice, a low battery):
 * on 'resume' the keeper sweeps at once and sends what is due, raising the fee of every wager near its
 * expiry (DesktopService.wake).
 */
import type { DesktopLog, DesktopService, Electron } from './electron-api';

export interface PowerWatch {
  /** Whether a blocker is held now. */
  holding(): boolean;
  stop(): void;
}

export function watchPower(
  electron: Pick<Electron, 'powerSaveBlocker' | 'powerMonitor'>,
  service: Pick<DesktopService, 'onEvent' | 'wake'>,
  log: DesktopLog,
): PowerWatch {
  const { powerSaveBlocker, powerMonitor } = electron;
  let blocker: number | null = null;
  let queue = 0;
  let paused = false;

  const release = () => {
    if (blocker !== null && powerSaveBlocker.isStarted(blocker)) powerSaveBlocker.stop(blocker);
    blocker = null;
  };
  const apply = () => {
    const busy = queue > 0 && !paused;
    if (busy && blocker === null) blocker = powerSaveBlocker.start('prevent-app-suspension');
    else if (!busy) release();
  };
  const unsubscribe = service.onEvent((event) => {
    if (event.type === 'health') queue = event.health.queue;
    else if (event.type === 'status') paused = event.status.paused || event.status.phase !== 'running';
    else return;
    apply();
  });
  const onResume = () => {
    log.info({}, 'the system resumed from sleep: the keeper sweeps and sends what is due now');
    service
      .wake()
      .catch((error: unknown) =>
        log.warn(
          { error: (error as Error).message },
          'the keeper could not catch up after sleep; its next pass tries again',
        ),
      );
  };
  powerMonitor.on('resume', onResume);
  return {
    holding: () => blocker !== null,
    stop() {
      unsubscribe();
      powerMonitor.removeListener('resume', onResume);
      release();
    },
  };
}
