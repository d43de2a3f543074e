/**
 * Settings → Alerts: the thresholds (those set by flags read-only), desktop notifications on/off, the
 * webhook channels (masked labels and state; add by URL and format; remove after a confirmation),
 * "Send a test alert" with each channel's result, and the heartbeat (dead man's switch): its URL
 * (write-only, then only its masked label), its period and its state.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type {
  AlertChannelKind,
  AlertChannelStatus,
  AlertThresholds,
} from '@shared/alert-types';
import type { AlertSettingsView } from '@shared/contract/alerts';
import type { SettingsView } from '@shared/contract/settings';
import {
  CHANNEL_KIND_TITLES,
  heartbeatStatus,
  parseHeartbeatForm,
  parseThresholdsForm,
  THRESHOLD_FIELDS,
  thresholdsFormOf,
  WEBHOOK_FORMATS,
  webhookUrlError,
  type HeartbeatForm,
  type ThresholdsForm,
} from '../model/alerts';
import { useAlertSettings, useBridge, useNow, useSettings } from '../queries';
import { ChannelsTable } from '../screens/Alerts';
import { ConfirmDialog } from './ConfirmDialog';
import { TextField } from './FieldRow';
import { SettingToggle } from './SettingToggle';
import { useTimeZone } from './TimeText';
import { submitParsedForm } from './form-submit';
import { SaveOutcome } from './SaveOutcome';

/** Keeps a fresh Settings → Alerts view, and the Alerts screen's channels with it. */
function useApplyView() {
  const client = useQueryClient();
  return (view: AlertSettingsView) => {
    client.setQueryData(['alertSettings'], view);
    void client.invalidateQueries({ queryKey: ['alerts'] });
  };
}

