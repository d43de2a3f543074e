/**
 * Folds the core's live events into the TanStack Query cache: status and health replace their queries,
 * record batches merge into the queue by address (a shallow copy of the index, so React sees a new value,
 * plus the batch's rows: about a millisecond for 10 000 wagers), steps, earnings and latency invalidate
 * what they change (at most once a second). Nothing polls. bench/console-queue-frames.ts measures it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { FINISHED_ROW_TTL_MS, type OperatorEvent, type QueueRow, type StatusView } from '../../src-main/operator/operator-interface';
import type { ConsoleTransport } from './transport';

/** The queue as the cache keeps it: one Map by address. */
export type QueueIndex = Map<string, QueueRow>;

/** A finished row leaves the list once it is older than the TTL; active ones stay. */
const isStale = (row: QueueRow, nowMs: number) =>
  (row.state === 'settled' || row.state === 'expired' || row.state === 'unknown') && !row.payoutPending && nowMs - Date.parse(row.updatedAt) > FINISHED_ROW_TTL_MS;

export function mergeRecords(current: QueueIndex | undefined, records: readonly QueueRow[], nowMs: number): QueueIndex {
  const next = new Map(current);
  for (const row of records) {
    if (isStale(row, nowMs)) next.delete(row.address);
    else next.set(row.address, row);
  }
  return next;
}

export function connectLiveEvents(transport: ConsoleTransport, client: QueryClient): () => void {
  const pendingInvalidations = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const invalidateSoon = (...keys: string[]) => {
    for (const key of keys) pendingInvalidations.add(key);
    timer ??= setTimeout(() => {
      timer = undefined;
      for (const key of pendingInvalidations) void client.invalidateQueries({ queryKey: [key] });
      pendingInvalidations.clear();
    }, 1_000);
  };

  const onEvent = (event: OperatorEvent) => {
    switch (event.type) {
      case 'status': {
        const previous = client.getQueryData<StatusView>(['status']);
        client.setQueryData(['status'], event.status);
        // A new core (cluster switch, keeper restart): everything else is about another keeper now.
        if (previous && previous.startedAt !== event.status.startedAt)
          void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
        break;
      }
      case 'health':
        client.setQueryData(['health'], event.health);
        break;
      case 'records': {
        client.setQueryData<QueueIndex>(['queue'], (current) => (current ? mergeRecords(current, event.records, Date.now()) : current));
        for (const row of event.records) if (client.getQueryData(['wager', row.address]) !== undefined) client.setQueryData(['wager', row.address], row);
        invalidateSoon('overview');
        break;
      }
      case 'steps':
        invalidateSoon('overview', 'steps');
        break;
      case 'earnings':
        invalidateSoon('overview', 'earnings');
        break;
      case 'latency':
        invalidateSoon('oracleLatency');
        break;
    }
  };
  const unsubscribeEvents = transport.bridge.onEvent(onEvent);
  let wasDisconnected = false;
  const unsubscribeConnection = transport.onConnection((state) => {
    client.setQueryData(['connection'], state);
    if (state === 'disconnected') wasDisconnected = true;
    // Back after a drop: what happened meanwhile was missed; read everything again.
    if (state === 'connected' && wasDisconnected) {
      wasDisconnected = false;
      void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'connection' });
    }
  });
  return () => {
    unsubscribeEvents();
    unsubscribeConnection();
    clearTimeout(timer);
  };
}
