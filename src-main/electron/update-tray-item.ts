/**
 * The tray's update item, from the update status: "Restart to update (version)" once an update is
 * downloaded and verified; while draining, the cranks still in flight (disabled); a notice opens the
 * release page; nothing otherwise.
 */
import type { UpdateStatusView } from '../../src-shared/contract/updates';

export interface UpdateTrayItem {
  label: string;
  enabled: boolean;
  click?: () => void;
}

export function updateTrayItem(
  status: UpdateStatusView,
  actions: { restartToUpdate(): void; openReleasePage(): void },
): UpdateTrayItem | null {
  switch (status.state) {
    case 'downloaded':
      return { label: `Restart to update (${status.version})`, enabled: true, click: actions.restartToUpdate };
    case 'draining':
      return {
        label: `Updating: waiting for ${status.inFlight ?? 0} ${status.inFlight === 1 ? 'crank' : 'cranks'} in flight…`,
        enabled: false,
      };
    case 'installing':
      return { label: `Installing ${status.version}…`, enabled: false };
    case 'notice':
      return status.releaseUrl
        ? { label: `Version ${status.version} is out: open its release page`, enabled: true, click: actions.openReleasePage }
        : null;
    default:
      return null;
  }
}
