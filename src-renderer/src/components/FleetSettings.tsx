/** Settings → Fleet: this keeper's shard ("I/N"), the takeover delay, and the other members' APIs the Overview lists. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SettingsView } from '@shared/contract/settings';
import { SHARD_TAKEOVER_MAX_SLOTS, T_SETTLE_SLOTS } from '@shared/wager-timing';
import { useBridge, useStatus } from '../queries';
import { TextField } from './FieldRow';

const membersOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((url) => url.trim())
    .filter(Boolean);

export function FleetSettings({ view }: { view: SettingsView }) {
  const bridge = useBridge();
  const client = useQueryClient();
  const running = useStatus().data?.keeper?.shard ?? null;
  const { settings } = view;
  const [shard, setShard] = useState(settings.shard);
  const [takeover, setTakeover] = useState(String(settings.shardTakeoverSlots));
  const [members, setMembers] = useState(settings.fleetMembers.join('\n'));
  const save = useMutation({
    mutationFn: () =>
      bridge.call('saveSettings', {
        changes: {
          shard: shard.trim(),
          shardTakeoverSlots: Number(takeover),
          fleetMembers: membersOf(members),
        },
      }),
    onSuccess: (result) => {
      client.setQueryData(['settings'], result.view);
      void client.invalidateQueries({ queryKey: ['status'] });
      void client.invalidateQueries({ queryKey: ['fleet'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="panel" aria-labelledby="fleet-settings-title">
      <h2 id="fleet-settings-title">Fleet</h2>
      <p className="muted small">
        Several machines cranking one deployment as one fleet: each takes first the wagers of its shard, and
        another shard's wager only once it has waited the takeover delay past its due slot, so members do not
        race each other and a member that dies loses nothing.{' '}
        {running ? `This keeper runs as shard ${running}.` : 'This keeper takes every wager (no shard).'}
      </p>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <TextField
            id="fleet-shard"
            label="This keeper's shard"
            value={shard}
            placeholder="e.g. 0/3"
            note="I/N: this keeper's number from 0 to N-1 and the fleet's size; empty for none. Saving restarts the keeper."
            onChange={setShard}
          />
          <TextField
            id="fleet-takeover"
            label="Takeover delay"
            value={takeover}
            numeric
            unit="slots"
            note={`past a wager's due slot before another shard's wager is taken over (1 to ${SHARD_TAKEOVER_MAX_SLOTS}: twice it must fit in the ${T_SETTLE_SLOTS}-slot window).`}
            onChange={setTakeover}
          />
          <TextField
            id="fleet-members"
            label="Fleet members"
            value={members}
            rows={3}
            placeholder="http://10.0.0.2:7300"
            note="The other members' keeper APIs, one per line; the Overview lists each from its public /v1/health."
            onChange={setMembers}
          />
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
            Save fleet
          </button>
        </div>
        {save.error && (
          <div role="alert" className="error">
            Nothing was saved: {save.error.message}
          </div>
        )}
        {save.isSuccess && (
          <p role="status" className="ok-box">
            Fleet saved{save.data.restarted ? '; the keeper restarted with its shard' : ''}.
          </p>
        )}
      </form>
    </section>
  );
}
