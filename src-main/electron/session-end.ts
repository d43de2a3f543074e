/**
 * The keeper's graceful stop when the system ends the session. Windows (shutdown, restart, sign-out)
 * emits no before-quit then (app.md, 'before-quit' and 'will-quit' notes): it sends WM_QUERYENDSESSION
 * and WM_ENDSESSION to every top-level window, which Electron turns into BaseWindow's 'query-session-end'
 * and 'session-end' (browser-window.md; native_window_views_win.cc: "The OS kills us and our child
 * processes right after [WM_ENDSESSION] returns"). A start at login (`--hidden`) has no console window, so
 * a hidden BaseWindow without web contents is kept for the app's life to receive them. On
 * 'query-session-end' the app starts its quit (the keeper finishes what is in flight and closes SQLite)
 * and holds the shutdown with preventDefault until that stop is done: Windows lists Wager Keeper as
 * finishing and goes on when the app exits. Linux and macOS: powerMonitor's 'shutdown' (power-monitor.md),
 * prevented the same way while the app quits.
 */
import type { DesktopLog, Electron } from './electron-api';

export interface SessionEndWatch {
  stop(): void;
}

export function watchSessionEnd(
  electron: Pick<Electron, 'BaseWindow' | 'powerMonitor'>,
  platform: NodeJS.Platform,
  options: {
    /** Starts the app's quit (app.quit: before-quit stops the keeper). */
    quit(): void;
    /** The keeper has stopped (nothing left to wait for). */
    stopped(): boolean;
    log: DesktopLog;
  },
): SessionEndWatch {
  const { log } = options;
  if (platform === 'win32') {
    const guard = new electron.BaseWindow({ show: false, width: 1, height: 1, skipTaskbar: true, title: 'Wager Keeper' });
    guard.on('query-session-end', (event) => {
      log.info({ reasons: event.reasons }, 'Windows is ending the session: the keeper stops gracefully first');
      options.quit();
      if (!options.stopped()) event.preventDefault();
    });
    guard.on('session-end', (event) => {
      if (!options.stopped())
        log.warn({ reasons: event.reasons }, 'the session ended before the keeper had stopped; what was in flight is resumed at the next start');
    });
    return { stop: () => void (guard.isDestroyed() || guard.destroy()) };
  }
  const onShutdown = (event: { preventDefault(): void }) => {
    log.info({}, 'the system is shutting down: the keeper stops gracefully first');
    options.quit();
    if (!options.stopped()) event.preventDefault();
  };
  // The typings give 'shutdown' no argument; Electron emits an Event whose preventDefault delays it (power-monitor.md).
  const listener = onShutdown as unknown as () => void;
  electron.powerMonitor.on('shutdown', listener);
  return { stop: () => void electron.powerMonitor.removeListener('shutdown', listener) };
}
