/**
 * System notifications. Since Electron 42 an unsigned macOS build cannot show them: the Notification emits
 * 'failed' (an error string) instead. The first failure is logged (once, not per notification); the state
 * they announce stays visible anyway, in the window (stall banners) and the tray (its state in words).
 */
import type { AlertMessage } from '../../src-shared/alert-types';
import { scrubSecrets } from '../../src-shared/secret-scrub';
import type { DesktopLog, DesktopService, Electron } from './electron-api';

export type Notify = (message: { title: string; body: string }) => void;

export function createNotifier(electron: Pick<Electron, 'Notification'>, log: DesktopLog): Notify {
  let failureLogged = false;
  return ({ title, body }) => {
    if (!electron.Notification.isSupported()) return;
    // Shown on screen and kept by the system's notification centre: scrubbed like a log line.
    const notification = new electron.Notification({ title: scrubSecrets(title), body: scrubSecrets(body) });
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

/** The notification's title: the alert in words and what happened to it. */
export function alertNotificationTitle(message: AlertMessage): string {
  const name = message.alert.replace(/-/g, ' ');
  const what = name.charAt(0).toUpperCase() + name.slice(1);
  if (message.state === 'resolved') return `Resolved: ${what}`;
  return `${message.reminder ? 'Still firing' : message.severity === 'critical' ? 'Critical' : 'Warning'}: ${what}`;
}

/**
 * Every alert the core's engine delivers (firing, reminder, resolution; muted ones are not delivered) as a
 * system notification, unless Settings → Alerts turned desktop notifications off. The engine already
 * debounces and never repeats, so this shows each message it gets.
 */
export function notifyAlerts(notify: Notify, service: Pick<DesktopService, 'onEvent' | 'api'>, log: DesktopLog): () => void {
  return service.onEvent((event) => {
    if (event.type !== 'alert' || event.muted) return; // a muted alert only refreshes the console
    const { message } = event;
    service.api
      .alertSettings()
      .then((settings) => {
        if (settings.desktopNotifications !== false) notify({ title: alertNotificationTitle(message), body: message.summary });
      })
      .catch((error: unknown) => log.warn({ error: (error as Error).message, alert: message.alert }, 'an alert notification was not shown: its settings could not be read'));
  });
}
