/** UI-only state (never server data): the screen, the queue's filter and sort, the wager whose detail is open, the time zone shown. */
import { create } from 'zustand';
import { toggleSort, type SortKey, type SortOrder, type StateFilter } from './model/queue';
import { parseTimeZoneChoice, type TimeZoneChoice } from './model/time-zone';

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
  /** Times in UTC or the viewer's local zone (Settings → Console), the other on hover. */
  timeZone: TimeZoneChoice;
  setFilter(filter: StateFilter): void;
  setTimeZone(choice: TimeZoneChoice): void;
  setSearch(search: string): void;
  sortBy(key: SortKey): void;
  select(address: string | null): void;
}

/**
 * The time zone is this viewer's display preference, not the keeper's configuration: it is kept in the
 * page's localStorage (the desktop window's and each browser's own), so a support person's UTC does not
 * change the operator's local times. Storage can be unavailable (private modes): then it lasts the session.
 */
const TIME_ZONE_KEY = 'wager-keeper.timeZone';
const storedTimeZone = (): TimeZoneChoice => {
  try {
    return parseTimeZoneChoice(window.localStorage.getItem(TIME_ZONE_KEY));
  } catch {
    return parseTimeZoneChoice(null);
  }
};
const storeTimeZone = (choice: TimeZoneChoice) => {
  try {
    window.localStorage.setItem(TIME_ZONE_KEY, choice);
  } catch {
    // Not persisted; the choice still applies to this page.
  }
};

export const useUi = create<UiState>((set) => ({
  screen: screenFromHash(window.location.hash),
  filter: 'all',
  order: { key: 'openSlot', descending: true },
  selected: null,
  search: '',
  timeZone: storedTimeZone(),
  setFilter: (filter) => set({ filter }),
  setTimeZone: (timeZone) => {
    storeTimeZone(timeZone);
    set({ timeZone });
  },
  setSearch: (search) => set({ search }),
  sortBy: (key) => set((state) => ({ order: toggleSort(state.order, key) })),
  select: (selected) => set({ selected }),
}));

/** Routes on the current `#/...` (call after the token was taken out of the URL). */
export const syncScreenFromLocation = () => useUi.setState({ screen: screenFromHash(window.location.hash) });

// Hash routing (#/queue): links are real links, and back/forward work.
window.addEventListener('hashchange', syncScreenFromLocation);
// Another window of the same console changed the zone: follow it.
window.addEventListener('storage', (event) => {
  if (event.key === TIME_ZONE_KEY) useUi.setState({ timeZone: parseTimeZoneChoice(event.newValue) });
});
