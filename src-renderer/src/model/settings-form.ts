/**
 * The Settings forms as pure functions: the cluster choice (presets, URL checks) and the options form
 * (text fields → the changes to save, or an error per field, shown next to it).
 */
import type { ClusterSetting } from '@shared/contract/cluster';
import type { ConsoleSettings } from '@shared/contract/settings';
import { hasProtocol, RPC_URL_PROTOCOLS, WS_URL_PROTOCOLS } from '@shared/settings/rpc-endpoints';

export type ClusterChoice = 'embedded' | 'devnet' | 'mainnet-beta' | 'custom';

export const CLUSTER_PRESETS: Record<'devnet' | 'mainnet-beta', string> = {
  devnet: 'https://api.devnet.solana.com',
  'mainnet-beta': 'https://api.mainnet-beta.solana.com',
};

export function clusterChoiceOf(cluster: ClusterSetting): ClusterChoice {
  if (cluster.kind === 'embedded') return 'embedded';
  if (cluster.rpcUrl === CLUSTER_PRESETS.devnet) return 'devnet';
  if (cluster.rpcUrl === CLUSTER_PRESETS['mainnet-beta']) return 'mainnet-beta';
  return 'custom';
}

/** The cluster to save, or what is wrong with each URL field (the same rules the core applies). */
export function clusterFromForm(
  choice: ClusterChoice,
  rpcUrl: string,
  wsUrl: string,
): { cluster: ClusterSetting | null; errors: { rpcUrl?: string; wsUrl?: string } } {
  if (choice === 'embedded') return { cluster: { kind: 'embedded' }, errors: {} };
  const rpc = rpcUrl.trim();
  const ws = wsUrl.trim();
  const errors: { rpcUrl?: string; wsUrl?: string } = {};
  if (!rpc) errors.rpcUrl = 'Enter the RPC URL, like https://api.devnet.solana.com';
  else if (!hasProtocol(rpc, RPC_URL_PROTOCOLS)) errors.rpcUrl = 'The RPC URL must start with http:// or https://, like https://api.devnet.solana.com';
  if (ws && !hasProtocol(ws, WS_URL_PROTOCOLS)) errors.wsUrl = "The WebSocket URL must start with ws:// or wss:// (or stay empty: the RPC's host with port + 1)";
  if (errors.rpcUrl || errors.wsUrl) return { cluster: null, errors };
  return { cluster: { kind: 'rpc', rpcUrl: rpc, wsUrl: ws || null }, errors };
}

/** The options form's text fields. */
export interface OptionsForm {
  priorityFeeMicroLamports: string;
  maxInFlight: string;
  demoIntervalSeconds: string;
  apiPort: string;
  apiHost: string;
  corsOrigins: string;
}
export type OptionsField = keyof OptionsForm;

export const optionsFormOf = (settings: ConsoleSettings): OptionsForm => ({
  // "auto": the keeper follows the market (issue 27); else the fixed fee.
  priorityFeeMicroLamports: settings.priorityFeeAuto ? 'auto' : String(settings.priorityFeeMicroLamports),
  maxInFlight: String(settings.maxInFlight),
  demoIntervalSeconds: String(settings.demoIntervalMs / 1000),
  apiPort: String(settings.apiPort),
  apiHost: settings.apiHost,
  corsOrigins: settings.corsOrigins.join('\n'),
});

/** The setting each field edits (for `fixedByFlags`). */
export const SETTING_OF: Record<OptionsField, keyof ConsoleSettings> = {
  priorityFeeMicroLamports: 'priorityFeeMicroLamports',
  maxInFlight: 'maxInFlight',
  demoIntervalSeconds: 'demoIntervalMs',
  apiPort: 'apiPort',
  apiHost: 'apiHost',
  corsOrigins: 'corsOrigins',
};

