/** Live events folded into the query cache: replaced, merged by address, invalidated (throttled), refetched after a drop. */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperatorBridge } from '@shared/contract/bridge';
import type { OperatorEvent } from '@shared/contract/events';
import type { StatusView } from '@shared/contract/status';
import { connectLiveEvents, keyThrottle } from '../../live-events';
import type { ConnectionState, ConsoleTransport } from '../../transport';
import { indexQueue, type QueueIndex } from '../queue';
import { row } from './fixtures';

function fakeTransport() {
  let emit: (event: OperatorEvent) => void = () => undefined;
  let connection: (state: ConnectionState) => void = () => undefined;
  const transport: ConsoleTransport = {
    kind: 'browser',
    bridge: {
      call: () => Promise.reject(new Error('not in this test')),
      onEvent: (listener) => ((emit = listener), () => undefined),
    } as OperatorBridge,
    onConnection: (listener) => {
      connection = listener;
      listener('connecting');
      return () => undefined;
    },
  };
  return { transport, emit: (event: OperatorEvent) => emit(event), connect: (state: ConnectionState) => connection(state) };
}

const status = (startedAt: number) => ({ phase: 'running', startedAt }) as StatusView;
const invalidated = (client: QueryClient, key: unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;

describe('live events into the query cache', () => {
  let client: QueryClient;
  let stop: () => void;
  let fake: ReturnType<typeof fakeTransport>;
  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient();
    fake = fakeTransport();
    stop = connectLiveEvents(fake.transport, client);
  });
  afterEach(() => {
    stop();
    client.clear();
    vi.useRealTimers();
  });

  it('replaces status and health, and reads everything again when the core restarted', () => {
    client.setQueryData(['queue'], indexQueue([]));
    fake.emit({ type: 'status', status: status(1) });
    fake.emit({ type: 'health', health: { slot: 42 } as never });
    expect(client.getQueryData(['status'])).toEqual(status(1));
    expect(client.getQueryData(['health'])).toEqual({ slot: 42 });
    fake.emit({ type: 'status', status: status(1) });
    expect(invalidated(client, ['queue'])).toBe(false);
    fake.emit({ type: 'status', status: status(2) });
    expect(invalidated(client, ['queue'])).toBe(true);
    expect(invalidated(client, ['status'])).toBe(false);
  });

  it('merges a record batch into the queue by address and into an open wager detail', () => {
    client.setQueryData<QueueIndex>(['queue'], indexQueue([row({ address: 'A' }), row({ address: 'B' })]));
    client.setQueryData(['wager', 'B'], row({ address: 'B' }));
    const updatedAt = new Date().toISOString();
    fake.emit({ type: 'records', records: [row({ address: 'B', state: 'requested', updatedAt }), row({ address: 'C', updatedAt })] });
    const index = client.getQueryData<QueueIndex>(['queue'])!;
    expect([...index.rows.keys()]).toEqual(['A', 'B', 'C']);
    expect(index.version).toBe(1);
    expect(client.getQueryData<{ state: string }>(['wager', 'B'])!.state).toBe('requested');
    expect(client.getQueryData(['wager', 'C'])).toBeUndefined();
  });

  it('keeps a batch that arrived while a queue read was in flight (the read answers what the core had before)', async () => {
    vi.useRealTimers();
    const at = (ms: number) => new Date(Date.parse('2026-11-29T00:00:00Z') + ms).toISOString();
    let answer: (rows: ReturnType<typeof row>[]) => void = () => undefined;
    const read = client.fetchQuery({
      queryKey: ['queue'],
      queryFn: () => new Promise<ReturnType<typeof row>[]>((resolve) => (answer = resolve)).then(indexQueue),
    });
    // Tracked while the read is on its way: a new wager, and a newer state of one the read will answer older.
    fake.emit({ type: 'records', records: [row({ address: 'NEW', updatedAt: at(2_000) }), row({ address: 'A', state: 'requested', updatedAt: at(2_000) })] });
    answer([row({ address: 'A', state: 'queued', updatedAt: at(1_000) }), row({ address: 'B', state: 'settled', updatedAt: at(3_000) })]);
    await read;
    await Promise.resolve();
    const index = client.getQueryData<QueueIndex>(['queue'])!;
    expect([...index.rows.keys()].sort()).toEqual(['A', 'B', 'NEW']);
    expect(index.rows.get('A')!.state).toBe('requested');
    expect(index.rows.get('B')!.state).toBe('settled');
    // Later reads start afresh: nothing of the earlier batch is folded into them.
    await client.fetchQuery({ queryKey: ['queue'], queryFn: () => indexQueue([row({ address: 'B', updatedAt: at(4_000) })]), staleTime: 0 });
    await Promise.resolve();
    expect([...client.getQueryData<QueueIndex>(['queue'])!.rows.keys()]).toEqual(['B']);
  });

  it('invalidates overview and earnings when steps or earnings arrive, at most once a second', () => {
    client.setQueryData(['overview', 0], {});
    client.setQueryData(['earnings', '1 h'], {});
    fake.emit({ type: 'earnings' });
    vi.advanceTimersByTime(0);
    expect(invalidated(client, ['overview', 0])).toBe(true);
    expect(invalidated(client, ['earnings', '1 h'])).toBe(true);
  });

  it('reads the alerts and their channels again when an alert fires, reminds or resolves', () => {
    client.setQueryData(['alerts'], { active: [] });
    client.setQueryData(['alertSettings'], { channels: [] });
    client.setQueryData(['guardian'], {});
    const at = new Date().toISOString();
    fake.emit({ type: 'alert', message: { alert: 'oracle-stalled', state: 'firing', severity: 'critical', summary: 'stalled', keeper: null, cluster: 'localnet', at } });
    expect(invalidated(client, ['alerts'])).toBe(true);
    expect(invalidated(client, ['alertSettings'])).toBe(true);
    expect(invalidated(client, ['guardian'])).toBe(false);
  });

  it('shows the connection state and refetches everything when the stream comes back after a drop', () => {
    client.setQueryData(['health'], { slot: 1 });
    fake.connect('connected');
    expect(client.getQueryData(['connection'])).toBe('connected');
    expect(invalidated(client, ['health'])).toBe(false);
    fake.connect('disconnected');
    expect(client.getQueryData(['connection'])).toBe('disconnected');
    fake.connect('connected');
    expect(invalidated(client, ['health'])).toBe(true);
  });

  it('refetches everything when a shown server connects again after a drop, not at the first connection', () => {
    client.setQueryData(['health'], { slot: 1 });
    fake.connect('connected');
    expect(invalidated(client, ['health'])).toBe(false);
    fake.connect('connecting');
    expect(client.getQueryData(['connection'])).toBe('connecting');
    fake.connect('connected');
    expect(invalidated(client, ['health'])).toBe(true);
  });
});

describe('keyThrottle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first request at once, then gathers the rest into one run per second', () => {
    const runs: string[][] = [];
    const throttle = keyThrottle((keys) => runs.push(keys.sort()), 1_000);
    throttle.request('overview');
    vi.advanceTimersByTime(0);
    expect(runs).toEqual([['overview']]);
    throttle.request('overview');
    throttle.request('earnings');
    throttle.request('overview');
    vi.advanceTimersByTime(500);
    expect(runs).toHaveLength(1);
    vi.advanceTimersByTime(500);
    expect(runs).toEqual([['overview'], ['earnings', 'overview']]);
  });
});
