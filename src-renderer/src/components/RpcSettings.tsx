/**
 * Settings → RPC: every endpoint the keeper reads from or sends to, with its live health (latency, error
 * rate, slot, which one is in use and why another is set aside), and on an RPC cluster the operator entered,
 * the fallback read endpoints and send endpoints they add or remove (saving restarts the keeper on them).
 * Endpoints from this run's --rpc/--send-rpc flags are shown read-only; the embedded localnet has one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ClusterSetting } from '@shared/contract/cluster';
import type { SettingsView } from '@shared/contract/settings';
import type { StatusView } from '@shared/contract/status';
import { scrubSecrets } from '@shared/secret-scrub';
import {
  addEndpoint,
  savedEndpointsText,
  errorRateText,
  latencyText,
  retryText,
  roleText,
  slotText,
  stateText,
  type RpcView,
} from '../model/rpc-endpoints';
import { useBridge, useNow } from '../queries';
import { CopyButton } from './CopyButton';
import { TextField } from './FieldRow';

/** Endpoint health changes between status events: read again this often while the section is open. */
const REFRESH_MS = 3_000;

type RpcCluster = Extract<ClusterSetting, { kind: 'rpc' }>;

/** The status with the endpoints' health (StatusView.rpc), read every few seconds while shown. */
export function useRpcStatus(refetchMs: number) {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['status'],
    queryFn: () => bridge.call('status', undefined),
    refetchInterval: refetchMs,
  });
}

/** StatusView.rpc (the failover's part of the status); absent before the first status or from an older core. */
export const rpcOf = (status: StatusView | undefined): RpcView | null => status?.rpc ?? null;

