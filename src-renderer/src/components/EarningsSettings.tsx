/**
 * Settings → Earnings (issue 28): the wallet the earnings go to and the reserve the keeper keeps (empty:
 * 7 days of fees at the measured spend, at least 0.05 SOL), "Send now" (the plan: amount, fee, runway left;
 * sent after a confirmation), the automatic mode (threshold, interval) and the recent sweeps. Fields a
 * --sweep-* flag sets are read-only.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SweepSettings, SweepView } from '@shared/contract/sweep';
import { RESERVE_DAYS, RESERVE_FLOOR_LAMPORTS, SWEEP_SETTING_FLAGS } from '@shared/settings/sweep';
import { solText } from '@shared/units';
import { formatLamports, formatSolExact, groupDigits } from '../model/format';
import { parseSweepForm, sweepFormOf, type SweepForm } from '../model/sweep';
import { useBridge } from '../queries';
import { Address } from './CopyButton';
import { ConfirmDialog } from './ConfirmDialog';
import { TextField } from './FieldRow';
import { SettingToggle } from './SettingToggle';
import { submitParsedForm } from './form-submit';
import { SaveOutcome } from './SaveOutcome';
import { SweepsTable, useEarningsSweep } from './SentToWallet';

function useApplyView() {
  const client = useQueryClient();
  return (view: SweepView) => client.setQueryData(['earningsSweep'], view);
}

const runwayWords = (days: number | null) =>
  days === null
    ? 'no fees measured yet'
    : `about ${days >= 10 ? groupDigits(Math.round(days)) : days.toFixed(1)} days of fees at the measured spend`;

function SettingsForm({ view }: { view: SweepView }) {
  const bridge = useBridge();
  const apply = useApplyView();
  const [form, setForm] = useState<SweepForm>(() => sweepFormOf(view.settings));
  const [errors, setErrors] = useState<Partial<Record<keyof SweepForm, string>>>({});
  const [nothingChanged, setNothingChanged] = useState(false);
  const save = useMutation({
    mutationFn: (changes: Partial<SweepSettings>) => bridge.call('saveSweepSettings', changes),
    onSuccess: (next) => {
      apply(next);
      setForm(sweepFormOf(next.settings));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    submitParsedForm(parseSweepForm(form, view.settings, view.fixedByFlags), {
      setErrors,
      setNothingChanged,
      resetSave: save.reset,
      save: save.mutate,
    });
  };
  const fixed = (key: keyof SweepSettings) => view.fixedByFlags.includes(key);
  const flagNote = (key: keyof SweepSettings) =>
    fixed(key) ? `set by ${SWEEP_SETTING_FLAGS[key]} (read-only for this run)` : undefined;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="sweep-settings-title">
      <h3 id="sweep-settings-title">Wallet and reserve</h3>
      <div className="form-grid">
        <TextField
          id="sweep-destination"
          label="Destination wallet"
          value={form.destination}
          readOnly={fixed('destination')}
          placeholder="your wallet's address"
          error={errors.destination}
          note={flagNote('destination') ?? 'where the earnings go (not the keeper’s own address)'}
          onChange={(destination) => setForm({ ...form, destination })}
        />
        <TextField
          id="sweep-keep"
          label="Reserve"
          value={form.keep}
          numeric
          unit="SOL"
          readOnly={fixed('keepLamports')}
          placeholder={`${RESERVE_DAYS} days of fees`}
          error={errors.keep}
          note={
            flagNote('keepLamports') ??
            `kept for fees; empty: ${RESERVE_DAYS} days at the measured spend, at least ${solText(RESERVE_FLOOR_LAMPORTS)}`
          }
          onChange={(keep) => setForm({ ...form, keep })}
        />
        <TextField
          id="sweep-threshold"
          label="Automatic threshold"
          value={form.threshold}
          numeric
          unit="SOL"
          readOnly={fixed('thresholdLamports')}
          error={errors.threshold}
          note={
            flagNote('thresholdLamports') ??
            'the automatic mode sends once the balance exceeds the reserve by this'
          }
          onChange={(threshold) => setForm({ ...form, threshold })}
        />
        <TextField
          id="sweep-every"
          label="At most once every"
          value={form.every}
          readOnly={fixed('everySeconds')}
          error={errors.every}
          note={flagNote('everySeconds') ?? 'like 30m, 6h or 1d (1 minute to 30 days)'}
          onChange={(every) => setForm({ ...form, every })}
        />
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
          Save earnings settings
        </button>
      </div>
      <SaveOutcome
        invalid={Object.keys(errors).length > 0 ? 'Nothing was saved: fix the field marked above.' : null}
        error={save.error}
        nothingChanged={nothingChanged}
        saved={save.isSuccess ? 'Earnings settings saved.' : null}
      />
    </form>
  );
}

function AutomaticToggle({ view }: { view: SweepView }) {
  const bridge = useBridge();
  const apply = useApplyView();
  const save = useMutation({
    mutationFn: (automatic: boolean) => bridge.call('saveSweepSettings', { automatic }),
    onSuccess: apply,
  });
  const fixed = view.fixedByFlags.includes('automatic');
  return (
    <SettingToggle
      label="Send automatically"
      checked={view.settings.automatic}
      saving={save.isPending || fixed}
      error={save.error}
      onChange={(automatic) => save.mutate(automatic)}
      note={fixed ? 'on by --sweep-to for this run (read-only)' : `${view.automaticState}`}
    />
  );
}

function SendNow({ view }: { view: SweepView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const send = useMutation({
    mutationFn: () => bridge.call('sweepNow', { confirm: true }),
    onSettled: () => {
      setAsking(false);
      void client.invalidateQueries({ queryKey: ['earningsSweep'] });
    },
  });
  const plan = view.sendNow;
  return (
    <div aria-labelledby="send-now-title">
      <h3 id="send-now-title">Send now</h3>
      {plan ? (
        <p>
          Would send <strong>{formatSolExact(plan.sendLamports)}</strong> to{' '}
          <Address value={plan.destination} label="Copy the destination wallet" />; the fee of{' '}
          {formatLamports(plan.feeLamports)} comes out of it, and the keeper keeps{' '}
          {formatSolExact(plan.keptLamports)} ({runwayWords(plan.runwayDays)}).
        </p>
      ) : (
        <p className="muted">{view.cannotSend}</p>
      )}
      {asking && plan ? (
        <ConfirmDialog
          id="send-now-question"
          question={`Send ${formatSolExact(plan.sendLamports)} to ${plan.destination}?`}
          consequence={`Everything above the reserve at the moment it is sent goes (about this amount, as the keeper keeps cranking); the keeper keeps ${formatSolExact(plan.keptLamports)}. A transfer cannot be undone${view.cluster === 'mainnet-beta' ? ': this is mainnet-beta, real SOL' : ''}.`}
          confirmLabel="Send"
          busy={send.isPending}
          onConfirm={() => send.mutate()}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <div className="actions">
          <button
            type="button"
            disabled={!plan || send.isPending}
            onClick={() => (send.reset(), setAsking(true))}
          >
            Send now…
          </button>
        </div>
      )}
      {send.error && (
        <div role="alert" className="error">
          Not sent: {send.error.message}
        </div>
      )}
      {send.data && (
        <p role="status" className="ok-box">
          Sent {formatSolExact(send.data.sentLamports)} to the wallet; the keeper keeps{' '}
          {formatSolExact(send.data.keptLamports)}. Signature{' '}
          <Address value={send.data.signature} label="Copy the signature of the sweep" />
        </p>
      )}
    </div>
  );
}

export function EarningsSettings() {
  const sweep = useEarningsSweep();
  const view = sweep.data;
  return (
    <section className="panel" aria-labelledby="earnings-settings-heading">
      <h2 id="earnings-settings-heading">Earnings</h2>
      {sweep.error && (
        <div role="alert" className="error">
          Cannot read the earnings settings: {sweep.error.message}
        </div>
      )}
      {!view && !sweep.error && <p aria-busy="true">Reading the earnings settings…</p>}
      {view && (
        <>
          <dl className="kv">
            <dt>keeper balance</dt>
            <dd>{view.balanceLamports === null ? '—' : formatSolExact(view.balanceLamports)}</dd>
            <dt>reserve</dt>
            <dd>{view.reserve ? `${formatSolExact(view.reserve.lamports)}: ${view.reserve.why}` : '—'}</dd>
          </dl>
          <SettingsForm view={view} />
          <SendNow view={view} />
          <h3>Automatic</h3>
          <AutomaticToggle view={view} />
          <h3>Sent to wallet</h3>
          {view.recent.length === 0 ? (
            <p className="muted">Nothing sent yet.</p>
          ) : (
            <SweepsTable sweeps={view.recent} caption="Sweeps to the wallet, newest first" />
          )}
        </>
      )}
    </section>
  );
}
