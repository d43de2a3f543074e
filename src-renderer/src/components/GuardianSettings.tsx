/**
 * Settings → Guardian: the guardian key this console holds (on a localnet its dev key; elsewhere one
 * imported into the OS keychain), and "Pause new wagers automatically when the oracle stalls" with its
 * slot thresholds (saved and applied at once, beside the running keeper).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ConsoleSettings, SettingsView } from '@shared/contract/settings';
import type { GuardianView } from '@shared/contract/guardian';
import { GUARDIAN_PAUSE_MAX_SLOTS, T_SETTLE_SLOTS } from '@shared/wager-timing';
import { useBridge, useGuardian } from '../queries';
import { Address } from './CopyButton';
import { PathField, TextField, usePathField } from './FieldRow';

const SOURCE_TEXT = {
  'localnet dev key': "the localnet's dev guardian key",
  keychain: 'from the OS keychain',
  file: 'from --guardian-keypair',
} as const;

/** A whole number of slots in [min, max], or the reason it is not. */
function slotsField(text: string, min: number, max: number): number | string {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  return Number.isInteger(value) && value >= min && value <= max
    ? value
    : `a whole number of slots from ${min} to ${max}`;
}

function KeyPart({ view }: { view: GuardianView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const keypair = usePathField(
    "Enter the path of the guardian's Solana CLI keypair file on the machine that runs the keeper",
  );
  const [confirming, setConfirming] = useState(false);
  const importKey = useMutation({
    mutationFn: (replace: boolean) =>
      bridge.call('importGuardianKey', { path: keypair.path.trim(), replace }),
    onSuccess: (next) => {
      client.setQueryData(['guardian'], next);
      setConfirming(false);
    },
  });
  const existing = view.keychain.address;
  const start = () => {
    importKey.reset();
    if (!keypair.take()) return;
    if (existing) setConfirming(true);
    else importKey.mutate(false);
  };
  return (
    <>
      <dl className="kv">
        <dt>guardian</dt>
        <dd>
          {view.guardian ? (
            <Address value={view.guardian} label="Copy the deployment's guardian" full />
          ) : (
            'no deployment known'
          )}
        </dd>
        <dt>key in use</dt>
        <dd>
          {view.key ? (
            <>
              <code>{view.key.address}</code> <span className="muted">({SOURCE_TEXT[view.key.source]})</span>
            </>
          ) : (
            (view.keyProblem ?? 'none')
          )}
        </dd>
        <dt>OS keychain</dt>
        <dd>
          {view.keychain.error ? (
            // Only a problem when the keychain is where the guardian key must come from.
            <span className={view.key && view.key.source !== 'keychain' ? 'muted' : 'error'}>
              {view.key && view.key.source !== 'keychain' ? 'Not needed here; it' : 'The keychain'} cannot be
              read: {view.keychain.error}
            </span>
          ) : existing ? (
            <Address value={existing} label="Copy keychain guardian key" full />
          ) : (
            'no guardian key imported'
          )}
        </dd>
      </dl>
      <p className="muted">
        Only the key the deployment's config names can pause new wagers. On a wager-keeper localnet the
        console holds its dev guardian key; elsewhere import the guardian's keypair file (kept in the OS
        keychain, never shown or sent anywhere).
      </p>
      <div className="form-grid">
        <PathField
          id="guardian-keypair-path"
          label="Guardian keypair file"
          placeholder="~/guardian.json"
          field={keypair}
        />
      </div>
      <div className="actions">
        <button type="button" disabled={importKey.isPending} aria-busy={importKey.isPending} onClick={start}>
          Import guardian keypair file
        </button>
      </div>
      {confirming && (
        <div role="alertdialog" aria-labelledby="replace-guardian-title" className="confirm">
          <p id="replace-guardian-title">
            <strong>Replace the keychain's guardian key {existing}?</strong> The key in {keypair.path.trim()}{' '}
            takes its place.
          </p>
          <div className="actions">
            <button
              type="button"
              className="danger"
              disabled={importKey.isPending}
              onClick={() => importKey.mutate(true)}
            >
              Replace guardian key
            </button>
            <button type="button" disabled={importKey.isPending} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {importKey.error && (
        <div role="alert" className="error">
          {importKey.error.message}
        </div>
      )}
      {importKey.isSuccess && !importKey.error && (
        <p role="status" className="ok-box">
          Guardian key imported: the keychain now holds {view.keychain.address ?? 'it'}.
        </p>
      )}
    </>
  );
}

/** The automatic pause's two thresholds: the setting each saves, and its row's text. */
const THRESHOLDS = {
  pause: {
    setting: 'guardianPauseAfterSlots',
    label: 'Pause after',
    unit: 'slots a randomness request has waited',
    note: `the spec's target is 60; wagers expire at ${T_SETTLE_SLOTS}`,
  },
  resume: {
    setting: 'guardianResumeAfterSlots',
    label: 'Resume after',
    unit: 'slots of fulfilments with nothing waiting past the threshold',
    note: 'only a pause the guardian made itself is resumed',
  },
} as const;

function AutomaticPart({ view, settings }: { view: GuardianView; settings: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const { guardianAutomatic, guardianPauseAfterSlots, guardianResumeAfterSlots } = settings.settings;
  const fixed = settings.fixedByFlags;
  const [form, setForm] = useState({
    pause: String(guardianPauseAfterSlots),
    resume: String(guardianResumeAfterSlots),
  });
  const [errors, setErrors] = useState<{ pause?: string; resume?: string }>({});
  const save = useMutation({
    mutationFn: (changes: Partial<ConsoleSettings>) => bridge.call('saveSettings', { changes }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      void client.invalidateQueries({ queryKey: ['guardian'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.reset();
    const pauseAfter = slotsField(form.pause, 1, GUARDIAN_PAUSE_MAX_SLOTS);
    const resumeAfter = slotsField(form.resume, 1, 10_000);
    const next = {
      pause: typeof pauseAfter === 'string' ? pauseAfter : undefined,
      resume: typeof resumeAfter === 'string' ? resumeAfter : undefined,
    };
    setErrors(next);
    if (typeof pauseAfter === 'string' || typeof resumeAfter === 'string') return;
    save.mutate({
      ...(fixed.includes('guardianPauseAfterSlots') ? {} : { guardianPauseAfterSlots: pauseAfter }),
      ...(fixed.includes('guardianResumeAfterSlots') ? {} : { guardianResumeAfterSlots: resumeAfter }),
    });
  };
  return (
    <>
      <div className="actions">
        <label className="radio">
          <input
            type="checkbox"
            checked={guardianAutomatic}
            disabled={save.isPending || fixed.includes('guardianAutomatic')}
            onChange={(e) => save.mutate({ guardianAutomatic: e.target.checked })}
          />{' '}
          Pause new wagers automatically when the oracle stalls
        </label>
        <span className="muted">
          {fixed.includes('guardianAutomatic')
            ? 'on for this run: --guardian-keypair'
            : view.key
              ? 'the guardian runs in this console’s keeper'
              : 'needs the guardian key (above)'}
        </span>
      </div>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          {(['pause', 'resume'] as const).map((which) => {
            const { setting, label, unit, note } = THRESHOLDS[which];
            return (
              <TextField
                key={which}
                id={`guardian-${which}-after`}
                label={label}
                value={form[which]}
                numeric
                readOnly={fixed.includes(setting)}
                unit={unit}
                error={errors[which]}
                note={note}
                onChange={(value) => setForm({ ...form, [which]: value })}
              />
            );
          })}
        </div>
        <div className="actions">
          <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            Save thresholds
          </button>
        </div>
      </form>
      {save.error && (
        <div role="alert" className="error">
          {save.error.message}
        </div>
      )}
      {save.isSuccess && (
        <p role="status" className="ok-box">
          Saved: the guardian uses it at once.
        </p>
      )}
    </>
  );
}

export function GuardianSettings({ view }: { view: SettingsView }) {
  const guardian = useGuardian();
  return (
    <section className="panel" aria-labelledby="guardian-title">
      <h2 id="guardian-title">Guardian</h2>
      {guardian.error && (
        <div role="alert" className="error">
          Cannot read the guardian: {guardian.error.message}
        </div>
      )}
      {guardian.data && (
        <>
          <KeyPart view={guardian.data} />
          <h3>Automatic pause</h3>
          <AutomaticPart view={guardian.data} settings={view} />
        </>
      )}
    </section>
  );
}
