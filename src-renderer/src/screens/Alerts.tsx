/**
 * Alerts: what fires now (with a mute per alert), the history (newest first) and each channel's state.
 * The `alert` live event refetches it; a mute's end is seen by the clock, without a fetch.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AlertChannelStatus, AlertName } from '@shared/alert-types';
import type { ActiveAlert, AlertsView } from '@shared/contract/alerts';
import type { AlertHistoryEntry } from '@shared/alert-types';
import { GoTo } from '../components/GoTo';
import {
  ALERT_TITLES,
  CHANNEL_KIND_TITLES,
  channelState,
  historyState,
  MUTE_CHOICES,
  mutedNow,
} from '../model/alerts';
import { formatAge } from '../model/format';
import { useAlerts, useBridge, useNow } from '../queries';
import { TimeText } from '../components/TimeText';

function useMute() {
  const bridge = useBridge();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (args: { alert: AlertName; minutes: number }) => bridge.call('muteAlert', args),
    onSuccess: (view) => client.setQueryData<AlertsView>(['alerts'], view),
  });
}

function MuteControls({
  alert,
  mutedUntil,
  now,
  mute,
}: {
  alert: AlertName;
  mutedUntil: string | null;
  now: number;
  mute: ReturnType<typeof useMute>;
}) {
  const title = ALERT_TITLES[alert];
  if (mutedNow(mutedUntil, now))
    return (
      <span className="mute">
        <span className="pill muted-pill">muted</span> until <TimeText at={mutedUntil!} />{' '}
        <button
          type="button"
          disabled={mute.isPending}
          aria-label={`Unmute ${title}`}
          onClick={() => mute.mutate({ alert, minutes: 0 })}
        >
          Unmute
        </button>
      </span>
    );
  return (
    <span className="mute" role="group" aria-label={`Mute ${title}`}>
      <span className="muted">mute</span>
      {MUTE_CHOICES.map((choice) => (
        <button
          key={choice.minutes}
          type="button"
          disabled={mute.isPending}
          aria-label={`Mute ${title} for ${choice.label}`}
          title={`Keep it on this screen but send it nowhere for ${choice.label}`}
          onClick={() => mute.mutate({ alert, minutes: choice.minutes })}
        >
          {choice.label}
        </button>
      ))}
    </span>
  );
}

function ActiveTable({
  active,
  now,
  mute,
}: {
  active: ActiveAlert[];
  now: number;
  mute: ReturnType<typeof useMute>;
}) {
  return (
    <table className="plain alerts-table" aria-label="Active alerts">
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Alert</th>
          <th scope="col">Summary</th>
          <th scope="col">Since</th>
          <th scope="col">Mute</th>
        </tr>
      </thead>
      <tbody>
        {active.map((alert) => (
          <tr key={alert.alert} className={mutedNow(alert.mutedUntil, now) ? 'is-muted' : undefined}>
            <td>
              <span className={`pill severity-${alert.severity}`}>{alert.severity}</span>
            </td>
            <th scope="row">{ALERT_TITLES[alert.alert]}</th>
            <td className="wrap">{alert.summary}</td>
            <td>
              <TimeText at={alert.since} />{' '}
              <span className="muted">({formatAge(Date.parse(alert.since), now)})</span>
            </td>
            <td>
              <MuteControls alert={alert.alert} mutedUntil={alert.mutedUntil} now={now} mute={mute} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function HistoryTable({ history }: { history: AlertHistoryEntry[] }) {
  if (history.length === 0) return <p className="muted">Nothing has fired yet.</p>;
  return (
    <table className="plain alerts-table" aria-label="Alert history">
      <thead>
        <tr>
          <th scope="col">Time (UTC)</th>
          <th scope="col">Alert</th>
          <th scope="col">State</th>
          <th scope="col">Summary</th>
        </tr>
      </thead>
      <tbody>
        {history.map((entry) => {
          const state = historyState(entry);
          return (
            <tr key={entry.id}>
              <td>
                <TimeText at={entry.at} />
              </td>
              <th scope="row">{ALERT_TITLES[entry.alert]}</th>
              <td>
                <span
                  className={`pill state-${state} severity-${state === 'resolved' ? 'none' : entry.severity}`}
                >
                  {state}
                </span>{' '}
                {state !== 'resolved' && <span className="muted">{entry.severity}</span>}
                {entry.muted && (
                  <span className="pill muted-pill" title="Recorded while muted: sent to no channel">
                    muted
                  </span>
                )}
              </td>
              <td className="wrap">{entry.summary}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A channel's state: ok, failing with its error, or nothing sent yet; and its last send. */
