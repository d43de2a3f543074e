/** The desktop app's Keepers list in the page: the connection follows the shown keeper, and showing another keeper reads everything again. */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperatorBridge } from '@shared/contract/bridge';
import type { KeeperEntryView, KeepersBridge, KeepersView } from '@shared/contract/keepers';
import type { ConnectionState } from '../../transport';

const local: KeeperEntryView = { id: 'local', kind: 'local', label: 'This computer', server: null, state: 'connected', detail: null, hostKey: null, lastSeenMs: 1, retryAtMs: null };
const server = (state: KeeperEntryView['state']): KeeperEntryView => ({
  id: 's1', kind: 'server', label: 'deploy@127.0.0.1:2222', server: { user: 'deploy', host: '127.0.0.1', port: 2222, keyFile: null }, state, detail: null, hostKey: null, lastSeenMs: null, retryAtMs: null,
});
const view = (shown: string, state: KeeperEntryView['state'] = 'connected'): KeepersView => ({ shown, keepers: [local, server(state)] });

/** A Keepers bridge whose list answers `first` and whose changes the test sends. */
function fakeKeepers(first: KeepersView) {
  let change: (next: KeepersView) => void = () => undefined;
  const keepers = { list: () => Promise.resolve(first), onChange: (listener) => ((change = listener), () => undefined) } as KeepersBridge;
  return { keepers, change: (next: KeepersView) => change(next) };
}

// ui-store.ts (which keepers-sync closes the open detail in) reads the page's address and listens to it.
let sync: typeof import('../../keepers-sync');
let transport: typeof import('../../transport');
beforeAll(async () => {
  vi.stubGlobal('window', { location: { hash: '' }, addEventListener: () => undefined, localStorage: undefined });
  sync = await import('../../keepers-sync');
  transport = await import('../../transport');
});
afterAll(() => vi.unstubAllGlobals());

describe('the desktop connection follows the shown keeper', () => {
  it('stays connected with This computer shown, then follows a shown server, its drop and its return', async () => {
    const fake = fakeKeepers(view('local', 'disconnected'));
    const desktop = transport.desktopTransport({ keepers: fake.keepers } as OperatorBridge);
    const seen: ConnectionState[] = [];
    desktop.onConnection((state) => seen.push(state));
    await Promise.resolve();
    fake.change(view('s1', 'connecting'));
    fake.change(view('s1', 'connected'));
    fake.change(view('s1', 'host-key-changed'));
    fake.change(view('s1', 'failed'));
    fake.change(view('local', 'failed'));
    expect(seen).toEqual(['connected', 'connecting', 'connected', 'disconnected', 'connected']);
  });

  it('is connected as today without a Keepers list', () => {
    const seen: ConnectionState[] = [];
    transport.desktopTransport({} as OperatorBridge).onConnection((state) => seen.push(state));
    expect(seen).toEqual(['connected']);
  });
});

describe('showing another keeper', () => {
  it('drops every query about the shown keeper (they are read again) and keeps the connection and the list', () => {
    const client = new QueryClient();
    const fake = fakeKeepers(view('local'));
    sync.connectKeepers(fake.keepers, client);
    client.setQueryData(['connection'], 'connected');
    client.setQueryData(['queue'], { rows: 'of This computer' });
    client.setQueryData(['status'], { phase: 'running' });
    fake.change(view('local', 'connecting'));
    expect(client.getQueryData(['queue'])).toEqual({ rows: 'of This computer' });
    fake.change(view('s1'));
    expect(client.getQueryData(['queue'])).toBeUndefined();
    expect(client.getQueryData(['status'])).toBeUndefined();
    expect(client.getQueryData(['connection'])).toBe('connected');
    expect(client.getQueryData<KeepersView>(['keepers'])?.shown).toBe('s1');
  });

  it('resets once whether the change or the answer of show arrives first', () => {
    const client = new QueryClient();
    sync.applyKeepersView(client, view('local'));
    sync.applyKeepersView(client, view('s1'));
    client.setQueryData(['queue'], { rows: 'of the server' });
    sync.applyKeepersView(client, view('s1'));
    expect(client.getQueryData(['queue'])).toEqual({ rows: 'of the server' });
  });

  it('asks again what failed when the shown server moves to another state that cannot answer, and leaves the rest', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    sync.applyKeepersView(client, view('s1', 'disconnected'));
    let reason = 'the keeper on deploy@127.0.0.1:2222 is not connected (disconnected)';
    // A screen showing the status: an observer of the query (invalidating an observed query reads it again).
    const observer = new QueryObserver(client, { queryKey: ['status'], queryFn: () => Promise.reject(new Error(reason)), retry: false });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(client.getQueryState(['status'])?.status).toBe('error'));
    client.setQueryData(['queue'], { rows: 'kept' });
    reason = 'the keeper on deploy@127.0.0.1:2222 is not connected (host-key-changed)';
    sync.applyKeepersView(client, view('s1', 'host-key-changed'));
    await vi.waitFor(() => expect((client.getQueryState(['status'])?.error as Error | null)?.message).toMatch(/host-key-changed/));
    expect(client.getQueryState(['queue'])?.isInvalidated).toBe(false);
    unsubscribe();
  });
});
