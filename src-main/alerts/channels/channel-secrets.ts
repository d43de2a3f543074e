/**
 * Where webhook URLs (secrets: they carry tokens) are kept: the OS keychain like the keeper key (service
 * "wager-keeper", account "alert-channel:<id>"); where there is none (a headless machine without a Secret
 * Service), a file of mode 0600 beside the settings, `alert-channel-secrets.json`. Settings keep only each
 * channel's id, format, masked label and which of the two holds its URL.
 */
import { Entry } from '@napi-rs/keyring';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYCHAIN_SERVICE, sessionBusProblem } from '../../secrets/keeper-key';

export type SecretPlace = 'keychain' | 'file';
export const CHANNEL_SECRETS_FILE = 'alert-channel-secrets.json';

export interface ChannelSecrets {
  /** Stores the URL, in the keychain when one answers, else in the 0600 file; says where it went and why. */
  store(id: string, url: string): { place: SecretPlace; keychainProblem?: string };
  read(id: string, place: SecretPlace): string | null;
  remove(id: string, place: SecretPlace): void;
  /** The URL wherever it is kept (the file first, then the keychain when one answers); null when neither holds it. */
  find(id: string): string | null;
  /** Removes the URL from both places (before storing a new one, so no stale copy is left behind). */
  forget(id: string): void;
}

const account = (id: string) => `alert-channel:${id}`;
const entry = (id: string) =>
  new Entry(KEYCHAIN_SERVICE, account(id), { linux: { store: 'secret-service' } });

export function openChannelSecrets(directory: string, options: { keychain?: boolean } = {}): ChannelSecrets {
  const file = join(directory, CHANNEL_SECRETS_FILE);
  const readFile = (): Record<string, string> =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const writeFile = (secrets: Record<string, string>) => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600); // writeFileSync's mode applies only when it creates the file
  };
  const keychainProblem = () =>
    options.keychain === false ? 'the keychain is turned off for this run' : sessionBusProblem();

  return {
    store(id, url) {
      let problem = keychainProblem();
      if (!problem) {
        try {
          entry(id).setPassword(url);
          return { place: 'keychain' };
        } catch (error) {
          problem = (error as Error).message;
        }
      }
      writeFile({ ...readFile(), [id]: url });
      return { place: 'file', keychainProblem: problem };
    },
    read(id, place) {
      if (place === 'file') return readFile()[id] ?? null;
      const problem = keychainProblem();
      if (problem) throw new Error(`the OS keychain is not available (${problem})`);
      return entry(id).getPassword() ?? null;
    },
    remove(id, place) {
      if (place === 'file') {
        writeFile(Object.fromEntries(Object.entries(readFile()).filter(([kept]) => kept !== id)));
        return;
      }
      try {
        entry(id).deletePassword();
      } catch {
        // Already gone (or the keychain is away): nothing of the secret is left to remove here.
      }
    },
    find(id) {
      const inFile = readFile()[id];
      if (inFile !== undefined) return inFile;
      const problem = keychainProblem();
      if (problem) return null;
      return entry(id).getPassword() ?? null;
    },
    forget(id) {
      if (readFile()[id] !== undefined) this.remove(id, 'file');
      if (!keychainProblem()) this.remove(id, 'keychain');
    },
  };
}
