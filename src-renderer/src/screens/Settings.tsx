/** Settings: the cluster (with a connection test), the keeper key, and the loop and API options. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SettingToggle } from '../components/SettingToggle';
import { ConsoleDisplaySettings } from '../components/ConsoleDisplaySettings';
import { FleetSettings } from '../components/FleetSettings';
import { useState, type FormEvent } from 'react';
import type { ConnectionTest, ConsoleSettings, SettingsView } from '@shared/contract/settings';
import { DeploymentDetails } from '../components/DeploymentDetails';
import { AlertSettings } from '../components/AlertSettings';
import { EarningsSettings } from '../components/EarningsSettings';
import { DesktopSettings } from '../components/DesktopSettings';
import { TextField } from '../components/FieldRow';
import { GuardianSettings } from '../components/GuardianSettings';
import { KeySettings } from '../components/KeySettings';
import { RpcSettings } from '../components/RpcSettings';
import { SaveOutcome } from '../components/SaveOutcome';
import { clusterLabel } from '../model/format';
import {
  CLUSTER_PRESETS,
  clusterChoiceOf,
  clusterFromForm,
  optionsFormOf,
  parseOptionsForm,
  SETTING_OF,
  type ClusterChoice,
  type OptionsField,
  type OptionsForm,
} from '../model/settings-form';
import { useBridge, useSettings, useStatus } from '../queries';
import { submitParsedForm } from '../components/form-submit';

const CHOICES: [ClusterChoice, string][] = [
  ['embedded', 'Embedded localnet'],
  ['devnet', 'Devnet'],
  ['mainnet-beta', 'Mainnet-beta'],
  ['custom', 'Custom RPC'],
];

function ConnectionResult({ test }: { test: ConnectionTest }) {
  if (!test.ok)
    return (
      <div role="alert" className="error">
        <strong>The connection test failed.</strong> {test.error}
        {/check|make sure|try/i.test(test.error)
          ? null
          : ' Check the URL (scheme, host and port), that the node is running, and that this machine can reach it; then test again.'}
      </div>
    );
  return (
    <div role="status" className="ok-box">
      <strong>Connected to {test.rpcUrl}</strong>
      <dl className="kv">
        <dt>cluster</dt>
        <dd>
          {test.cluster} (genesis {test.genesisHash})
          {test.wagerKeeperLocalnet
            ? ': a wager-keeper localnet (dev keys, faucet and demo app available)'
            : ''}
        </dd>
        <dt>version</dt>
        <dd>Solana {test.version}</dd>
        <dt>slot</dt>
        <dd>{test.slot.toLocaleString('en-US')}</dd>
        <dt>latency</dt>
        <dd>{test.latencyMs} ms</dd>
      </dl>
    </div>
  );
}

function ClusterSection({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const status = useStatus().data;
  const saved = view.settings.cluster;
  const [choice, setChoice] = useState<ClusterChoice>(clusterChoiceOf(saved));
  const [rpcUrl, setRpcUrl] = useState(saved.kind === 'rpc' ? saved.rpcUrl : '');
  const [wsUrl, setWsUrl] = useState(saved.kind === 'rpc' ? (saved.wsUrl ?? '') : '');
  const [showErrors, setShowErrors] = useState(false);
  const form = clusterFromForm(choice, rpcUrl, wsUrl);
  const errors = showErrors ? form.errors : {};
  const test = useMutation({
    mutationFn: (target: { rpcUrl: string; wsUrl: string | null }) => bridge.call('testConnection', target),
  });
  const switchCluster = useMutation({
    mutationFn: (cluster: NonNullable<typeof form.cluster>) =>
      bridge.call('saveSettings', { changes: { cluster } }),
    onSuccess: async (result) => {
      client.setQueryData(['settings'], result.view);
      await client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'connection' });
    },
  });
  const pick = (next: ClusterChoice) => {
    setChoice(next);
    if (next === 'devnet' || next === 'mainnet-beta') {
      setRpcUrl(CLUSTER_PRESETS[next]);
      setWsUrl('');
    } else if (next === 'custom' && choice !== 'custom') {
      setRpcUrl('');
      setWsUrl('');
    }
    setShowErrors(false);
    test.reset();
    switchCluster.reset();
  };
  const runTest = () => {
    setShowErrors(true);
    if (form.cluster?.kind === 'rpc') test.mutate({ rpcUrl: form.cluster.rpcUrl, wsUrl: form.cluster.wsUrl });
  };
  const runSwitch = () => {
    setShowErrors(true);
    if (form.cluster) switchCluster.mutate(form.cluster);
  };
  const target = choice === 'embedded' ? 'the embedded localnet' : rpcUrl.trim();
  const running = status?.cluster;
  const preset = choice === 'devnet' || choice === 'mainnet-beta';
  return (
    <section className="panel" aria-labelledby="cluster-title">
      <h2 id="cluster-title">Cluster</h2>
      <p className="muted">
        Now: {running ? `${clusterLabel(running)} at ${running.rpcUrl}` : 'no cluster'}. Switching restarts
        the keeper on the new cluster; the app keeps running, and wagers already tracked on this cluster
        resume when you switch back.
      </p>
      <DeploymentDetails cluster={running ?? null} />
      <h3>Switch cluster</h3>
      <fieldset>
        <legend>Run the keeper on</legend>
        {CHOICES.map(([value, label]) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name="cluster"
              value={value}
              checked={choice === value}
              onChange={() => pick(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {choice === 'mainnet-beta' && (
        <p className="warn">
          Mainnet-beta: cranks pay real SOL fees. The public RPC limits request rates; a paid RPC URL (Custom
          RPC) is more reliable.
        </p>
      )}
      {choice !== 'embedded' && (
        <div className="form-grid">
          <TextField
            id="rpc-url"
            label="RPC URL"
            value={rpcUrl}
            readOnly={preset}
            placeholder="https://api.devnet.solana.com"
            error={errors.rpcUrl}
            note={preset ? 'preset' : undefined}
            onChange={(value) => {
              setRpcUrl(value);
              test.reset();
            }}
          />
          <TextField
            id="ws-url"
            label="WebSocket URL"
            value={wsUrl}
            placeholder="wss://… (optional)"
            error={errors.wsUrl}
            note="empty: the RPC's host with port + 1"
            onChange={(value) => {
              setWsUrl(value);
              test.reset();
            }}
          />
        </div>
      )}
      <div className="actions">
        {choice !== 'embedded' && (
          <button type="button" disabled={test.isPending} aria-busy={test.isPending} onClick={runTest}>
            Test connection
          </button>
        )}
        <button
          type="button"
          className="primary"
          disabled={switchCluster.isPending}
          aria-busy={switchCluster.isPending}
          onClick={runSwitch}
        >
          Switch cluster
        </button>
        {test.isPending && (
          <span role="status" aria-busy="true">
            Testing {rpcUrl.trim()}…
          </span>
        )}
      </div>
      {test.data && <ConnectionResult test={test.data} />}
      {test.error && (
        <div role="alert" className="error">
          Could not run the test: {test.error.message}
        </div>
      )}
      {switchCluster.isPending && (
        <p role="status" aria-busy="true" className="progress">
          Restarting the keeper on {target}… (the status line shows it when it runs)
        </p>
      )}
      {switchCluster.error && (
        <div role="alert" className="error">
          {switchCluster.error.message}
        </div>
      )}
      {switchCluster.data && !switchCluster.isPending && (
        <p role="status" className="ok-box">
          {!switchCluster.data.restarted
            ? `Already on ${target}: nothing was restarted.`
            : status?.phase === 'noDeployment'
              ? `Switched to ${target}: the keeper waits for a deployment of this cluster (above).`
              : `Switched: the keeper now runs on ${target}.`}
        </p>
      )}
    </section>
  );
}

/**
 * The demo app elsewhere than the embedded localnet: only when asked for here (it stakes the keeper key's
 * test USDC, or a wager-keeper localnet's dev app key's), and never on mainnet-beta. Saved at once.
 */
