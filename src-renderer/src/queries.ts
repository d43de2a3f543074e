/** The server data of the screens, as TanStack queries over the operator bridge (live events keep them fresh). */
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState } from 'react';
import type { OperatorBridge } from '../../src-main/operator/operator-interface';
import type { QueueIndex } from './live-events';
import { startOfLocalDay } from './model/format';
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

export const useOverview = () => {
  const bridge = useBridge();
  const dayStartMs = startOfLocalDay(Date.now());
  return useQuery({ queryKey: ['overview', dayStartMs], queryFn: () => bridge.call('overview', { dayStartMs }) });
};

export const useQueue = () => {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['queue'],
    queryFn: async (): Promise<QueueIndex> => new Map((await bridge.call('queue', undefined)).map((row) => [row.address, row])),
  });
};

export const useWager = (address: string | null) => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['wager', address], queryFn: () => bridge.call('wager', { address: address! }), enabled: address !== null });
};

export interface EarningsRange {
  label: string;
  spanMs: number;
  bucketMs: number;
}
export const EARNINGS_RANGES: EarningsRange[] = [
  { label: '1 h', spanMs: 3_600_000, bucketMs: 60_000 },
  { label: '24 h', spanMs: 86_400_000, bucketMs: 900_000 },
  { label: '7 d', spanMs: 7 * 86_400_000, bucketMs: 7_200_000 },
];

export const useEarnings = (range: EarningsRange) => {
  const bridge = useBridge();
  return useQuery({
    queryKey: ['earnings', range.label],
    queryFn: () => bridge.call('earningsSeries', { sinceMs: Date.now() - range.spanMs, bucketMs: range.bucketMs }),
  });
};

export const useSettings = () => {
  const bridge = useBridge();
  return useQuery({ queryKey: ['settings'], queryFn: () => bridge.call('settings', undefined) });
};

export const useConnection = () =>
  useQuery<ConnectionState>({ queryKey: ['connection'], queryFn: () => 'connecting', staleTime: Infinity, enabled: false, initialData: 'connecting' });

/** A clock for ages and countdowns (a local re-render, not a data poll). */
export function useNow(everyMs = 1_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
