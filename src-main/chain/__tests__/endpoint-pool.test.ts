/**
 * Failover between read endpoints (issue 27), against real JSON-RPC servers on loopback that can refuse
 * connections, stop answering, lag or belong to another cluster: reads go to the preferred endpoint,
 * move at once when it fails, never go to a lagging one or one of another cluster, and come back to the
 * preferred once it has been healthy a while. And the pairing rules of --rpc/--ws/--send-rpc.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectToChain, type ChainConnection } from '../rpc-connection';
import { endpointsFromFlags } from '../rpc-endpoints';

/** A node's JSON-RPC: its slot (ticking every 100 ms), its genesis, and what goes wrong with it. */
interface FakeNode {
  url: string;
  mode: 'ok' | 'hang';
  lagSlots: number;
  genesis: string;
  /** Methods answered, in order (the probes included). */
  calls: string[];
  refuse(): Promise<void>;
  answerAgain(): Promise<void>;
  close(): Promise<void>;
}

const started = Date.now();
const clusterSlot = () => 1_000 + Math.floor((Date.now() - started) / 100);

async function startNode(genesis = 'GENESIS-A'): Promise<FakeNode> {
  let server: Server;
  let port = 0;
  const node: FakeNode = {
    url: '',
    mode: 'ok',
    lagSlots: 0,
    genesis,
    calls: [],
    // Nothing listens on the port: connections are refused, as a provider's outage looks from here.
    refuse: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    answerAgain: () => listen(),
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const { id, method } = JSON.parse(body) as { id: unknown; method: string };
          node.calls.push(method);
          if (node.mode === 'hang') return; // no answer until the client gives up
          const slot = clusterSlot() - node.lagSlots;
          const result =
            method === 'getGenesisHash'
              ? node.genesis
              : method === 'getSlot'
                ? slot
                : { context: { slot }, value: 42 };
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        node.url = `http://127.0.0.1:${port}`;
        resolve();
      });
    });
  await listen();
  return node;
}

const FAST = { probeIntervalMs: 200, probeTimeoutMs: 400, steadyMs: 600, retryMinMs: 200, retryMaxMs: 400 };
const open: { nodes: FakeNode[]; connections: ChainConnection[] } = { nodes: [], connections: [] };
afterEach(async () => {
  for (const connection of open.connections.splice(0)) connection.close();
  await Promise.all(open.nodes.splice(0).map((node) => node.close().catch(() => undefined)));
});

async function setUp(...genesis: string[]) {
  const nodes = await Promise.all(genesis.map((g) => startNode(g)));
  open.nodes.push(...nodes);
  const otherCluster: string[] = [];
  const connection = connectToChain(
    endpointsFromFlags(
      nodes.map((n) => n.url),
      [],
      [],
    ),
    { ...FAST, onOtherCluster: (label) => otherCluster.push(label) },
  );
  open.connections.push(connection);
  const switches: string[] = [];
  connection.onEndpointSwitch((from, to, why) => switches.push(`${from} -> ${to}: ${why}`));
  const balance = async () =>
    (await connection.rpc.getBalance('11111111111111111111111111111111' as never).send()).value;
  const readsOn = (node: FakeNode) => node.calls.filter((m) => m === 'getBalance').length;
  return { nodes, connection, switches, balance, readsOn, otherCluster };
}