export function ChannelStateText({ status, now }: { status: AlertChannelStatus; now: number }) {
  const state = channelState(status);
  const last = status.lastSentAt ? (
    <span className="muted">
      {' '}
      (last send <TimeText at={status.lastSentAt} />, {formatAge(Date.parse(status.lastSentAt), now)})
    </span>
  ) : null;
  if (state === 'unused') return <span className="muted">nothing sent yet</span>;
  if (state === 'ok')
    return (
      <span>
        <span className="ok">ok</span>
        {last}
      </span>
    );
  return (
    <span>
      <span className="error">failing: {status.lastError ?? 'the service did not take the message'}</span>
      {last}
    </span>
  );
}

function ChannelsPart({ channels, now }: { channels: AlertChannelStatus[]; now: number }) {
  if (channels.length === 0)
    return (
      <p className="warn">
        Alerts go to no channel: they are only shown here.{' '}
        <GoTo screen="settings">Add a webhook in Settings → Alerts</GoTo>, or start the keeper with{' '}
        <code>--alert-webhook URL</code>.
      </p>
    );
  return (
    <ChannelsTable
      label="Alert channels"
      channels={channels}
      now={now}
      kindHeading="Channel"
      targetHeading="Target"
    />
  );
}

/**
 * Channels with their state (ok, failing with its error, unused), one row each; `action` adds a last
 * column (Settings → Alerts: Remove).
 */
export function ChannelsTable(props: {
  label: string;
  channels: AlertChannelStatus[];
  now: number;
  kindHeading: string;
  targetHeading: string;
  action?: { heading: string; render(channel: AlertChannelStatus): ReactNode };
}) {
  const { action } = props;
  return (
    <table className="plain alerts-table" aria-label={props.label}>
      <thead>
        <tr>
          <th scope="col">{props.kindHeading}</th>
          <th scope="col">{props.targetHeading}</th>
          <th scope="col">State</th>
          {action && (
            <th scope="col">
              <span className="sr-only">{action.heading}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {props.channels.map((channel) => (
          <tr key={channel.id}>
            <th scope="row">{CHANNEL_KIND_TITLES[channel.kind]}</th>
            <td>
              <code>{channel.label}</code>
            </td>
            <td className="wrap">
              <ChannelStateText status={channel} now={props.now} />
            </td>
            {action && <td>{action.render(channel)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Alerts() {
  const alerts = useAlerts();
  const now = useNow();
  const mute = useMute();
  const view = alerts.data;
  // Mutes of alerts not firing now (muted earlier, still in force).
  const otherMutes = view
    ? view.mutes.filter(
        (entry) => mutedNow(entry.until, now) && !view.active.some((alert) => alert.alert === entry.alert),
      )
    : [];
  return (
    <div className="grid alerts">
      <h1 className="sr-only">Alerts</h1>
      {alerts.error && (
        <div role="alert" className="error">
          Cannot read the alerts: {alerts.error.message}
        </div>
      )}
      {alerts.isPending && <p aria-busy="true">Reading the alerts…</p>}
      {view && (
        <>
          <section className="panel wide" aria-labelledby="active-title">
            <h2 id="active-title">Active now</h2>
            {view.active.length === 0 ? (
              <p className="ok">No alert is active.</p>
            ) : (
              <ActiveTable active={view.active} now={now} mute={mute} />
            )}
            {otherMutes.length > 0 && (
              <ul className="plain-list" aria-label="Other mutes">
                {otherMutes.map((entry) => (
                  <li key={entry.alert}>
                    {ALERT_TITLES[entry.alert]}:{' '}
                    <MuteControls alert={entry.alert} mutedUntil={entry.until} now={now} mute={mute} />
                  </li>
                ))}
              </ul>
            )}
            {mute.error && (
              <div role="alert" className="error">
                {mute.error.message}
              </div>
            )}
            <p className="muted small">
              A muted alert stays on this screen and in the history but is sent to no channel until the mute
              ends. Thresholds, debounce and reminders: <GoTo screen="settings">Settings → Alerts</GoTo>.
            </p>
          </section>
          <section className="panel wide" aria-labelledby="channels-title">
            <h2 id="channels-title">Channels</h2>
            <ChannelsPart channels={view.channels} now={now} />
          </section>
          <section className="panel wide" aria-labelledby="history-title">
            <h2 id="history-title">History</h2>
            <p className="muted small">
              Newest first, the last 200; times in UTC (hover for your local time).
            </p>
            <HistoryTable history={view.history} />
          </section>
        </>
      )}
    </div>
  );
}
