/**
 * System notifications. Since Electron 42 an unsigned macOS build cannot show them: the Notification emits
 * 'failed' (an error string) instead. The first failure is logged (once, not per notification); the state
 * they announce stays visible anyway, in the window (stall banners) and the tray (its state in words).
 */
import { oracleStallLevel, type StallLevel } from '../operator/operator-interface';
import type { DesktopLog, DesktopService, Electron } from './electron-api';

export type Notify = (message: { title: string; body: string }) => void;

export function createNotifier(electron: Pick<Electron, 'Notification'>, log: DesktopLog): Notify {
  let failureLogged = false;
  return ({ title, body }) => {
    if (!electron.Notification.isSupported()) return;
    const notification = new electron.Notification({ title, body });
    notification.on('failed', (_event, error) => {
      if (failureLogged) return;
      failureLogged = true;
      log.warn(
        { error, title },
        'system notifications cannot be shown (an unsigned macOS build cannot: sign and notarize it); the window and the tray icon still show the keeper state',
      );
    });
    notification.show();
  };
}

/**
 * A notification when the oracle stalls (warning, then critical) and when it recovers: the operator may
 * not be looking at the window. Once per change of level, not once per health event.
 */
export function notifyOracleStalls(notify: Notify, service: Pick<DesktopService, 'onEvent'>): () => void {
  let level: StallLevel = 'none';
  return service.onEvent((event) => {
    if (event.type !== 'health') return;
    const next = oracleStallLevel(event.health.oracleWait);
    if (next === level) return;
    level = next;
    const slots = event.health.oracleWait.oldestWaitSlots;
    const body =
      next === 'none'
        ? 'Fulfilments resumed: no request waits long any more.'
        : `A randomness request has waited ${slots} slots. Wagers expire at open + 150 (stakes forfeited to the pool).${next === 'critical' ? ' The guardian should pause new wagers: Oracle screen, New wagers (or the automatic guardian in Settings).' : ''}`;
    notify({
      title:
        next === 'none'
          ? 'Oracle recovered'
          : next === 'critical'
            ? 'Oracle stalled (critical)'
            : 'Oracle slow',
      body,
    });
  });
}