const until = async (what: string, check: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('an endpoint pool with failover', () => {
  it('reads from the preferred endpoint; when it refuses connections the same call is answered by the next one within 2 s; reads go back once it has been healthy a while', async () => {
    const { nodes, connection, switches, balance, readsOn } = await setUp('GENESIS-A', 'GENESIS-A');
    const [preferred, fallback] = nodes as [FakeNode, FakeNode];
    expect(await balance()).toBe(42n);
    expect(readsOn(preferred)).toBe(1);
    expect(readsOn(fallback)).toBe(0);

    await preferred.refuse();
    const before = Date.now();
    expect(await balance()).toBe(42n);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(readsOn(fallback)).toBe(1);
    const status = connection.endpoints();
    // "cut" when the call went out on a kept-alive socket the outage closed, "refused" on a new one.
    expect(status[0]).toMatchObject({
      preferred: true,
      inUse: false,
      state: 'set-aside',
      reason: expect.stringMatching(/^connection (refused|cut)$/),
    });
    expect(status[1]).toMatchObject({ preferred: false, inUse: true, state: 'healthy' });
    expect(connection.failedOverSince()).not.toBeNull();
    expect(switches).toEqual([`${preferred.url} -> ${fallback.url}: ${status[0]!.reason}`]);

    await preferred.answerAgain();
    await until('reads back on the preferred endpoint', () => connection.endpoints()[0]!.inUse);
    expect(connection.failedOverSince()).toBeNull();
    const onPreferred = readsOn(preferred);
    await balance();
    expect(readsOn(preferred)).toBe(onPreferred + 1);
    expect(switches[1]).toBe(`${fallback.url} -> ${preferred.url}: the preferred endpoint is healthy again`);
  });

  it('an endpoint that stops answering is left within 2 s', async () => {
    const { nodes, balance, readsOn, connection } = await setUp('GENESIS-A', 'GENESIS-A');
    const [preferred, fallback] = nodes as [FakeNode, FakeNode];
    await balance();
    preferred.mode = 'hang';
    const before = Date.now();
    expect(await balance()).toBe(42n);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(readsOn(fallback)).toBe(1);
    expect(connection.endpoints()[0]).toMatchObject({ state: 'set-aside', reason: 'no answer in time' });
  });

  it('serves no read from an endpoint 40 slots behind, even when it is the preferred one', async () => {
    const nodes = await Promise.all([startNode(), startNode()]);
    nodes[0]!.lagSlots = 40;
    open.nodes.push(...nodes);
    const connection = connectToChain(
      endpointsFromFlags(
        nodes.map((n) => n.url),
        [],
        [],
      ),
      FAST,
    );
    open.connections.push(connection);
    for (let i = 0; i < 5; i++)
      await connection.rpc.getBalance('11111111111111111111111111111111' as never).send();
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // probes keep running: it must stay set aside
    await connection.rpc.getBalance('11111111111111111111111111111111' as never).send();
    expect(nodes[0]!.calls.filter((m) => m !== 'getSlot' && m !== 'getGenesisHash')).toEqual([]);
    expect(nodes[1]!.calls.filter((m) => m === 'getBalance')).toHaveLength(6);
    const lagging = connection.endpoints()[0]!;
    expect(lagging).toMatchObject({ state: 'set-aside', inUse: false });
    expect(lagging.reason).toMatch(/^(39|40|41) slots behind$/);
    expect(lagging.slotsBehind).toBeGreaterThanOrEqual(39);
  });

  it('never uses an endpoint of another cluster, and names it once', async () => {
    const { nodes, balance, readsOn, connection, otherCluster } = await setUp('GENESIS-A', 'GENESIS-B');
    await balance();
    nodes[0]!.mode = 'hang'; // even with the preferred one down
    await expect(balance()).rejects.toThrow();
    expect(readsOn(nodes[1]!)).toBe(0);
    expect(connection.endpoints()[1]).toMatchObject({ state: 'other-cluster', inUse: false });
    expect(connection.endpoints()[1]!.reason).toContain('GENESIS-B');
    expect(otherCluster).toEqual([nodes[1]!.url]);
  });
});

describe('endpointsFromFlags', () => {
  it('derives, shares or pairs WebSocket URLs, and refuses other counts with one sentence', () => {
    expect(endpointsFromFlags(['http://a:8899', 'https://b.example/key'], [], []).reads).toEqual([
      { rpcUrl: 'http://a:8899', wsUrl: 'ws://a:8900' },
      { rpcUrl: 'https://b.example/key', wsUrl: 'wss://b.example/key' },
    ]);
    expect(endpointsFromFlags(['http://a', 'http://b'], ['ws://w'], []).reads.map((r) => r.wsUrl)).toEqual([
      'ws://w',
      'ws://w',
    ]);
    expect(
      endpointsFromFlags(['http://a', 'http://b'], ['ws://1', 'ws://2'], ['http://s', 'http://s']).reads.map(
        (r) => r.wsUrl,
      ),
    ).toEqual(['ws://1', 'ws://2']);
    expect(endpointsFromFlags(['http://a'], [], ['http://s', 'http://s']).sends).toEqual(['http://s']);
    expect(() => endpointsFromFlags(['http://a', 'http://b', 'http://c'], ['ws://1', 'ws://2'], [])).toThrow(
      '--ws was given 2 times for 3 --rpc URLs: give it once (for every endpoint) or once per --rpc, in the same order',
    );
    expect(() => endpointsFromFlags([], [], [])).toThrow(/at least one --rpc/);
    expect(() => endpointsFromFlags(['ftp://a'], [], [])).toThrow(
      '--rpc ftp://*** must be an http(s):// URL',
    );
  });
});
