/** The console's screens, and those in the navigation in order (index.html's first paint lists the same: a test checks). */

// 'search': support's search results (the shell's search box opens it; not in the navigation).
// 'keepers', 'fleet': desktop only (KEEPERS_NAV); a browser console opens the Overview for them.
export const SCREENS = [
  'overview',
  'queue',
  'inspector',
  'oracle',
  'liquidity',
  'faucet',
  'alerts',
  'logs',
  'settings',
  'search',
  'keepers',
  'fleet',
] as const;
export type Screen = (typeof SCREENS)[number];

export const NAV: { screen: Screen; label: string; coming?: boolean }[] = [
  { screen: 'overview', label: 'Overview' },
  { screen: 'queue', label: 'Queue' },
  { screen: 'inspector', label: 'Inspector' },
  { screen: 'oracle', label: 'Oracle' },
  { screen: 'liquidity', label: 'Liquidity' },
  { screen: 'faucet', label: 'Faucet' },
  { screen: 'alerts', label: 'Alerts' },
  { screen: 'logs', label: 'Logs' },
  { screen: 'settings', label: 'Settings' },
];

/** Desktop only (the app's Keepers list): shown after NAV when the bridge has `keepers`; a browser console has no list. */
export const KEEPERS_NAV: { screen: Screen; label: string }[] = [
  { screen: 'keepers', label: 'Keepers' },
  { screen: 'fleet', label: 'Fleet' },
];