function EndpointTable({ rpc }: { rpc: RpcView }) {
  const now = useNow();
  return (
    <div className="scroll-x">
      <table className="plain rpc-endpoints">
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Role</th>
            <th scope="col">In use</th>
            <th scope="col">State</th>
            <th scope="col">Latency</th>
            <th scope="col">Error rate</th>
            <th scope="col">Slot</th>
            <th scope="col">Tried again</th>
          </tr>
        </thead>
        <tbody>
          {rpc.endpoints.map((endpoint) => (
            <tr key={`${endpoint.role} ${endpoint.label}`} aria-current={endpoint.inUse ? 'true' : undefined}>
              <td>
                <code>{endpoint.label}</code>{' '}
                <CopyButton text={endpoint.label} label={`Copy ${endpoint.label}`} />
              </td>
              <td>{roleText(endpoint)}</td>
              <td>{endpoint.role === 'send' ? '—' : endpoint.inUse ? 'in use' : 'no'}</td>
              <td
                className={
                  endpoint.state === 'healthy'
                    ? undefined
                    : endpoint.state === 'unchecked'
                      ? 'muted'
                      : 'error'
                }
              >
                {stateText(endpoint)}
              </td>
              <td>{latencyText(endpoint.latencyMs)}</td>
              <td>{errorRateText(endpoint.errorRate)}</td>
              <td>{slotText(endpoint)}</td>
              <td>{retryText(endpoint.retryAt, now)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One editable list (fallback reads or sends): each URL with Remove, and a field to add one. */
function EndpointList({
  what,
  title,
  note,
  urls,
  preferredRpcUrl,
  saving,
  onSave,
}: {
  what: 'fallback' | 'send';
  title: string;
  note: string;
  urls: string[];
  preferredRpcUrl: string;
  saving: boolean;
  onSave: (urls: string[]) => void;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const result = addEndpoint(urls, typed, preferredRpcUrl, what);
    if ('error' in result) return setError(result.error);
    setError(null);
    setTyped('');
    onSave(result.list);
  };
  return (
    <div className="rpc-list">
      <h3>{title}</h3>
      {urls.length === 0 ? (
        <p className="muted small">None yet.</p>
      ) : (
        <ul aria-label={title}>
          {urls.map((url) => (
            <li key={url}>
              <code>{url}</code> <CopyButton text={url} label={`Copy ${url}`} />{' '}
              <button
                type="button"
                disabled={saving}
                onClick={() => onSave(urls.filter((other) => other !== url))}
              >
                Remove {what === 'fallback' ? 'fallback' : 'send endpoint'} {url}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <div className="form-grid">
          <TextField
            id={`rpc-add-${what}`}
            label={what === 'fallback' ? 'Fallback RPC URL' : 'Send endpoint URL'}
            value={typed}
            placeholder="https://…"
            error={error}
            note={note}
            onChange={(value) => {
              setTyped(value);
              setError(null);
            }}
          />
        </div>
        <div className="actions">
          <button type="submit" disabled={saving} aria-busy={saving}>
            {what === 'fallback' ? 'Add fallback' : 'Add send endpoint'}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The fallback and send endpoints of the saved RPC cluster the keeper runs on; saving restarts the keeper on them. */
function EndpointEditor({ cluster }: { cluster: RpcCluster }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (next: RpcCluster) => bridge.call('saveSettings', { changes: { cluster: next } }),
    onSuccess: async (result) => {
      client.setQueryData(['settings'], result.view);
      await client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'connection' });
    },
  });
  const saveLists = (lists: Pick<RpcCluster, 'fallbackRpcUrls' | 'sendRpcUrls'>) => {
    save.reset();
    save.mutate({
      ...cluster,
      fallbackRpcUrls: cluster.fallbackRpcUrls ?? [],
      sendRpcUrls: cluster.sendRpcUrls ?? [],
      ...lists,
    });
  };
  return (
    <>
      <EndpointList
        what="fallback"
        title="Fallback read endpoints"
        note="another RPC of the same cluster: reads move there within 2 s when the preferred one fails or lags (its WebSocket: same host, port + 1). Checked before it is saved."
        urls={cluster.fallbackRpcUrls ?? []}
        preferredRpcUrl={cluster.rpcUrl}
        saving={save.isPending}
        onSave={(fallbackRpcUrls) => saveLists({ fallbackRpcUrls })}
      />
      <EndpointList
        what="send"
        title="Send endpoints"
        note="a staked connection or a sender service: every crank is also sent there (never read from); one that fails does not fail the send."
        urls={cluster.sendRpcUrls ?? []}
        preferredRpcUrl={cluster.rpcUrl}
        saving={save.isPending}
        onSave={(sendRpcUrls) => saveLists({ sendRpcUrls })}
      />
      {save.isPending && (
        <p role="status" aria-busy="true" className="progress">
          Checking the endpoints and restarting the keeper on them…
        </p>
      )}
      {save.error && (
        <div role="alert" className="error">
          Nothing was saved: {save.error.message}
        </div>
      )}
      {save.isSuccess && !save.isPending && (
        <p role="status" className="ok-box">
          {savedEndpointsText(save.data.view.settings.cluster, save.data.restarted)}
        </p>
      )}
    </>
  );
}

export function RpcSettings({ view }: { view: SettingsView }) {
  const status = useRpcStatus(REFRESH_MS).data;
  const section = useRef<HTMLElement>(null);
  // `#/settings/rpc` (the status line's failover link) opens Settings scrolled here.
  useEffect(() => {
    if (/^#\/settings\/rpc\b/.test(window.location.hash)) section.current?.scrollIntoView({ block: 'start' });
  }, []);
  const cluster = status?.cluster ?? null;
  const rpc = rpcOf(status);
  const saved = view.settings.cluster;
  const editable =
    cluster &&
    !cluster.embedded &&
    !cluster.endpointsByFlags &&
    saved.kind === 'rpc' &&
    // The headless console's status names the endpoint by its masked label (secret-scrub.ts); settings keep the URL.
    (saved.rpcUrl === cluster.rpcUrl || scrubSecrets(saved.rpcUrl) === cluster.rpcUrl)
      ? saved
      : null;
  return (
    <section className="panel" aria-labelledby="rpc-settings-title" id="rpc" ref={section}>
      <h2 id="rpc-settings-title">RPC</h2>
      <p className="muted">
        {cluster?.embedded
          ? 'The embedded localnet is one endpoint on this machine. Fallback and send endpoints apply to an RPC cluster (Settings → Cluster, Custom RPC, devnet or mainnet-beta).'
          : 'Reads go to the preferred endpoint while it is healthy; one that fails or falls behind is set aside and tried again later, and reads move to the next healthy one. Every crank also goes to each send endpoint.'}
      </p>
      {rpc && rpc.endpoints.length > 0 ? (
        <EndpointTable rpc={rpc} />
      ) : (
        <p className="muted">
          {cluster
            ? `Reading from ${cluster.rpcUrl} (the endpoints' health appears with the keeper's next status).`
            : 'No cluster yet: the keeper is starting.'}
        </p>
      )}
      {cluster?.endpointsByFlags && (
        <p className="muted small">
          Set by this run's --rpc and --send-rpc flags (read-only here): restart without them to manage the
          endpoints in Settings.
        </p>
      )}
      {editable && <EndpointEditor cluster={editable} />}
    </section>
  );
}
