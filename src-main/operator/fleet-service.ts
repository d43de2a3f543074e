/**
 * The console's view of the operator's fleet: a fleet watch over the members saved in Settings → Fleet,
 * started again when that list changes. Serves `fleet()`.
 */
import { createFleetWatch } from './fleet-watch';
import type { OperatorApi } from './operator-interface';
import type { ResolvedOperatorOptions } from './operator-options';

export type FleetApi = Pick<OperatorApi, 'fleet'>;

export function createFleetService(options: Pick<ResolvedOperatorOptions, 'settings'>): {
  api: FleetApi;
  membersChanged(): void;
  stop(): void;
} {
  let watched = '';
  let watch: ReturnType<typeof createFleetWatch> | null = null;
  const sync = () => {
    const urls = options.settings.store.fleetMembers ?? [];
    const key = JSON.stringify(urls);
    if (key === watched && watch) return watch;
    watch?.stop();
    watched = key;
    watch = createFleetWatch({ urls });
    return watch;
  };
  return {
    api: { fleet: async () => sync().members() },
    membersChanged: () => void sync(),
    stop: () => watch?.stop(),
  };
}