/** "a, b\nc" → ["a", "b", "c"] (commas, spaces or new lines between origins). */
export const splitOrigins = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/**
 * Checks the form against the saved settings: the changed values to save (only what differs, never a field
 * in `skip`: set by a flag, or not editable here), or an error per field. Ranges are the core's.
 */
export function parseOptionsForm(
  form: OptionsForm,
  saved: ConsoleSettings,
  skip: readonly OptionsField[] = [],
): { changes: Partial<ConsoleSettings>; errors: Partial<Record<OptionsField, string>> } {
  const errors: Partial<Record<OptionsField, string>> = {};
  const changes: Partial<ConsoleSettings> = {};
  const integer = (field: OptionsField, min: number, max: number, what: string): number | undefined => {
    const text = form[field].trim();
    if (!/^\d+$/.test(text)) {
      errors[field] = text === '' ? `Enter ${what}` : `"${text}" is not a whole number: enter ${what}`;
      return undefined;
    }
    const value = Number(text);
    if (value < min || value > max) {
      errors[field] = `Must be from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
      return undefined;
    }
    return value;
  };
  const use = (field: OptionsField) => !skip.includes(field);

  if (use('priorityFeeMicroLamports')) {
    const text = form.priorityFeeMicroLamports.trim();
    if (text.toLowerCase() === 'auto') {
      if (saved.priorityFeeAuto !== true) changes.priorityFeeAuto = true;
    } else if (text !== '' && !/^\d+$/.test(text)) {
      errors.priorityFeeMicroLamports = `"${text}" is neither auto nor a whole number: enter auto (follow the market) or micro-lamports per compute unit (0: no priority fee)`;
    } else {
      const value = integer('priorityFeeMicroLamports', 0, 100_000_000, 'auto, or micro-lamports per compute unit (0: no priority fee)');
      // A number fixes the fee (auto off) when it differs from what is saved, or when auto was on.
      if (value !== undefined && (value !== saved.priorityFeeMicroLamports || saved.priorityFeeAuto === true)) {
        changes.priorityFeeMicroLamports = value;
        changes.priorityFeeAuto = false;
      }
    }
  }
  if (use('maxInFlight')) {
    const value = integer('maxInFlight', 1, 4_096, 'how many cranks may be in flight at once');
    if (value !== undefined && value !== saved.maxInFlight) changes.maxInFlight = value;
  }
  if (use('demoIntervalSeconds')) {
    const text = form.demoIntervalSeconds.trim();
    const seconds = Number(text);
    if (text === '' || !Number.isFinite(seconds)) errors.demoIntervalSeconds = `"${text}" is not a number of seconds`;
    else if (seconds < 0.5 || seconds > 3_600) errors.demoIntervalSeconds = 'Must be from 0.5 to 3,600 s';
    else if (Math.round(seconds * 1000) !== saved.demoIntervalMs) changes.demoIntervalMs = Math.round(seconds * 1000);
  }
  if (use('apiPort')) {
    const value = integer('apiPort', 0, 65_535, 'a TCP port (0: any free port)');
    if (value !== undefined && value !== saved.apiPort) changes.apiPort = value;
  }
  if (use('apiHost')) {
    const host = form.apiHost.trim();
    if (!host) errors.apiHost = 'Enter an address of this machine, like 127.0.0.1';
    else if (/[\s/]/.test(host)) errors.apiHost = 'A host only (like 127.0.0.1 or 0.0.0.0), no scheme, path or spaces';
    else if (host !== saved.apiHost) changes.apiHost = host;
  }
  if (use('corsOrigins')) {
    const origins = splitOrigins(form.corsOrigins);
    const bad = origins.find((origin) => !/^https?:\/\/[^/\s]+$/.test(origin));
    if (bad) errors.corsOrigins = `"${bad}" is not an origin: write the scheme and host only, like https://app.example.com`;
    else if (origins.join('\n') !== saved.corsOrigins.join('\n')) changes.corsOrigins = origins;
  }
  return { changes, errors };
}
