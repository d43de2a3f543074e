/**
 * Desktop only: keeps the Keepers list in the query cache (['keepers']) from the main process's changes and
 * the answers of the Keepers calls, and starts the console over when the shown keeper changes: every
 * screen's data was about the other keeper, so it is dropped and read again (not kept on screen meanwhile
 * under the new keeper's name).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { KeepersBridge, KeepersView } from '@shared/contract/keepers';
import { useUi } from './ui-store';

/** Queries that do not depend on which keeper is shown. */
const ABOUT_EVERY_KEEPER = new Set(['connection', 'keepers', 'keepersFleet']);

/**
 * Puts a KeepersView (a change, or what add/accept/remove/show answered) into the cache; when it shows
 * another keeper than the cached one, resets every query about the shown keeper and closes an open detail.
 */
export function applyKeepersView(client: QueryClient, view: KeepersView): void {
  const previous = client.getQueryData<KeepersView>(['keepers']);
  client.setQueryData(['keepers'], view);
  void client.invalidateQueries({ queryKey: ['keepersFleet'] });
  if (previous && previous.shown === view.shown) {
    // The same server, now in another state that cannot answer (a drop became a refused host key): what
    // failed is asked again, so its error names the state now, not the one it failed in.
    const before = previous.keepers.find((entry) => entry.id === view.shown)?.state;
    const now = view.keepers.find((entry) => entry.id === view.shown)?.state;
    if (before !== now && now !== 'connected') void client.invalidateQueries({ predicate: (query) => query.state.status === 'error' });
    return;
  }
  if (!previous) return;
  useUi.setState({ selected: null, search: '' });
  void client.resetQueries({ predicate: (query) => !ABOUT_EVERY_KEEPER.has(query.queryKey[0] as string) });
}

/** Follows the list's changes into the cache; returns the unsubscribe function. */
export function connectKeepers(keepers: KeepersBridge, client: QueryClient): () => void {
  return keepers.onChange((view) => applyKeepersView(client, view));
}
