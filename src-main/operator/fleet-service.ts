/**
 * The console's view of the operator's fleet: a fleet watch over the members saved in Settings → Fleet,
 * started with the service and again when that list changes. Serves `fleet()`, and tells the keeper its
 * peers' keys as their health answers them (a peer is never taken for a rival: rival-yield.ts).
 */
import { createFleetWatch } from '../fleet/fleet-watch';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';

export type FleetApi = Pick<OperatorApi, 'fleet'>;

export function createFleetService(
  options: Pick<ResolvedOperatorOptions, 'settings'>,
  hooks: { peersChanged(keys: string[]): void } = { peersChanged: () => undefined },
): {
  api: FleetApi;
  membersChanged(): void;
  /** The members' keeper keys known now. */
  peers(): string[];
  stop(): void;
} {
  let watched = '';
  let watch: ReturnType<typeof createFleetWatch> | null = null;
  let peers: string[] = [];
  const sync = () => {
    const urls = options.settings.store.fleetMembers ?? [];
    const key = JSON.stringify(urls);
    if (key === watched && watch) return watch;
    watch?.stop();
    watched = key;
    watch = createFleetWatch({
      urls,
      onChange: (members) => {
        const keys = [...new Set(members.flatMap((member) => (member.keeper ? [member.keeper] : [])))].sort();
        if (JSON.stringify(keys) === JSON.stringify(peers)) return;
        peers = keys;
        hooks.peersChanged(keys);
      },
    });
    return watch;
  };
  return {
    api: { fleet: async () => sync().members() },
    membersChanged: () => void sync(),
    peers: () => peers,
    stop: () => watch?.stop(),
  };
}
