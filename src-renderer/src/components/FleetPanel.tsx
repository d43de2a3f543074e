/** Overview: the other members of this operator's fleet (Settings → Fleet), each from its public /v1/health; one that stopped answering is flagged. */
import type { FleetMemberView } from '@shared/contract/fleet';
import { formatSolExact } from '../model/format';
import { useFleet, useNow } from '../queries';
import { Address } from './CopyButton';
import { AgoText } from './TimeText';
import { GoTo } from './GoTo';

function MemberRow({ member, now }: { member: FleetMemberView; now: number }) {
  return (
    <tr className={member.stale ? 'stale' : undefined}>
      <th scope="row">
        <code>{member.url}</code>
      </th>
      <td>
        {member.keeper ? (
          <Address value={member.keeper} label={`Copy the keeper address of ${member.url}`} />
        ) : (
          '—'
        )}
      </td>
      <td>{member.lamports !== null ? formatSolExact(member.lamports) : '—'}</td>
      <td>{member.lastTick !== null ? <AgoText at={member.lastTick} now={now} /> : '—'}</td>
      <td>{member.queue !== null ? `${member.queue.toLocaleString('en-US')} wagers` : '—'}</td>
      <td>{member.shard ?? 'all (no --shard)'}</td>
      <td>
        {member.stale ? (
          <span className="error">
            Not answering{member.answeredAtMs ? <> since <AgoText at={member.answeredAtMs} now={now} /></> : ''}:{' '}
            {member.error ?? 'no answer'}. Check that machine's keeper and its network; its shard is taken
            over by the others after the takeover delay.
          </span>
        ) : member.error ? (
          <span className="warn">Last poll failed: {member.error}</span>
        ) : member.rpcError ? (
          <span className="warn">Its RPC fails: {member.rpcError}</span>
        ) : (
          <span className="ok">
            answering{member.answeredAtMs ? <> (<AgoText at={member.answeredAtMs} now={now} />)</> : ''}
          </span>
        )}
      </td>
    </tr>
  );
}

export function FleetPanel() {
  const fleet = useFleet().data;
  const now = useNow();
  if (!fleet || fleet.length === 0) return null;
  const down = fleet.filter((member) => member.stale).length;
  return (
    <section className="panel wide" aria-labelledby="fleet-title">
      <h2 id="fleet-title">Fleet</h2>
      {down > 0 && (
        <p className="error" role="alert">
          {down === 1 ? '1 fleet member is' : `${down} fleet members are`} not answering.
        </p>
      )}
      <table className="plain fleet-table">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Keeper</th>
            <th scope="col">Balance</th>
            <th scope="col">Last pass</th>
            <th scope="col">Queue</th>
            <th scope="col">Shard</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {fleet.map((member) => (
            <MemberRow key={member.url} member={member} now={now} />
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Polled every 5 s from each member's public API. <GoTo screen="settings">Settings</GoTo> lists the
        members.
      </p>
    </section>
  );
}
