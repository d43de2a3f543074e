/** UI-only state (never server data): the screen, the queue's filter and sort, the wager whose detail is open. */
import { create } from 'zustand';
import type { SortOrder, StateFilter } from './model/format';

export const SCREENS = ['overview', 'queue', 'inspector', 'oracle', 'liquidity', 'faucet', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

const screenFromHash = (): Screen => {
  const name = window.location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] as Screen;
  return SCREENS.includes(name) ? name : 'overview';
};

interface UiState {
  screen: Screen;
  filter: StateFilter;
  order: SortOrder;
  selected: string | null;
  go(screen: Screen): void;
  setFilter(filter: StateFilter): void;
  sortBy(key: SortOrder['key']): void;
  select(address: string | null): void;
}

export const useUi = create<UiState>((set) => ({
  screen: screenFromHash(),
  filter: 'all',
  order: { key: 'openSlot', descending: true },
  selected: null,
  go: (screen) => set({ screen }),
  setFilter: (filter) => set({ filter }),
  sortBy: (key) => set((state) => ({ order: { key, descending: state.order.key === key ? !state.order.descending : true } })),
  select: (selected) => set({ selected }),
}));

// Hash routing (#/queue): links are real links, and back/forward work.
window.addEventListener('hashchange', () => useUi.setState({ screen: screenFromHash() }));
