/** The server data of the screens, as TanStack queries over the operator bridge (live events keep them fresh). */
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { OperatorBridge } from '@shared/contract/bridge';
import type { EarningsRange } from './model/earnings';
import { startOfLocalDay } from './model/format';
import { indexQueue, type QueueIndex } from './model/queue';
import { slotMs, type SlotSample } from './model/slot-clock';
import type { ConnectionState } from './transport';

export const BridgeContext = createContext<OperatorBridge | null>(null);

export function useBridge(): OperatorBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('no operator bridge');
  return bridge;
}

export const useStatus = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['status'], queryFn: () => bridge.call('status', undefined) });
};

export const useHealth = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['health'], queryFn: () => bridge.call('health', undefined) });
};

/** Milliseconds per slot on the watched cluster, measured from the health events since the screen opened. */
export function useSlotPace(): { ms: number; measured: boolean } {
  const health = useHealth().data;
  const first = useRef<SlotSample | null>(null);
  const last: SlotSample | null = health?.slot != null ? { slot: health.slot, atMs: health.checkedAt } : null;
  // A new cluster (the slot went back) starts the measure again.
  if (last && (!first.current || last.slot < first.current.slot)) first.current = last;
  return slotMs(first.current, last);
}

/** Today starts at local midnight (computed here, in the operator's time zone). */
export const useOverview = () => {
  const bridge = useBridge();
  const dayStartMs = startOfLocalDay(useNow(60_000));
  return useQuery({ queryKey: ['overview', dayStartMs], queryFn: () => bridge.call('overview', { dayStartMs }) });
};

export const useQueue = () => {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['queue'],
    queryFn: async (): Promise<QueueIndex> => indexQueue(await bridge.call('queue', undefined)),
    // Batches mutate the Map in place and wrap it anew: nothing to compare deeply.
    structuralSharing: false,
  });
};

export const useWager = (address: string | null) => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['wager', address], queryFn: () => bridge.call('wager', { address: address! }), enabled: address !== null });
};

export const useEarnings = (range: EarningsRange) => {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['earnings', range.label],
    queryFn: async () => {
      const sinceMs = Date.now() - range.spanMs;
      return { sinceMs, points: await bridge.call('earningsSeries', { sinceMs, bucketMs: range.bucketMs }) };
    },
  });
};

/** Per crank step over the last `spanMs` (the Overview's step table); refreshed every 10 s. */
export const useStepTally = (spanMs: number) => {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['stepTally', spanMs],
    queryFn: () => bridge.call('stepTally', { sinceMs: Date.now() - spanMs }),
    refetchInterval: 10_000,
  });
};

/** The other fleet members as their /v1/health last answered (polled by the keeper host every 5 s). */
export const useFleet = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['fleet'], queryFn: () => bridge.call('fleet', undefined), refetchInterval: 5_000 });
};

/** The guardian: whether new wagers are paused (read on chain), its key here, its last actions. `refetchMs` also catches a pause made elsewhere. */
export const useGuardian = (refetchMs?: number) => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['guardian'], queryFn: () => bridge.call('guardian', undefined), ...(refetchMs ? { refetchInterval: refetchMs } : {}) });
};

export const useSettings = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['settings'], queryFn: () => bridge.call('settings', undefined) });
};

/**
 * Alerts active now, their history, mutes and channels. The `alert` event refetches them; so does a 10 s
 * poll, since what a muted alert records (its firing, reminder, resolution) comes with no event: it is
 * delivered nowhere, the desktop notification included.
 */
export const useAlerts = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['alerts'], queryFn: () => bridge.call('alerts', undefined), refetchInterval: 10_000 });
};

/** Settings → Alerts: thresholds (and which flags fix), desktop notifications, channels. */
export const useAlertSettings = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['alertSettings'], queryFn: () => bridge.call('alertSettings', undefined) });
};

/** Desktop only: the Keepers list (this computer and the servers), kept fresh by keepers-sync.ts. Disabled in a browser. */
export const useKeepers = () => {
  const keepers = useBridge().keepers;
  return useQuery({ queryKey: ['keepers'], queryFn: () => keepers!.list(), enabled: keepers !== undefined });
};

/** Desktop only: every keeper in the list at a glance, asked again every 5 s while shown (and after each change of the list). */
export const useKeepersFleet = () => {
  const keepers = useBridge().keepers;
  return useQuery({ queryKey: ['keepersFleet'], queryFn: () => keepers!.fleet(), enabled: keepers !== undefined, refetchInterval: 5_000 });
};

/** The live event stream's state (set by live-events.ts; never fetched). */
export const useConnection = () =>
  useQuery<ConnectionState>({ queryKey: ['connection'], queryFn: () => 'connecting', staleTime: Infinity, enabled: false, initialData: 'connecting' });

/**
 * A clock for ages and countdowns: re-renders every `everyMs` (a local re-render, not a data poll) and
 * answers the time of the render, so an age is right also when fresh data (not the clock) re-rendered it.
 */
export function useNow(everyMs = 1_000): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return Date.now();
}
