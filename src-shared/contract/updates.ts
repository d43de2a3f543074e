/**
 * The desktop app's updates as the console page sees them (pure types and channel names: the preload, the
 * Electron main and the renderer import these). The desktop host checks the release feed, downloads and
 * verifies in the background, and offers "Restart to update", which drains the keeper first
 * (src-main/electron/app-updates.ts). A browser console has no `updates` on its bridge.
 */

/**
 * Where the update is:
 * - off: the operator turned checking off (Settings → Desktop app);
 * - unavailable: this copy cannot update itself (run from the source tree, or no feed): `message` says why;
 * - idle: checked, nothing newer (or not checked yet);
 * - checking, downloading (`percent`);
 * - downloaded: verified and ready: "Restart to update";
 * - notice: a newer version exists that this install cannot take in place (a deb, an unsigned macOS app):
 *   `releaseUrl` is where to get it;
 * - draining: "Restart to update" was chosen: no new crank is sent, waiting for `inFlight` to reach zero;
 * - installing: the keeper stopped; the app quits and the installer runs;
 * - failed: the check, download or verification failed: `message` says what and what next.
 */
export type UpdateState =
  | 'off'
  | 'unavailable'
  | 'idle'
  | 'checking'
  | 'downloading'
  | 'downloaded'
  | 'notice'
  | 'draining'
  | 'installing'
  | 'failed';

export interface UpdateStatusView {
  state: UpdateState;
  /** The running app's version. */
  currentVersion: string;
  /** The newer version found (null until one is). */
  version: string | null;
  /** The state in words, for the banner and the tray. */
  message: string;
  /** How an update arrives on this install, in words (in place, or a notice with a link). */
  howUpdatesArrive: string;
  /** What is verified before an update installs here (sha512 from the feed; the OS code signature where one is checked). */
  verification: string;
  /** The release page of the newer version (notice), or null. */
  releaseUrl: string | null;
  /** Download progress 0–100 while downloading. */
  percent: number | null;
  /** Wagers with a crank in flight while draining; null otherwise. */
  inFlight: number | null;
  /** When the feed last answered (Unix ms), or null. */
  checkedAt: number | null;
  checkForUpdates: boolean;
  /** A self-hosted mirror (a generic feed: latest*.yml beside the installers); '' for the feed the app was built with. */
  updateFeedUrl: string;
  /** The feed the app was built with, in words (electron-builder's publish, from app-update.yml). */
  builtInFeed: string;
}

/** What Settings → Desktop app changes about updates (kept in the desktop preferences file). */
export interface UpdatePreferences {
  checkForUpdates: boolean;
  updateFeedUrl: string;
}

/** What the preload exposes as `window.wagerKeeper.updates` (desktop only). */
export interface UpdatesBridge {
  status(): Promise<UpdateStatusView>;
  /** Each change of the status; returns the unsubscribe function. */
  onStatus(listener: (status: UpdateStatusView) => void): () => void;
  checkNow(): Promise<UpdateStatusView>;
  /** Stops new cranks, waits for those in flight, stops the keeper, then installs and restarts. */
  restartToUpdate(): Promise<UpdateStatusView>;
  /** While draining: resume cranking and install later. */
  cancelRestart(): Promise<UpdateStatusView>;
  setPreferences(changes: Partial<UpdatePreferences>): Promise<UpdateStatusView>;
  /** Opens the newer version's release page in the system browser (the main process picks the address). */
  openReleasePage(): Promise<void>;
}
