/**
 * The tray icon, the app's handle while the window is closed: its tooltip and menu say the keeper's state
 * in words (cranking, paused, needs attention, starting), its balance and today's net earnings, and offer
 * Open console, Pause/Resume, Start at login and Quit (the only way to stop the keeper). State comes from
 * the core's live events; earnings from the operator API's overview, at most once per EARNINGS_REFRESH_MS.
 * The menu is built again and set again only when something in it changed (Linux shows a changed menu
 * only after setContextMenu).
 */
import type * as ElectronModule from 'electron';
import { join } from 'node:path';
import { scrubSecrets } from '../../src-shared/secret-scrub';
import { oracleStallLevel } from '../../src-shared/oracle-stall';
import type { HealthView, StatusView } from '../../src-shared/contract/status';
import { LAMPORTS_PER_SOL } from '../../src-shared/units';
import type { DesktopLog, DesktopService, Electron } from './electron-api';

export const EARNINGS_REFRESH_MS = 30_000;

export type KeeperState = 'starting' | 'cranking' | 'paused' | 'needs attention';

/** The keeper's state in words, with the reason when it needs attention (scrubbed: the tooltip is on screen). */
export function keeperState(
  status: StatusView | null,
  health: HealthView | null,
): { state: KeeperState; detail: string } {
  const { state, detail } = stateInWords(status, health);
  return { state, detail: scrubSecrets(detail) };
}

function stateInWords(
  status: StatusView | null,
  health: HealthView | null,
): { state: KeeperState; detail: string } {
  if (!status || status.phase === 'starting') return { state: 'starting', detail: 'the keeper is starting' };
  if (status.phase === 'failed' || status.phase === 'noDeployment')
    return {
      state: 'needs attention',
      detail: status.error ?? 'the keeper is not running: open the console',
    };
  if (health?.rpcError)
    return { state: 'needs attention', detail: `the RPC does not answer: ${health.rpcError}` };
  if (health && oracleStallLevel(health.oracleWait) !== 'none')
    return {
      state: 'needs attention',
      detail: `the oracle has not answered for ${health.oracleWait.oldestWaitSlots} slots`,
    };
  if (health && health.overdue.length > 0)
    return {
      state: 'needs attention',
      detail: `${health.overdue.length} ${health.overdue.length === 1 ? 'wager is' : 'wagers are'} overdue for randomness`,
    };
  if (health?.runway.low)
    return { state: 'needs attention', detail: 'the balance is low: send SOL to the keeper key' };
  if (status.paused) return { state: 'paused', detail: 'no new cranks are sent' };
  const queue = health?.queue ?? 0;
  return { state: 'cranking', detail: `${queue} ${queue === 1 ? 'wager' : 'wagers'} in progress` };
}

const sol = (lamports: bigint | number, digits: number) =>
  `${(Number(lamports) / LAMPORTS_PER_SOL).toLocaleString('en-US', { maximumFractionDigits: digits })} SOL`;

const startOfLocalDay = (now = new Date()) =>
  new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();

export interface TrayActions {
  openConsole(): void;
  quit(): void;
  /** "Save diagnostics…": the save dialog, then the archive (absent: no item). */
  saveDiagnostics?(): void;
  isOpenAtLogin(): boolean;
  setOpenAtLogin(enabled: boolean): void;
  /** The update item ("Restart to update", update-tray-item.ts), or null for none now. */
  updateItem?(): { label: string; enabled: boolean; click?: () => void } | null;
}

export interface KeeperTray {
  /** Builds the menu again (e.g. Start at login changed in Settings). */
  refresh(): void;
  destroy(): void;
}

/**
 * The tray icon's file per platform, in resources/icons/ (scripts/make-tray-icons.mjs makes them from
 * icon.png): macOS a template image (black and alpha, 16 pt with an @2x file, which nativeImage loads
 * beside it; a name ending in "Template" makes it one, native-image.md "Template Image"), so the menu bar
 * tints it for light and dark; Windows an ICO with 16, 20, 24, 32 and 48 px images (tray.md: "it is
 * recommended to use ICO icons to get best visual effects"); Linux the PNG.
 */
export function trayIconFile(iconsFolder: string, platform: NodeJS.Platform): string {
  const name = platform === 'darwin' ? 'trayTemplate.png' : platform === 'win32' ? 'tray.ico' : 'icon.png';
  return join(iconsFolder, name);
}