function ThresholdsPart({ view }: { view: AlertSettingsView }) {
  const bridge = useBridge();
  const apply = useApplyView();
  const [form, setForm] = useState<ThresholdsForm>(() => thresholdsFormOf(view.thresholds));
  const [errors, setErrors] = useState<Partial<Record<keyof AlertThresholds, string>>>({});
  const [nothingChanged, setNothingChanged] = useState(false);
  const save = useMutation({
    mutationFn: (thresholds: Partial<AlertThresholds>) => bridge.call('saveAlertSettings', { thresholds }),
    onSuccess: (next) => {
      apply(next);
      setForm(thresholdsFormOf(next.thresholds));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseThresholdsForm(form, view.thresholds, view.thresholdFlags);
    submitParsedForm(parsed, { setErrors, setNothingChanged, resetSave: save.reset, save: save.mutate });
  };
  const invalidCount = Object.keys(errors).length;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="alert-thresholds-title">
      <h3 id="alert-thresholds-title">Thresholds (apply at once)</h3>
      <div className="form-grid">
        {THRESHOLD_FIELDS.map((field) => {
          const fixed = view.thresholdFlags.includes(field.key);
          return (
            <TextField
              key={field.key}
              id={`alert-${field.key}`}
              label={field.label}
              value={form[field.key]}
              readOnly={fixed}
              numeric
              unit={field.unit}
              error={errors[field.key]}
              note={fixed ? `set by ${field.flag} (read-only for this run)` : field.note}
              onChange={(value) => setForm({ ...form, [field.key]: value })}
            />
          );
        })}
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
          Save thresholds
        </button>
        <button
          type="button"
          disabled={save.isPending}
          onClick={() => {
            setForm(thresholdsFormOf(view.thresholds));
            setErrors({});
            setNothingChanged(false);
          }}
        >
          Reset
        </button>
      </div>
      <SaveOutcome
        invalid={
          invalidCount > 0
            ? `Nothing was saved: ${invalidCount === 1 ? 'one threshold needs' : `${invalidCount} thresholds need`} a fix (see the message under it).`
            : null
        }
        error={save.error}
        nothingChanged={nothingChanged}
        saved={save.isSuccess ? 'Thresholds saved: the alert engine uses them from now on.' : null}
        what="thresholds"
      />
    </form>
  );
}

function DesktopNotificationsToggle({ view }: { view: AlertSettingsView }) {
  const bridge = useBridge();
  const apply = useApplyView();
  const save = useMutation({
    mutationFn: (desktopNotifications: boolean) => bridge.call('saveAlertSettings', { desktopNotifications }),
    onSuccess: apply,
  });
  return (
    <SettingToggle
      label="Desktop notifications"
      checked={view.desktopNotifications}
      saving={save.isPending}
      error={save.error}
      onChange={(desktopNotifications) => save.mutate(desktopNotifications)}
      note="every alert also as a system notification of the desktop app (a browser console shows none)"
    />
  );
}

function ChannelsPart({ view }: { view: AlertSettingsView }) {
  const bridge = useBridge();
  const apply = useApplyView();
  const now = useNow();
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<Exclude<AlertChannelKind, 'desktop'>>('json');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AlertChannelStatus | null>(null);
  const add = useMutation({
    mutationFn: () => bridge.call('addAlertChannel', { url: url.trim(), format }),
    onSuccess: (next) => {
      apply(next);
      setUrl('');
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => bridge.call('removeAlertChannel', { id }),
    onSuccess: (next) => {
      apply(next);
      setRemoving(null);
    },
  });
  const client = useQueryClient();
  const test = useMutation({
    mutationFn: () => bridge.call('sendTestAlert', undefined),
    // Each channel's last send changed.
    onSuccess: () =>
      client.invalidateQueries({
        predicate: (query) => query.queryKey[0] === 'alertSettings' || query.queryKey[0] === 'alerts',
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.reset();
    const error = webhookUrlError(url, format);
    setUrlError(error);
    if (!error) add.mutate();
  };
  const webhooks = view.channels.filter((channel) => channel.kind !== 'desktop');
  return (
    <>
      <h3>Channels</h3>
      {webhooks.length === 0 ? (
        <p className="muted">No webhook yet: alerts show here and, in the desktop app, as notifications.</p>
      ) : (
        <ChannelsTable
          label="Alert webhooks"
          channels={webhooks}
          now={now}
          kindHeading="Format"
          targetHeading="Target (secrets masked)"
          action={{
            heading: 'Remove',
            render: (channel) => (
              <button
                type="button"
                aria-label={`Remove ${channel.label}`}
                disabled={remove.isPending}
                onClick={() => setRemoving(channel)}
              >
                Remove
              </button>
            ),
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          id="remove-channel-title"
          question={`Remove the ${CHANNEL_KIND_TITLES[removing.kind]} channel ${removing.label}?`}
          consequence="Alerts stop going there at once, and its URL is deleted from this machine: to add it back you need the whole URL again."
          confirmLabel="Remove channel"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(removing.id)}
          onCancel={() => setRemoving(null)}
        />
      )}
      {remove.error && (
        <div role="alert" className="error">
          {remove.error.message}
        </div>
      )}
      <form onSubmit={submit} noValidate aria-label="Add a webhook">
        <div className="form-grid">
          <label htmlFor="alert-webhook-format">Format</label>
          <div className="field">
            <select
              id="alert-webhook-format"
              value={format}
              onChange={(e) => setFormat(e.target.value as typeof format)}
            >
              {WEBHOOK_FORMATS.map((option) => (
                <option key={option.kind} value={option.kind}>
                  {CHANNEL_KIND_TITLES[option.kind]}
                </option>
              ))}
            </select>
            <span className="muted note">
              {WEBHOOK_FORMATS.find((option) => option.kind === format)?.hint}
            </span>
          </div>
          <TextField
            id="alert-webhook-url"
            label="Webhook URL"
            value={url}
            placeholder="https://…"
            error={urlError}
            note="kept like the keeper key (the OS keychain where there is one) and shown masked once saved"
            onChange={(value) => {
              setUrl(value);
              setUrlError(null);
            }}
          />
        </div>
        <div className="actions">
          <button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
            Add channel
          </button>
        </div>
        {add.error && (
          <div role="alert" className="error">
            {add.error.message}
          </div>
        )}
      </form>
      <div className="actions">
        <button
          type="button"
          disabled={test.isPending}
          aria-busy={test.isPending}
          onClick={() => test.mutate()}
        >
          Send a test alert
        </button>
        {test.isPending && (
          <span role="status" aria-busy="true">
            Sending to every channel…
          </span>
        )}
      </div>
      {test.error && (
        <div role="alert" className="error">
          {test.error.message}
        </div>
      )}
      {test.data && (
        <div
          role="status"
          aria-label="Test alert results"
          className={test.data.results.every((result) => result.ok) ? 'ok-box' : 'warn-box'}
        >
          {test.data.results.length === 0 ? (
            'No channel to send to: add a webhook above first.'
          ) : (
            <ul className="plain-list">
              {test.data.results.map((result) => (
                <li key={result.id}>
                  {CHANNEL_KIND_TITLES[result.kind]} <code>{result.label}</code>:{' '}
                  {result.ok ? (
                    <span className="ok">delivered</span>
                  ) : (
                    <span className="error">
                      failed: {result.lastError ?? 'no answer'}. Check the URL and that the service is
                      reachable from this machine.
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}

/** The heartbeat's state, re-read every 5 s: the status event comes only when the beat's kind changes, not at each ping. */
function HeartbeatState({ settings }: { settings: SettingsView['settings'] }) {
  const bridge = useBridge();
  const status = useQuery({
    queryKey: ['status'],
    queryFn: () => bridge.call('status', undefined),
    refetchInterval: 5_000,
  });
  const timeZone = useTimeZone();
  const state = heartbeatStatus(settings, status.data?.heartbeat, timeZone);
  const box = { ok: 'ok-box', warn: 'warn-box', error: 'error', muted: 'muted' }[state.tone];
  return (
    <div role="status" aria-label="Heartbeat state" className={box}>
      {state.text}
      {state.why && <> Why: {state.why}.</>}
      {state.lastPing && (
        <>
          {' '}
          <span className="muted">({state.lastPing})</span>
        </>
      )}
    </div>
  );
}

function HeartbeatPart({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const { settings, fixedByFlags } = view;
  const urlFixed = fixedByFlags.includes('heartbeatUrl');
  const everyFixed = fixedByFlags.includes('heartbeatEverySeconds');
  const [form, setForm] = useState<HeartbeatForm>(() => ({
    url: '',
    everySeconds: String(settings.heartbeatEverySeconds),
  }));
  const [errors, setErrors] = useState<Partial<Record<keyof HeartbeatForm, string>>>({});
  const [nothingChanged, setNothingChanged] = useState(false);
  const [removing, setRemoving] = useState(false);
  const save = useMutation({
    mutationFn: (changes: { heartbeatUrl?: string; heartbeatEverySeconds?: number }) =>
      bridge.call('saveSettings', { changes }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      void client.invalidateQueries({ queryKey: ['status'] });
      // The URL is never shown again: only its masked label.
      setForm({ url: '', everySeconds: String(result.view.settings.heartbeatEverySeconds) });
      setRemoving(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseHeartbeatForm(form, settings.heartbeatEverySeconds, {
      url: urlFixed,
      everySeconds: everyFixed,
    });
    submitParsedForm(parsed, { setErrors, setNothingChanged, resetSave: save.reset, save: save.mutate });
  };
  const saved = save.isSuccess ? save.variables : undefined;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="alert-heartbeat-title">
      <h3 id="alert-heartbeat-title">Heartbeat (dead man&apos;s switch)</h3>
      <p className="muted small">
        A GET to your monitor&apos;s ping URL every period while the keeper is ready (<code>/v1/ready</code>{' '}
        answers 200), none while it is not: the monitor (healthchecks.io, an Uptime Kuma push monitor) raises
        its own alarm when the pings stop, even when this machine is off. Give the monitor the same period and
        a grace time of a few periods.
      </p>
      <HeartbeatState settings={settings} />
      <div className="form-grid">
        <span>Saved URL</span>
        <div className="field">
          {settings.heartbeatConfigured ? (
            <>
              <code aria-label="Saved heartbeat URL">{settings.heartbeatLabel}</code>
              {urlFixed ? (
                <span className="muted note">set by --heartbeat-url (read-only for this run)</span>
              ) : (
                <button
                  type="button"
                  disabled={save.isPending}
                  onClick={() => {
                    save.reset();
                    setRemoving(true);
                  }}
                >
                  Remove heartbeat URL
                </button>
              )}
            </>
          ) : (
            <span className="muted">none</span>
          )}
        </div>
        {!urlFixed && (
          <TextField
            id="alert-heartbeat-url"
            label={settings.heartbeatConfigured ? 'New heartbeat URL' : 'Heartbeat URL'}
            value={form.url}
            placeholder="https://hc-ping.com/…"
            error={errors.url}
            note={
              settings.heartbeatConfigured
                ? 'replaces the saved one; leave empty to keep it'
                : 'kept like the keeper key (the OS keychain where there is one) and shown masked once saved'
            }
            onChange={(url) => setForm({ ...form, url })}
          />
        )}
        <TextField
          id="alert-heartbeat-every"
          label="Heartbeat period"
          value={form.everySeconds}
          readOnly={everyFixed}
          numeric
          unit="s"
          error={errors.everySeconds}
          note={
            everyFixed
              ? 'set by --heartbeat-every (read-only for this run)'
              : 'seconds between pings; a change applies within a second'
          }
          onChange={(everySeconds) => setForm({ ...form, everySeconds })}
        />
      </div>
      {!(urlFixed && everyFixed) && (
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
            Save heartbeat
          </button>
        </div>
      )}
      {removing && (
        <ConfirmDialog
          id="remove-heartbeat-title"
          question={`Remove the heartbeat URL ${settings.heartbeatLabel}?`}
          consequence="The pings stop, so the monitor will raise its alarm unless you pause or delete the check there too; the URL is deleted from this machine."
          confirmLabel="Remove heartbeat"
          busy={save.isPending}
          onConfirm={() => save.mutate({ heartbeatUrl: '' })}
          onCancel={() => setRemoving(false)}
        />
      )}
      {Object.keys(errors).length > 0 && (
        <div role="alert" className="error">
          Nothing was saved: see the message under the field.
        </div>
      )}
      {save.error && (
        <div role="alert" className="error">
          Nothing was saved: {save.error.message}
        </div>
      )}
      {nothingChanged && <p role="status">Nothing changed: enter a URL, or a new period, and save again.</p>}
      {saved && (
        <p role="status" className="ok-box">
          {saved.heartbeatUrl === ''
            ? 'Heartbeat URL removed: no more pings.'
            : 'Heartbeat saved: it applies within a second.'}
        </p>
      )}
    </form>
  );
}

export function AlertSettings() {
  const settings = useAlertSettings();
  const consoleSettings = useSettings();
  return (
    <section className="panel" aria-labelledby="alert-settings-title">
      <h2 id="alert-settings-title">Alerts</h2>
      <p className="muted">
        Each alert fires once its condition has held for the debounce time, is not repeated while it holds (at
        most a reminder), and sends one “resolved” message when it clears. Flags given to <code>keeper</code>/
        <code>serve</code> win for that run.
      </p>
      {settings.error && (
        <div role="alert" className="error">
          Cannot read the alert settings: {settings.error.message}
        </div>
      )}
      {settings.isPending && <p aria-busy="true">Reading the alert settings…</p>}
      {settings.data && (
        <>
          <ThresholdsPart view={settings.data} />
          <DesktopNotificationsToggle view={settings.data} />
          <ChannelsPart view={settings.data} />
        </>
      )}
      {consoleSettings.error && (
        <div role="alert" className="error">
          Cannot read the heartbeat settings: {consoleSettings.error.message}
        </div>
      )}
      {consoleSettings.data && <HeartbeatPart view={consoleSettings.data} />}
    </section>
  );
}