function DemoOnTestNetworks({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const cluster = useStatus().data?.cluster;
  const save = useMutation({
    mutationFn: (demoOnTestNetworks: boolean) =>
      bridge.call('saveSettings', { changes: { demoOnTestNetworks } }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      void client.invalidateQueries({ queryKey: ['status'] });
    },
  });
  return (
    <SettingToggle
      label="Demo app on test networks"
      checked={view.settings.demoOnTestNetworks}
      saving={save.isPending}
      error={save.error}
      onChange={(demoOnTestNetworks) => save.mutate(demoOnTestNetworks)}
      note={`opens demo wagers on clusters other than the embedded localnet (never on mainnet-beta)${cluster?.name === 'mainnet-beta' ? ': this cluster is mainnet-beta, so it stays off here' : ''}`}
    />
  );
}

function OptionsSection({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const status = useStatus().data;
  const { settings, fixedByFlags } = view;
  const [form, setForm] = useState<OptionsForm>(() => optionsFormOf(settings));
  const [errors, setErrors] = useState<Partial<Record<OptionsField, string>>>({});
  const [nothingChanged, setNothingChanged] = useState(false);
  const demoAvailable = status?.demo.available ?? false;
  const fixed = (field: OptionsField) => fixedByFlags.includes(SETTING_OF[field]);
  const skip = (Object.keys(SETTING_OF) as OptionsField[]).filter(
    (field) => fixed(field) || (field === 'demoIntervalSeconds' && !demoAvailable),
  );
  const save = useMutation({
    mutationFn: (changes: Partial<ConsoleSettings>) => bridge.call('saveSettings', { changes }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      setForm(optionsFormOf(result.view.settings));
      void client.invalidateQueries({ queryKey: ['status'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseOptionsForm(form, settings, skip);
    submitParsedForm(parsed, { setErrors, setNothingChanged, resetSave: save.reset, save: save.mutate });
  };
  const input = (field: OptionsField, label: string, unit: string, note: string, rows?: number) => (
    <TextField
      id={`opt-${field}`}
      label={label}
      value={form[field]}
      readOnly={fixed(field)}
      numeric={field !== 'apiHost' && field !== 'corsOrigins' && field !== 'priorityFeeMicroLamports'}
      rows={rows}
      unit={unit}
      error={errors[field]}
      note={fixed(field) ? 'set by a command-line flag (read-only for this run)' : note}
      onChange={(value) => setForm({ ...form, [field]: value })}
    />
  );
  const invalidCount = Object.keys(errors).length;
  return (
    <section className="panel" aria-labelledby="options-title">
      <h2 id="options-title">Keeper and API options</h2>
      <form onSubmit={submit} noValidate>
        <h3>Crank loop (saving restarts the keeper)</h3>
        <div className="form-grid">
          {input(
            'priorityFeeMicroLamports',
            'Priority fee',
            'micro-lamports per CU',
            'auto: follow the market (the default on devnet and mainnet); a number: that fixed fee, 0: none',
          )}
          {input('maxInFlight', 'Max in flight', 'cranks', 'sent at once, at most')}
          {demoAvailable ? (
            input('demoIntervalSeconds', 'Demo rate', 's between demo wagers', 'while the demo app runs')
          ) : (
            <>
              <span>Demo rate</span>
              <span className="muted">
                the demo app does not run here: {status?.demo.reason ?? 'see the Overview'}
              </span>
            </>
          )}
        </div>
        <DemoOnTestNetworks view={view} />
        <h3>Public API (applies at the next start)</h3>
        <div className="form-grid">
          {input('apiPort', 'API port', 'TCP port', '0: any free port; applies at the next start')}
          {input('apiHost', 'API host', '', 'applies at the next start')}
          {input(
            'corsOrigins',
            'Allowed origins',
            '',
            'comma or newline separated, like https://app.example.com; applies at the next start',
            3,
          )}
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
            Save settings
          </button>
          <button
            type="button"
            disabled={save.isPending}
            onClick={() => {
              setForm(optionsFormOf(settings));
              setErrors({});
              setNothingChanged(false);
            }}
          >
            Reset
          </button>
          {save.isPending && (
            <span role="status" aria-busy="true">
              Saving… (the keeper restarts when the loop options change)
            </span>
          )}
        </div>
        <SaveOutcome
          invalid={
            invalidCount > 0
              ? `Nothing was saved: ${invalidCount === 1 ? 'one field needs' : `${invalidCount} fields need`} a fix (see the message under it).`
              : null
          }
          error={save.error}
          nothingChanged={nothingChanged}
          saved={
            save.isSuccess
              ? `Saved${save.data.restarted ? '; the keeper restarted with the new loop options' : ''}. API port, host and origins apply at the next start.`
              : null
          }
        />
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
      {settings.isPending && <p aria-busy="true">Reading the settings…</p>}
      {settings.data && (
        <>
          <ClusterSection view={settings.data} />
          <RpcSettings view={settings.data} />
          <KeySettings view={settings.data} />
          <GuardianSettings view={settings.data} />
          <OptionsSection view={settings.data} />
          <FleetSettings view={settings.data} />
          <EarningsSettings />
          <AlertSettings />
          <DesktopSettings />
        </>
      )}
      <ConsoleDisplaySettings />
    </div>
  );
}
