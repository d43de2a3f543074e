/**
 * The bridge: what the preload exposes as `window.wagerKeeper` (and the browser's HTTP client implements),
 * every IPC channel name (the preload and the Electron main import these; nothing else crosses) and the
 * HTTP transport's paths.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */
import type { DesktopPreferencesBridge } from './desktop';
import type { DiagnosticsSavedView } from './diagnostics';
import type { OperatorEvent } from './events';
import type { KeyExportView, KeyCluster } from './keys';
import type { OperatorMethod, OperatorArgs, OperatorResult } from './operator-api';
import type { KeepersBridge } from './keepers';
import type { UpdatesBridge } from './updates';

/** IPC channel names (the preload and the Electron main import these; nothing else crosses). */
export const IPC_CHANNEL_PREFIX = 'operator:';

export const IPC_EVENT_CHANNEL = 'operator-event';

export const IPC_SAVE_DIAGNOSTICS = 'desktop:saveDiagnostics';

/** Desktop only: "Export key…" asks where with the system's save dialog (the main process writes; the secret never crosses). */
export const IPC_EXPORT_KEY = 'desktop:exportKey';

export const ipcChannel = (method: OperatorMethod): string => `${IPC_CHANNEL_PREFIX}${method}`;

/** What a call answers over either transport: the value, or an error the UI shows as is. */
export type OperatorReply<T> = { ok: true; value: T } | { ok: false; error: string };

/** What the preload exposes as `window.wagerKeeper` (and what the HTTP client implements in the browser). */
export interface OperatorBridge {
  call<M extends OperatorMethod>(method: M, args: OperatorArgs<M>): Promise<OperatorResult<M>>;
  /** Live events; returns the unsubscribe function. */
  onEvent(listener: (event: OperatorEvent) => void): () => void;
  /** Desktop only: the system's file picker for a deployment file (its path, or null when cancelled). Headless UIs take a typed path instead. */
  pickDeploymentFile?(): Promise<string | null>;
  /** Desktop only: "Save diagnostics…" asks where to save (the system's save dialog) and answers the archive written, or null when cancelled. */
  saveDiagnosticsAs?(): Promise<DiagnosticsSavedView | null>;
  /** Desktop only: "Export key…" asks where (the system's save dialog) and answers the file written, or null when cancelled. */
  exportKeyAs?(args: { confirm: true; cluster?: KeyCluster; replaced?: string }): Promise<KeyExportView | null>;
  /** Browser only: the address that downloads an archive saveDiagnostics wrote (its file name), token included. */
  diagnosticsDownloadUrl?(fileName: string): string;
  /** Desktop only: the desktop app's own preferences (Settings → Desktop app). Absent in a browser. */
  desktop?: DesktopPreferencesBridge;
  /** Desktop only: the app's updates (the banner, "Restart to update", Settings → Desktop app). Absent in a browser. */
  updates?: UpdatesBridge;
  /** Desktop only: the Keepers list (this computer and keepers on servers over SSH) and the fleet view. Absent in a browser. */
  keepers?: KeepersBridge;
}

/** The desktop-only IPC channels of the desktop preferences (validated like the operator channels). */
export const IPC_DESKTOP_GET_PREFERENCES = 'desktop:getPreferences';

export const IPC_DESKTOP_SET_PREFERENCES = 'desktop:setPreferences';

/** The desktop-only IPC channel of the file picker (not an operator method: the headless host has no dialog). */
export const IPC_PICK_DEPLOYMENT_FILE = 'desktop:pickDeploymentFile';

/** HTTP transport paths. The token travels as `Authorization: Bearer` (calls) or `?token=` (the SSE stream, downloads). */
export const OPERATOR_HTTP = {
  apiPrefix: '/operator/api/',
  events: '/operator/events',
  consolePath: '/console/',
  /** `GET <diagnostics><archive name>`: an archive saveDiagnostics wrote, as a download. */
  diagnostics: '/operator/diagnostics/',
} as const;

export const IPC_UPDATE_STATUS_EVENT = 'desktop:update-status';

export const IPC_UPDATE_GET_STATUS = 'desktop:updateStatus';

export const IPC_UPDATE_CHECK_NOW = 'desktop:updateCheckNow';

export const IPC_UPDATE_RESTART = 'desktop:updateRestart';

export const IPC_UPDATE_CANCEL_RESTART = 'desktop:updateCancelRestart';

export const IPC_UPDATE_SET_PREFERENCES = 'desktop:updateSetPreferences';

export const IPC_UPDATE_OPEN_RELEASE = 'desktop:updateOpenRelease';

/** Desktop only: the Keepers list's channels (contract/keepers.ts). */
export const IPC_KEEPERS_LIST = 'keepers:list';
export const IPC_KEEPERS_ADD = 'keepers:add';
export const IPC_KEEPERS_ACCEPT_HOST_KEY = 'keepers:acceptHostKey';
export const IPC_KEEPERS_REMOVE = 'keepers:remove';
export const IPC_KEEPERS_SHOW = 'keepers:show';
export const IPC_KEEPERS_FLEET = 'keepers:fleet';
/** Main → page: the KeepersView after each change. */
export const IPC_KEEPERS_CHANGED_EVENT = 'keepers:changed';
