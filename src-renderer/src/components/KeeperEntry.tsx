/**
 * One keeper in the Keepers list: its label, state pill, what happened and what to do, last seen, and
 * Show / Remove; a server's new host key by fingerprint with "Accept host key", a changed one as an alert.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { HostKeyView, KeeperEntryView, KeepersBridge } from '@shared/contract/keepers';
import { applyKeepersView } from '../keepers-sync';
import { keeperStateText, keeperStateTone } from '../model/keepers';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyButton } from './CopyButton';
import { AgoText } from './TimeText';

const CHECK_COMMAND = 'ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub';

/** A fingerprint in a copyable code block. */
function Fingerprint({ hostKey, fingerprint, label }: { hostKey: HostKeyView; fingerprint: string; label: string }) {
  return (
    <span className="address">
      <code className="fingerprint">
        {hostKey.algorithm} {fingerprint}
      </code>
      <CopyButton text={fingerprint} label={label} />
    </span>
  );
}

/** The unknown host key, waiting for the operator to check it with the server's admin and accept it once. */
function UnknownHostKey({ entry, hostKey, keepers }: { entry: KeeperEntryView; hostKey: HostKeyView; keepers: KeepersBridge }) {
  const client = useQueryClient();
  const accept = useMutation({
    mutationFn: () => keepers.acceptHostKey({ id: entry.id, fingerprint: hostKey.fingerprint }),
    onSuccess: (view) => applyKeepersView(client, view),
  });
  return (
    <div className="warn-box host-key">
      <p>
        {entry.label} presents a host key this computer does not know yet:{' '}
        <Fingerprint hostKey={hostKey} fingerprint={hostKey.fingerprint} label={`Copy the host key fingerprint of ${entry.label}`} />
      </p>
      <p>
        Check this fingerprint with the server's admin (on the server: <code>{CHECK_COMMAND}</code>) before you accept it.
      </p>
      <button type="button" className="primary" disabled={accept.isPending} aria-busy={accept.isPending} onClick={() => accept.mutate()}>
        Accept host key
      </button>
      {accept.error && (
        <div role="alert" className="error">
          {accept.error.message}
        </div>
      )}
    </div>
  );
}

/** A host key that differs from the known one: refused, with both fingerprints (no way to accept it here). */
function ChangedHostKey({ entry, hostKey }: { entry: KeeperEntryView; hostKey: HostKeyView | null }) {
  return (
    <div role="alert" className="error host-key">
      <p>{entry.detail ?? `${entry.label} presents another host key than the one known for it: the app refuses to connect.`}</p>
      {hostKey && (
        <p>
          Presented now: <Fingerprint hostKey={hostKey} fingerprint={hostKey.fingerprint} label={`Copy the presented host key fingerprint of ${entry.label}`} />
        </p>
      )}
      {hostKey?.knownFingerprint && (
        <p>
          Known for this server: <Fingerprint hostKey={hostKey} fingerprint={hostKey.knownFingerprint} label={`Copy the known host key fingerprint of ${entry.label}`} />
        </p>
      )}
    </div>
  );
}

/** One keeper of the list (a list item): `shown` marks the keeper the console shows now. */
export function KeeperEntry({ entry, shown, now, keepers }: { entry: KeeperEntryView; shown: boolean; now: number; keepers: KeepersBridge }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const show = useMutation({
    mutationFn: () => keepers.show({ id: entry.id }),
    onSuccess: (view) => {
      applyKeepersView(client, view);
      window.location.hash = '#/overview';
    },
  });
  const remove = useMutation({
    mutationFn: () => keepers.remove({ id: entry.id }),
    onSuccess: (view) => applyKeepersView(client, view),
    onSettled: () => setConfirming(false),
  });
  const titleId = `keeper-${entry.id}-label`;
  return (
    <li className={`keeper-entry${shown ? ' shown' : ''}`} aria-labelledby={titleId}>
      <div className="keeper-head">
        <strong id={titleId}>{entry.label}</strong>
        {entry.kind === 'server' && <CopyButton text={entry.label} label={`Copy the address of ${entry.label}`} />}
        <span className={`pill keeper-state ${keeperStateTone(entry.state)}`}>{keeperStateText(entry, now)}</span>
        {shown && <span className="muted small">shown now</span>}
        <span className="muted small">
          last seen <AgoText at={entry.lastSeenMs} now={now} />
        </span>
        <span className="actions">
          <button type="button" disabled={show.isPending} aria-busy={show.isPending} onClick={() => show.mutate()}>
            Show
          </button>
          {entry.kind === 'server' && !confirming && (
            <button type="button" onClick={() => setConfirming(true)}>
              Remove
            </button>
          )}
        </span>
      </div>
      {entry.state !== 'host-key-changed' && entry.detail && <p className="keeper-detail">{entry.detail}</p>}
      {entry.state === 'host-key-unknown' && entry.hostKey && <UnknownHostKey entry={entry} hostKey={entry.hostKey} keepers={keepers} />}
      {entry.state === 'host-key-changed' && <ChangedHostKey entry={entry} hostKey={entry.hostKey} />}
      {confirming && (
        <ConfirmDialog
          id={`keeper-${entry.id}-remove`}
          question={`Remove ${entry.label} from the list?`}
          consequence="Its tunnel closes; the keeper on the server keeps running. You can add it again later."
          confirmLabel="Confirm removal"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
        />
      )}
      {(show.error ?? remove.error) && (
        <div role="alert" className="error">
          {(show.error ?? remove.error)!.message}
        </div>
      )}
    </li>
  );
}
