/** The on-chain wager statuses (Wager.status). A closed wager has no account. */
export const WagerStatus = { Open: 1, Requested: 2, PayoutPending: 3 } as const;
export type WagerStatusName = keyof typeof WagerStatus;

export function wagerStatusName(status: number): WagerStatusName {
  const name = (Object.keys(WagerStatus) as WagerStatusName[]).find((key) => WagerStatus[key] === status);
  if (!name) throw new Error(`unknown wager status ${status}`);
  return name;
}
