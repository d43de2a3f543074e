/**
 * The update banner, on every screen of the desktop app (the bridge offers `updates`; a browser console has
 * none): a downloaded and verified update offers "Restart to update", which first lets the keeper finish
 * the cranks in flight (the banner counts them down, Cancel resumes cranking); a version this install cannot
 * take in place links to its release page; a failed check or a refused download says why. The status is
 * pushed by the main process on each change.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { UpdatesBridge, UpdateStatusView } from '@shared/contract/updates';
import { useBridge } from '../queries';

const KEY = ['updateStatus'];

/** The update status, kept current by the pushed changes. */
export function useUpdateStatus(updates: UpdatesBridge | undefined) {
  const client = useQueryClient();
  useEffect(
    () => updates?.onStatus((status) => client.setQueryData<UpdateStatusView>(KEY, status)),
    [updates, client],
  );
  return useQuery({ queryKey: KEY, queryFn: () => updates!.status(), enabled: Boolean(updates) });
}

/** A call that answers the status, which replaces the cached one. */
export function useUpdateAction<A>(run: (args: A) => Promise<UpdateStatusView>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: (status) => client.setQueryData(KEY, status) });
}

function Banner({ updates }: { updates: UpdatesBridge }) {
  const status = useUpdateStatus(updates).data;
  const restart = useUpdateAction(() => updates.restartToUpdate());
  const cancel = useUpdateAction(() => updates.cancelRestart());
  const open = useMutation({ mutationFn: () => updates.openReleasePage() });
  if (!status || !['downloaded', 'draining', 'installing', 'notice', 'failed'].includes(status.state)) return null;
  const error = restart.error ?? cancel.error ?? open.error;
  return (
    <div
      className={`warn-box update-banner${status.state === 'failed' ? ' warn' : ''}`}
      role="status"
      aria-label="App update"
    >
      <strong>{status.state === 'failed' ? 'Update failed.' : 'Update.'}</strong> {status.message}{' '}
      {status.state === 'downloaded' && (
        <button type="button" onClick={() => restart.mutate(undefined)} disabled={restart.isPending}>
          Restart to update
        </button>
      )}
      {status.state === 'draining' && (
        <button type="button" onClick={() => cancel.mutate(undefined)} disabled={cancel.isPending}>
          Cancel (keep cranking)
        </button>
      )}
      {status.state === 'notice' && status.releaseUrl && (
        <button type="button" onClick={() => open.mutate()} disabled={open.isPending}>
          Open the release page
        </button>
      )}
      {error && (
        <span role="alert" className="error">
          {' '}
          {error.message}
        </span>
      )}
    </div>
  );
}

export function UpdateBanner() {
  const { updates } = useBridge();
  if (!updates) return null;
  return <Banner updates={updates} />;
}
