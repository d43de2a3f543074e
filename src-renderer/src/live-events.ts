/**
 * Folds the core's live events into the TanStack Query cache: status and health replace their queries,
 * record batches merge into the queue by address (O(changes) per batch, see model/queue.ts) and into an
 * open wager detail, steps, earnings and latency invalidate what they change (at most once a second).
 * Nothing polls. When the event stream comes back after a drop, or the core restarted, everything is read again.
 * A queue read answers what the core had when it was asked: batches that arrive while it is in flight are
 * folded in again once it lands, so a wager tracked meanwhile does not vanish until its next change.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { OperatorEvent } from '@shared/contract/events';
import type { QueueRow } from '@shared/contract/activity';
import type { StatusView } from '@shared/contract/status';
import { mergeNewer, mergeRecords, pruneFinished, type QueueIndex } from './model/queue';
import type { ConnectionState, ConsoleTransport } from './transport';

const THROTTLE_MS = 1_000;
const PRUNE_EVERY_MS = 15_000;

/** Calls `run(keys)` at most once per THROTTLE_MS with every key asked for meanwhile (the first at once). */
export function keyThrottle(run: (keys: string[]) => void, everyMs = THROTTLE_MS) {
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastRun = -Infinity;
  const flush = () => {
    timer = undefined;
    lastRun = Date.now();
    const keys = [...pending];
    pending.clear();
    if (keys.length) run(keys);
  };
  return {
    request(...keys: string[]) {
      for (const key of keys) pending.add(key);
      if (timer !== undefined) return;
      timer = setTimeout(flush, Math.max(0, lastRun + everyMs - Date.now()));
    },
    cancel: () => clearTimeout(timer),
  };
}

export function connectLiveEvents(transport: ConsoleTransport, client: QueryClient): () => void {
  const invalidate = keyThrottle((keys) => {
    for (const key of keys) void client.invalidateQueries({ queryKey: [key] });
  });
  const everything = () => client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'connection' });

  const mergeIntoOpenDetails = (records: readonly QueueRow[]) => {
    // Only wager details someone opened are cached: O(open details + batch).
    const open = client.getQueryCache().findAll({ queryKey: ['wager'] });
    if (open.length === 0) return;
    const byAddress = new Map(records.map((row) => [row.address, row]));
    for (const query of open) {
      const row = byAddress.get(query.queryKey[1] as string);
      if (row) client.setQueryData(['wager', row.address], row);
    }
  };

  const invalidateChangedInspections = (records: readonly QueueRow[]) => {
    const open = client.getQueryCache().findAll({ queryKey: ['inspect'] });
    if (open.length === 0) return;
    const changed = new Set(records.map((row) => row.address));
    for (const query of open) if (changed.has(query.queryKey[1] as string)) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  };

  // The batches that arrived while a queue read was in flight (null: none in flight).
  let duringQueueRead: QueueRow[] | null = null;
  const unsubscribeCache = client.getQueryCache().subscribe((change) => {
    if (change.type !== 'updated' || change.query.queryKey[0] !== 'queue') return;
    const { action } = change;
    if (action.type === 'fetch') duringQueueRead = [];
    else if (action.type === 'error') duringQueueRead = null;
    else if (action.type === 'success' && !action.manual && duringQueueRead) {
      const arrived = duringQueueRead;
      duringQueueRead = null;
      // After the cache's own notification: a write from inside it would interleave with its listeners.
      if (arrived.length) queueMicrotask(() => client.setQueryData<QueueIndex>(['queue'], (current) => (current ? mergeNewer(current, arrived, Date.now()) : current)));
    }
  });

  const onEvent = (event: OperatorEvent) => {
    switch (event.type) {
      case 'status': {
        const previous = client.getQueryData<StatusView>(['status']);
        client.setQueryData(['status'], event.status);
        // A new core (cluster switch, keeper restart): everything else is about another keeper now.
        if (previous && previous.startedAt !== event.status.startedAt) void client.invalidateQueries({ predicate: (query) => !['status', 'connection'].includes(query.queryKey[0] as string) });
        break;
      }
      case 'health':
        client.setQueryData(['health'], event.health);
        break;
      case 'records':
        // Before the first answer of the queue query there is nothing to merge into: that answer is newer.
        client.setQueryData<QueueIndex>(['queue'], (current) => (current ? mergeRecords(current, event.records, Date.now()) : current));
        duringQueueRead?.push(...event.records);
        mergeIntoOpenDetails(event.records);
        // An inspected wager that changed is read again (its report comes from the chain): O(open inspections + batch).
        invalidateChangedInspections(event.records);
        invalidate.request('overview');
        break;
      case 'steps':
        invalidate.request('overview', 'earnings', 'recentSteps');
        break;
      case 'earnings':
        invalidate.request('overview', 'earnings');
        break;
      case 'latency':
        invalidate.request('oracleLatency');
        break;
      case 'alert':
        // A firing, reminder or resolution: the list and each channel's last send changed.
        void client.invalidateQueries({ queryKey: ['alerts'] });
        void client.invalidateQueries({ queryKey: ['alertSettings'] });
        break;
      case 'guardian':
        // Rare (a pause, a resume, a key or setting change): read at once.
        void client.invalidateQueries({ queryKey: ['guardian'] });
        break;
    }
  };
  const unsubscribeEvents = transport.bridge.onEvent(onEvent);

  let wasDisconnected = false;
  let wasConnected = false;
  const unsubscribeConnection = transport.onConnection((state: ConnectionState) => {
    client.setQueryData(['connection'], state);
    // Connecting again after being connected is a drop too (the desktop app showing a server whose tunnel reconnects).
    if (state === 'disconnected' || (state === 'connecting' && wasConnected)) wasDisconnected = true;
    // Back after a drop: what happened meanwhile was missed; read everything again.
    if (state === 'connected' && wasDisconnected) {
      wasDisconnected = false;
      void everything();
    }
    if (state === 'connected') wasConnected = true;
  });

  // Finished wagers leave the list FINISHED_ROW_TTL_MS after they finished, also when no batch touches them.
  const prune = setInterval(() => {
    client.setQueryData<QueueIndex>(['queue'], (current) => (current ? pruneFinished(current, Date.now()) : current));
  }, PRUNE_EVERY_MS);

  return () => {
    unsubscribeEvents();
    unsubscribeConnection();
    unsubscribeCache();
    invalidate.cancel();
    clearInterval(prune);
  };
}
