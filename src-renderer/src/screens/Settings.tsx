/** Settings: the cluster (with a connection test), the keeper key, and the loop and API options. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { ClusterSetting, ConnectionTest, ConsoleSettings, SettingsView } from '../../../src-main/operator/operator-interface';
import { CopyButton } from '../components/CopyButton';
import { useBridge, useSettings, useStatus } from '../queries';

type ClusterChoice = 'embedded' | 'devnet' | 'mainnet-beta' | 'custom';
const PRESETS: Record<'devnet' | 'mainnet-beta', string> = {
  devnet: 'https://api.devnet.solana.com',
  'mainnet-beta': 'https://api.mainnet-beta.solana.com',
};

function choiceOf(cluster: ClusterSetting): ClusterChoice {
  if (cluster.kind === 'embedded') return 'embedded';
  if (cluster.rpcUrl === PRESETS.devnet) return 'devnet';
  if (cluster.rpcUrl === PRESETS['mainnet-beta']) return 'mainnet-beta';
  return 'custom';
}

function ConnectionResult({ test }: { test: ConnectionTest }) {
  if (!test.ok)
    return (
      <div role="alert" className="error">
        {test.error}
      </div>
    );
  return (
    <div role="status" className="ok-box">
      Connected to {test.rpcUrl}: {test.wagerKeeperLocalnet ? 'a wager-keeper localnet' : test.cluster} (genesis {test.genesisHash.slice(0, 8)}…), Solana{' '}
      {test.version}, slot {test.slot.toLocaleString('en-US')}, {test.latencyMs} ms.
    </div>
  );
}

function ClusterSection({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const status = useStatus().data;
  const saved = view.settings.cluster;
  const [choice, setChoice] = useState<ClusterChoice>(choiceOf(saved));
  const [rpcUrl, setRpcUrl] = useState(saved.kind === 'rpc' ? saved.rpcUrl : '');
  const [wsUrl, setWsUrl] = useState(saved.kind === 'rpc' ? (saved.wsUrl ?? '') : '');
  const test = useMutation({ mutationFn: (url: string) => bridge.call('testConnection', { rpcUrl: url, wsUrl: wsUrl || null }) });
  const cluster: ClusterSetting = choice === 'embedded' ? { kind: 'embedded' } : { kind: 'rpc', rpcUrl: rpcUrl.trim(), wsUrl: wsUrl.trim() || null };
  const switchCluster = useMutation({
    mutationFn: () => bridge.call('saveSettings', { changes: { cluster } }),
    onSuccess: async (result) => {
      client.setQueryData(['settings'], result.view);
      await client.invalidateQueries();
    },
  });
  const pick = (next: ClusterChoice) => {
    setChoice(next);
    if (next === 'devnet' || next === 'mainnet-beta') {
      setRpcUrl(PRESETS[next]);
      setWsUrl('');
    }
    test.reset();
  };
  const running = status?.cluster;
  return (
    <section className="panel" aria-labelledby="cluster-title">
      <h2 id="cluster-title">Cluster</h2>
      <p className="muted">
        Now: {running ? `${running.name}${running.embedded ? ' (embedded)' : ''} at ${running.rpcUrl}` : 'none'}. Switching restarts the keeper on the new
        cluster; the app keeps running.
      </p>
      <fieldset>
        <legend>Cluster</legend>
        {(
          [
            ['embedded', 'Embedded localnet'],
            ['devnet', 'Devnet'],
            ['mainnet-beta', 'Mainnet-beta'],
            ['custom', 'Custom RPC'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="radio">
            <input type="radio" name="cluster" value={value} checked={choice === value} onChange={() => pick(value)} /> {label}
          </label>
        ))}
      </fieldset>
      {choice !== 'embedded' && (
        <div className="form-grid">
          <label htmlFor="rpc-url">RPC URL</label>
          <input id="rpc-url" type="text" value={rpcUrl} placeholder="https://api.devnet.solana.com" onChange={(e) => setRpcUrl(e.target.value)} />
          <label htmlFor="ws-url">WebSocket URL</label>
          <input id="ws-url" type="text" value={wsUrl} placeholder="empty: the RPC's host with port + 1" onChange={(e) => setWsUrl(e.target.value)} />
        </div>
      )}
      <div className="actions">
        {choice !== 'embedded' && (
          <button type="button" disabled={test.isPending || !rpcUrl.trim()} aria-busy={test.isPending} onClick={() => test.mutate(rpcUrl.trim())}>
            {test.isPending ? 'Testing…' : 'Test connection'}
          </button>
        )}
        <button type="button" className="primary" disabled={switchCluster.isPending || (choice !== 'embedded' && !rpcUrl.trim())} aria-busy={switchCluster.isPending} onClick={() => switchCluster.mutate()}>
          Switch cluster
        </button>
      </div>
      {test.data && <ConnectionResult test={test.data} />}
      {test.error && (
        <div role="alert" className="error">
          {test.error.message}
        </div>
      )}
      {switchCluster.isPending && (
        <p role="status" aria-busy="true">
          Restarting the keeper on {choice === 'embedded' ? 'the embedded localnet' : rpcUrl}…
        </p>
      )}
      {switchCluster.error && (
        <div role="alert" className="error">
          {switchCluster.error.message}
        </div>
      )}
      {switchCluster.data && !switchCluster.isPending && (
        <p role="status" className="ok-box">
          {switchCluster.data.restarted ? 'Switched: the keeper runs on the new cluster.' : 'Already on this cluster: nothing to restart.'}
        </p>
      )}
    </section>
  );
}

function KeySection({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const [path, setPath] = useState('');
  const [replace, setReplace] = useState(false);
  const after = (key: SettingsView['key']) => client.setQueryData<SettingsView>(['settings'], (current) => (current ? { ...current, key } : current));
  const generate = useMutation({ mutationFn: () => bridge.call('generateKey', { replace }), onSuccess: after });
  const importKey = useMutation({ mutationFn: () => bridge.call('importKey', { path, replace }), onSuccess: after });
  const { key } = view;
  const error = generate.error ?? importKey.error;
  return (
    <section className="panel" aria-labelledby="key-title">
      <h2 id="key-title">Keeper key</h2>
      <p>
        In use: {key.inUse ? <code>{key.inUse.address}</code> : 'none'} {key.inUse && <CopyButton text={key.inUse.address} label="Copy key in use" />}
        {key.inUse && <span className="muted"> ({key.inUse.source})</span>}
      </p>
      <p>
        In the OS keychain:{' '}
        {key.keychain.error ? (
          <span className="error">{key.keychain.error}</span>
        ) : key.keychain.address ? (
          <code>{key.keychain.address}</code>
        ) : (
          'no key yet (the keeper creates one on its first start on a cluster other than a localnet)'
        )}
      </p>
      <p className="muted">The secret never leaves the keeper process: only addresses are shown. On a localnet the keeper cranks with the localnet's funded dev key.</p>
      <div className="form-grid">
        <label htmlFor="keypair-path">Keypair file path</label>
        <input id="keypair-path" type="text" value={path} placeholder="~/.config/solana/id.json" onChange={(e) => setPath(e.target.value)} />
      </div>
      <label className="radio">
        <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> replace the key in the keychain (SOL on the old key stays there: move it first)
      </label>
      <div className="actions">
        <button type="button" disabled={generate.isPending} aria-busy={generate.isPending} onClick={() => generate.mutate()}>
          Generate new key
        </button>
        <button type="button" disabled={importKey.isPending || !path.trim()} aria-busy={importKey.isPending} onClick={() => importKey.mutate()}>
          Import keypair file
        </button>
      </div>
      {error && (
        <div role="alert" className="error">
          {error.message}
        </div>
      )}
      {(generate.isSuccess || importKey.isSuccess) && !error && <p role="status">Stored in the keychain: {key.keychain.address}</p>}
    </section>
  );
}

type FormState = Record<'priorityFeeMicroLamports' | 'maxInFlight' | 'demoIntervalSeconds' | 'apiPort' | 'apiHost' | 'corsOrigins', string>;

function OptionsSection({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const { settings, fixedByFlags } = view;
  const initial = (): FormState => ({
    priorityFeeMicroLamports: String(settings.priorityFeeMicroLamports),
    maxInFlight: String(settings.maxInFlight),
    demoIntervalSeconds: String(settings.demoIntervalMs / 1000),
    apiPort: String(settings.apiPort),
    apiHost: settings.apiHost,
    corsOrigins: settings.corsOrigins.join('\n'),
  });
  const [form, setForm] = useState<FormState>(initial);
  const [invalid, setInvalid] = useState<string | null>(null);
  useEffect(() => setForm(initial()), [view]);
  const save = useMutation({
    mutationFn: (changes: Partial<ConsoleSettings>) => bridge.call('saveSettings', { changes }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      void client.invalidateQueries({ queryKey: ['status'] });
    },
  });
  const fixed = (name: keyof ConsoleSettings) => fixedByFlags.includes(name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const integer = (text: string, name: string) => {
      if (!/^\d+$/.test(text.trim())) throw new Error(`${name} must be a whole number`);
      return Number(text);
    };
    try {
      const changes: Partial<ConsoleSettings> = {};
      if (!fixed('priorityFeeMicroLamports')) changes.priorityFeeMicroLamports = integer(form.priorityFeeMicroLamports, 'Priority fee');
      if (!fixed('maxInFlight')) changes.maxInFlight = integer(form.maxInFlight, 'Max in flight');
      const seconds = Number(form.demoIntervalSeconds);
      if (!Number.isFinite(seconds) || seconds < 0.5) throw new Error('Demo interval must be at least 0.5 s');
      changes.demoIntervalMs = Math.round(seconds * 1000);
      if (!fixed('apiPort')) changes.apiPort = integer(form.apiPort, 'API port');
      if (!fixed('apiHost')) changes.apiHost = form.apiHost.trim();
      if (!fixed('corsOrigins')) changes.corsOrigins = form.corsOrigins.split(/[\s,]+/).filter(Boolean);
      setInvalid(null);
      save.mutate(changes);
    } catch (error) {
      setInvalid((error as Error).message);
    }
  };
  const field = (name: keyof FormState, label: string, unit: string, setting: keyof ConsoleSettings, note?: string) => (
    <>
      <label htmlFor={`opt-${name}`}>{label}</label>
      <span>
        <input id={`opt-${name}`} type="text" value={form[name]} readOnly={fixed(setting)} onChange={(e) => setForm({ ...form, [name]: e.target.value })} /> {unit}
        {fixed(setting) ? <em className="muted"> set by a command-line flag</em> : note ? <em className="muted"> {note}</em> : null}
      </span>
    </>
  );
  return (
    <section className="panel" aria-labelledby="options-title">
      <h2 id="options-title">Keeper and API</h2>
      <form onSubmit={submit}>
        <div className="form-grid">
          {field('priorityFeeMicroLamports', 'Priority fee', 'micro-lamports per CU', 'priorityFeeMicroLamports', 'restarts the keeper')}
          {field('maxInFlight', 'Max in flight', 'cranks', 'maxInFlight', 'restarts the keeper')}
          {field('demoIntervalSeconds', 'Demo rate', 's between wagers (embedded localnet only)', 'demoIntervalMs')}
          {field('apiPort', 'API port', '(0: any free port)', 'apiPort', 'applies at the next start')}
          {field('apiHost', 'API host', '', 'apiHost', 'applies at the next start')}
          <label htmlFor="opt-corsOrigins">Allowed origins</label>
          <span>
            <textarea id="opt-corsOrigins" rows={2} value={form.corsOrigins} readOnly={fixed('corsOrigins')} onChange={(e) => setForm({ ...form, corsOrigins: e.target.value })} />
            <em className="muted">{fixed('corsOrigins') ? ' set by a command-line flag' : ' one per line; applies at the next start'}</em>
          </span>
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
            Save settings
          </button>
        </div>
        {(invalid ?? save.error) && (
          <div role="alert" className="error">
            {invalid ?? save.error?.message}
          </div>
        )}
        {save.isSuccess && !invalid && <p role="status">Saved{save.data.restarted ? '; the keeper restarted with the new options' : ''}.</p>}
      </form>
    </section>
  );
}

export function Settings() {
  const settings = useSettings();
  return (
    <div className="grid settings">
      <h1 className="sr-only">Settings</h1>
      {settings.error && (
        <div role="alert" className="error">
          Cannot read the settings: {settings.error.message}
        </div>
      )}
      {settings.isPending && <p aria-busy="true">Loading settings…</p>}
      {settings.data && (
        <>
          <ClusterSection view={settings.data} />
          <KeySection view={settings.data} />
          <OptionsSection view={settings.data} />
        </>
      )}
    </div>
  );
}
