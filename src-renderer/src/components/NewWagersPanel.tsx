/**
 * New wagers on the Oracle screen: whether they are paused now (the config on chain), who the guardian
 * is, "Pause new wagers" / "Resume new wagers" (set_paused, after a confirmation) where this console holds
 * the guardian key, the automatic guardian's state, and the guardian's last actions with their reasons.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { GuardianActionView, GuardianView } from '@shared/contract/guardian';
import { explorerUrl } from '../model/format';
import { useBridge, useGuardian, useStatus } from '../queries';
import { Address } from './CopyButton';
import { GoTo } from './GoTo';
import { TimeText } from './TimeText';

const KEY_SOURCE_TEXT = { 'localnet dev key': "the localnet's dev guardian key", keychain: 'the guardian key in the OS keychain', file: 'the key of --guardian-keypair' } as const;

function pausedText(view: GuardianView): string {
  if (view.paused === null) return `Whether new wagers are paused cannot be read now: ${view.readError ?? 'unknown'}.`;
  if (!view.paused) return 'New wagers are open: open_wager is accepted.';
  return view.pausedByGuardian
    ? 'New wagers are paused by the guardian (automatically): open_wager is refused. It resumes them once the oracle has fulfilled again.'
    : 'New wagers are paused: open_wager is refused until the guardian resumes them. The automatic guardian never lifts this pause.';
}

function AutomaticLine({ view }: { view: GuardianView }) {
  const { automatic } = view;
  if (!automatic.enabled)
    return (
      <>
        off. <GoTo screen="settings">Turn it on in Settings</GoTo>
      </>
    );
  if (!automatic.running) return <>on in Settings, but it cannot run here: this console does not hold the guardian key.</>;
  return (
    <>
      on: pauses new wagers once a randomness request has waited {automatic.pauseAfterSlots} slots, and resumes its own pause once the oracle has fulfilled
      again for {automatic.resumeAfterSlots} slots.
      {automatic.lastError && <span className="error"> Last failure: {automatic.lastError}</span>}
    </>
  );
}

function ActionsTable({ actions, cluster }: { actions: GuardianActionView[]; cluster: Parameters<typeof explorerUrl>[0] }) {
  if (actions.length === 0) return <p className="muted">No pause or resume since the keeper started.</p>;
  return (
    <table className="plain" aria-label="Guardian actions">
      <thead>
        <tr>
          <th>Time</th>
          <th>Action</th>
          <th>By</th>
          <th>Slot</th>
          <th>Reason</th>
          <th>Transaction</th>
        </tr>
      </thead>
      <tbody>
        {actions.map((action) => {
          const link = explorerUrl(cluster, 'tx', action.signature);
          return (
            <tr key={action.signature}>
              <td>
                <TimeText at={action.at} />
              </td>
              <td>{action.action === 'pause' ? 'Paused' : 'Resumed'}</td>
              <td>{action.by === 'guardian' ? 'the guardian, automatically' : 'a person, from this console'}</td>
              <td>{action.slot.toLocaleString('en-US')}</td>
              <td className="wrap">{action.reason}</td>
              <td>
                <Address value={action.signature} label={`Copy ${action.action} transaction`} />
                {link && (
                  <>
                    {' '}
                    <a href={link} target="_blank" rel="noreferrer">
                      Explorer
                    </a>
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function NewWagersPanel() {
  const bridge = useBridge();
  const client = useQueryClient();
  // Also every few seconds while this screen is open: someone may pause with the guardian key elsewhere.
  const guardian = useGuardian(5_000);
  const cluster = useStatus().data?.cluster ?? null;
  const [confirming, setConfirming] = useState<boolean | null>(null);
  const toggle = useMutation({
    mutationFn: (paused: boolean) => bridge.call('setNewWagersPaused', { paused }),
    onSuccess: () => {
      setConfirming(null);
      void client.invalidateQueries({ queryKey: ['guardian'] });
    },
  });
  const ask = (paused: boolean) => {
    toggle.reset();
    setConfirming(paused);
  };
  const view = guardian.data;
  return (
    <section className="panel wide" aria-labelledby="new-wagers-title">
      <h2 id="new-wagers-title">New wagers</h2>
      {guardian.error && (
        <p role="alert" className="error">
          Cannot read the guardian: {guardian.error.message}
        </p>
      )}
      {!view && !guardian.error && <p aria-busy="true">Reading the config…</p>}
      {view && (
        <>
          <p className={view.paused ? 'warn' : undefined}>{pausedText(view)}</p>
          <dl className="kv">
            <dt>guardian</dt>
            <dd>{view.guardian ? <Address value={view.guardian} label="Copy guardian address" full /> : 'no deployment known'}</dd>
            <dt>guardian key</dt>
            <dd>{view.key ? `held by this console: ${KEY_SOURCE_TEXT[view.key.source]}` : 'not held by this console'}</dd>
            <dt>automatic</dt>
            <dd>
              <AutomaticLine view={view} />
            </dd>
          </dl>
          {view.key ? (
            <div className="actions">
              {view.paused === false && (
                <button type="button" className="danger" disabled={toggle.isPending || confirming !== null} onClick={() => ask(true)}>
                  Pause new wagers
                </button>
              )}
              {view.paused === true && (
                <button type="button" className="primary" disabled={toggle.isPending || confirming !== null} onClick={() => ask(false)}>
                  Resume new wagers
                </button>
              )}
            </div>
          ) : (
            <p>
              Only the deployment's guardian{view.guardian ? ` (${view.guardian})` : ''} can pause or resume new wagers, and this console does not hold its key
              {view.keyProblem ? `: ${view.keyProblem}` : '.'}
            </p>
          )}
          {confirming !== null && (
            <div role="alertdialog" aria-labelledby="new-wagers-confirm" className="confirm">
              <p id="new-wagers-confirm">
                {confirming ? (
                  <>
                    <strong>Pause new wagers?</strong> set_paused is sent with the guardian key: every open_wager is refused (the program's <code>paused</code>) until
                    new wagers are resumed. Wagers already open keep settling and expiring. The automatic guardian never lifts a pause made here.
                  </>
                ) : (
                  <>
                    <strong>Resume new wagers?</strong> set_paused is sent with the guardian key and open_wager is accepted again.
                    {view.pausedByGuardian ? ' The guardian paused them because the oracle stalled: resume once the oracle answers again.' : ''}
                  </>
                )}
              </p>
              <div className="actions">
                <button type="button" className={confirming ? 'danger' : 'primary'} disabled={toggle.isPending} aria-busy={toggle.isPending} onClick={() => toggle.mutate(confirming)}>
                  {confirming ? 'Confirm pause' : 'Confirm resume'}
                </button>
                <button type="button" disabled={toggle.isPending} onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </div>
            </div>
          )}
          {toggle.error && (
            <p role="alert" className="error">
              {toggle.error.message}
            </p>
          )}
          {toggle.data && !toggle.isPending && (
            <p role="status" className="ok-box">
              New wagers {toggle.data.action === 'pause' ? 'paused' : 'resumed'} at slot {toggle.data.slot.toLocaleString('en-US')}.
            </p>
          )}
          <h3>Last pauses and resumes</h3>
          <ActionsTable actions={view.actions} cluster={cluster?.name} />
        </>
      )}
    </section>
  );
}