export function createKeeperTray(
  electron: Pick<Electron, 'Tray' | 'Menu' | 'nativeImage'>,
  options: {
    /** resources/icons */
    iconsFolder: string;
    platform: NodeJS.Platform;
    service: Pick<DesktopService, 'api' | 'onEvent'>;
    actions: TrayActions;
    log: DesktopLog;
  },
): KeeperTray {
  const { service, actions, log } = options;
  const image = electron.nativeImage.createFromPath(trayIconFile(options.iconsFolder, options.platform));
  if (options.platform === 'darwin') image.setTemplateImage(true);
  const tray = new electron.Tray(image);
  if (options.platform !== 'darwin') tray.on('click', () => actions.openConsole());

  let status: StatusView | null = null;
  let health: HealthView | null = null;
  let earningsToday: number | null = null;
  let lastMenu = '';
  let earningsTimer: NodeJS.Timeout | undefined;
  let lastEarningsAt = 0;
  let destroyed = false;

  const template = (): ElectronModule.MenuItemConstructorOptions[] => {
    const { state, detail } = keeperState(status, health);
    const running = status?.phase === 'running';
    return [
      { label: `${state[0]!.toUpperCase()}${state.slice(1)}: ${detail}`, enabled: false },
      { label: `Balance: ${running && health ? sol(BigInt(health.lamports), 4) : '—'}`, enabled: false },
      { label: `Earnings today: ${earningsToday === null ? '—' : sol(earningsToday, 6)}`, enabled: false },
      { type: 'separator' },
      { label: 'Open console', click: () => actions.openConsole() },
      {
        label: status?.paused ? 'Resume cranking' : 'Pause cranking',
        enabled: status !== null,
        click: () => {
          const paused = !status?.paused;
          service.api
            .setPaused({ paused })
            .catch((error: unknown) =>
              log.warn({ error: (error as Error).message }, 'the tray could not pause or resume the keeper'),
            );
        },
      },
      {
        label: 'Start at login',
        type: 'checkbox',
        checked: actions.isOpenAtLogin(),
        click: (item) => actions.setOpenAtLogin(item.checked),
      },
      ...(actions.saveDiagnostics ? [{ label: 'Save diagnostics…', click: () => actions.saveDiagnostics?.() }] : []),
      ...[actions.updateItem?.()].filter((item) => item != null),
      { type: 'separator' },
      { label: 'Quit Wager Keeper', click: () => actions.quit() },
    ];
  };

  const render = () => {
    if (destroyed) return;
    const items = template();
    const key = JSON.stringify(items.map(({ label, enabled, checked }) => [label, enabled, checked]));
    if (key === lastMenu) return;
    lastMenu = key;
    const { state, detail } = keeperState(status, health);
    tray.setToolTip(`Wager Keeper: ${state} (${detail})`);
    tray.setContextMenu(electron.Menu.buildFromTemplate(items));
  };

  /** Today's net earnings from the overview, at most once per EARNINGS_REFRESH_MS (a burst of cranks asks once). */
  const refreshEarnings = () => {
    if (earningsTimer || destroyed) return;
    const wait = Math.max(0, lastEarningsAt + EARNINGS_REFRESH_MS - Date.now());
    earningsTimer = setTimeout(() => {
      lastEarningsAt = Date.now();
      service.api
        .overview({ dayStartMs: startOfLocalDay() })
        .then((overview) => (earningsToday = overview.earnings.today.netLamports))
        .catch((error: unknown) =>
          log.warn({ error: (error as Error).message }, 'the tray could not read today’s earnings'),
        )
        .finally(() => {
          earningsTimer = undefined;
          render();
        });
    }, wait);
    earningsTimer.unref?.();
  };

  const unsubscribe = service.onEvent((event) => {
    if (event.type === 'status') {
      const wasRunning = status?.phase === 'running';
      status = event.status;
      if (status.phase === 'running' && !wasRunning) refreshEarnings();
    } else if (event.type === 'health') health = event.health;
    else if (event.type === 'earnings') refreshEarnings();
    else return;
    render();
  });
  render();

  return {
    refresh: () => {
      lastMenu = '';
      render();
    },
    destroy() {
      destroyed = true;
      unsubscribe();
      clearTimeout(earningsTimer);
      tray.destroy();
    },
  };
}
