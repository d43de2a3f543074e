/** UI-only state (never server data): the screen, the queue's filter and sort, the wager whose detail is open. */
import { create } from 'zustand';
import { toggleSort, type SortKey, type SortOrder, type StateFilter } from './model/queue';

import { SCREENS, type Screen } from './nav';

export type { Screen };

/** `#/queue` → "queue"; anything else (or the token fragment) → "overview". */
export const screenFromHash = (hash: string): Screen => {
  const name = hash.replace(/^#\/?/, '').split(/[/?&]/)[0] as Screen;
  return SCREENS.includes(name) ? name : 'overview';
};

interface UiState {
  screen: Screen;
  filter: StateFilter;
  order: SortOrder;
  selected: string | null;
  /** The Queue's address search (a text filter over its rows). */
  search: string;
  setFilter(filter: StateFilter): void;
  setSearch(search: string): void;
  sortBy(key: SortKey): void;
  select(address: string | null): void;
}

export const useUi = create<UiState>((set) => ({
  screen: screenFromHash(window.location.hash),
  filter: 'all',
  order: { key: 'openSlot', descending: true },
  selected: null,
  search: '',
  setFilter: (filter) => set({ filter }),
  setSearch: (search) => set({ search }),
  sortBy: (key) => set((state) => ({ order: toggleSort(state.order, key) })),
  select: (selected) => set({ selected }),
}));

/** Routes on the current `#/...` (call after the token was taken out of the URL). */
export const syncScreenFromLocation = () => useUi.setState({ screen: screenFromHash(window.location.hash) });

// Hash routing (#/queue): links are real links, and back/forward work.
window.addEventListener('hashchange', syncScreenFromLocation);
