/**
 * Power, per platform (power-save-blocker.md: 'prevent-app-suspension' keeps the app active and the system
 * from idle sleep; the screen may still sleep).
 * - macOS: held the whole time the keeper runs (paused or not, queue or not). App Nap throttles the timers
 *   of an app without a visible window, and the keeper's 400 ms slot loop, RPC health checks and sweeps are
 *   timers: they would run late exactly while the window is closed and no wager is queued, and the next
 *   wager would meet a keeper that wakes up late. The blocker (an NSProcessInfo activity) is the only way
 *   Electron offers to opt out of App Nap; it also keeps the Mac from idle sleep while the keeper runs,
 *   which is what running a keeper asks of the machine. Released when the keeper stops or fails.
 * - Windows and Linux: no App Nap; background timers run on time. The blocker is held only while wagers
 *   are in flight (the queue from health events, not paused), so a laptop is not kept awake for an idle
 *   keeper; released when idle. The machine can still sleep (a closed lid, the user's choice, a low battery):
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
  platform: NodeJS.Platform = process.platform,
): PowerWatch {
  const { powerSaveBlocker, powerMonitor } = electron;
  let blocker: number | null = null;
  let queue = 0;
  let paused = false;
  let running = false;

  const release = () => {
    if (blocker !== null && powerSaveBlocker.isStarted(blocker)) powerSaveBlocker.stop(blocker);
    blocker = null;
  };
  const apply = () => {
    const busy = platform === 'darwin' ? running : queue > 0 && !paused;
    if (busy && blocker === null) blocker = powerSaveBlocker.start('prevent-app-suspension');
    else if (!busy) release();
  };
  const unsubscribe = service.onEvent((event) => {
    if (event.type === 'health') queue = event.health.queue;
    else if (event.type === 'status') {
      running = event.status.phase === 'running';
      paused = event.status.paused || !running;
    }
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
