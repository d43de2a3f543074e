/**
 * The console contract, guardian: the deployment's guardian, whether new wagers are paused, the guardian
 * key this console holds and its automatic mode.
 *
 * Pure TypeScript (src-shared): no Node, no Electron, no DOM; main, preload and renderer import it.
 */

/** Where the guardian key the console holds comes from: the localnet's dev key, the OS keychain, or `keeper --guardian-keypair FILE`. */
export type GuardianKeySource = 'localnet dev key' | 'keychain' | 'file';

/** One pause or resume of new wagers (set_paused), by the guardian on its own or by a person. */
export interface GuardianActionView {
  action: 'pause' | 'resume';
  by: 'guardian' | 'person';
  /** Unix ms. */
  at: number;
  /** The slot the transaction landed in. */
  slot: number;
  reason: string;
  signature: string;
}

/** The deployment's guardian, whether new wagers are paused now, and what this console can do about it. */
export interface GuardianView {
  /** The guardian the config names on chain (the deployment document's while the chain cannot be read; null: no deployment). */
  guardian: string | null;
  /** New wagers are paused now (the config's flag on chain); null when it cannot be read (see readError). */
  paused: boolean | null;
  readError: string | null;
  /** The deployment's guardian key, held by this console (null: it holds none; see keyProblem). */
  key: { address: string; source: GuardianKeySource } | null;
  /** Why the console holds no usable guardian key: none loaded, the keychain's error, or a key that is not this deployment's guardian. */
  keyProblem: string | null;
  /** The guardian key in the OS keychain (Settings → Guardian key), and why it cannot be read. */
  keychain: { address: string | null; error: string | null };
  automatic: {
    /** "Pause new wagers automatically when the oracle stalls" (on with `keeper --guardian-keypair`). */
    enabled: boolean;
    /** It runs now (enabled, and the console holds the guardian key). */
    running: boolean;
    pauseAfterSlots: number;
    resumeAfterSlots: number;
    /** The last automatic check or send that failed. */
    lastError: string | null;
  };
  /** The pause in force was made by the automatic guardian: it resumes it by itself once the oracle is back. */
  pausedByGuardian: boolean;
  /** The last pauses and resumes this console's guardian sent, newest first (since the keeper started). */
  actions: GuardianActionView[];
}

/** Guardian's methods. Every method answers or throws an Error whose message says what happened and what to do. */
export interface GuardianApi {
  /** The deployment's guardian, whether new wagers are paused now (read on chain), the guardian key this console holds and the guardian's last actions. */
  guardian(): Promise<GuardianView>;
  /** Pauses or resumes new wagers (set_paused) with the guardian key this console holds: a person's choice, which the automatic guardian never undoes. */
  setNewWagersPaused(args: { paused: boolean }): Promise<GuardianActionView>;
  /** Imports a Solana CLI keypair file as the guardian key into the OS keychain (refuses to replace another unless `replace`). */
  importGuardianKey(args: { path: string; replace: boolean }): Promise<GuardianView>;
}

/** Guardian's method names, in the order the transports list them. */
export const GUARDIAN_METHODS = ['guardian', 'setNewWagersPaused', 'importGuardianKey'] as const satisfies readonly (keyof GuardianApi)[];
