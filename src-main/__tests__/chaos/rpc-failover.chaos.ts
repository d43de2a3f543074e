/**
 * Chaos (issue 27): a keeper (`wager-keeper keeper`, the real CLI) with two RPC providers.
 *
 * The two providers are two loopback proxies in front of the one localnet: a faithful stand-in for two
 * providers of the same cluster (same genesis, same chain, each its own host:port for JSON-RPC and for
 * WebSocket, reachable or not on its own). A provider's outage is its ports refusing connections, as a
 * provider down for minutes looks from a keeper.
 *
 * (b) first (~25 s): the preferred endpoint lags 40 slots. The lagging proxy answers getSlot and every
 *     context slot 40 lower: that is how a lagging node's slot looks to the keeper, and all the keeper goes
 *     by. No read (anything but the probe's getSlot and getGenesisHash) may be served from it.
 * (a) then (~170 s): the preferred provider refuses connections for 120 s in the middle of 150 wagers
 *     (opened one a second), then comes back: every wager settles, none expires, and the keeper goes back
 *     to it (its log says so, and reads reach it again).
 * CHAOS_FAILOVER_WAGERS / CHAOS_FAILOVER_OUTAGE_MS for other runs by hand.
 */
import { type Address } from '@solana/kit';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import {
  createConnection,
  createServer as createTcpServer,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keeperTestbed, waitFor } from '../../keeper/__tests__/keeper-test-helpers';
import { endings, keeperKeyFile, openAtPace, waitAllClosed } from './chaos-harness';

const WAGERS = Number(process.env.CHAOS_FAILOVER_WAGERS ?? 150);
const OUTAGE_MS = Number(process.env.CHAOS_FAILOVER_OUTAGE_MS ?? 120_000);
/**
 * Methods the pool's probe and genesis check use: the only ones a lagging endpoint may see. Plus the
 * wager-keeper localnet's identity (localnet_manifest), asked of the first --rpc once at start to name the
 * cluster, before any endpoint is used for reads: it has no slot, so a lagging node answers it as well.
 */
const PROBE_METHODS = new Set(['getSlot', 'getGenesisHash', 'localnet_manifest']);
/** A URL as the keeper's logs show it: an endpoint label with nothing secret in it is written as given (issue 33's scrubber). */
const asLogged = (url: string) => url;
const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));

const bed = keeperTestbed({ prefix: 'chaos-failover-', pumpMs: 400 });
let key: { file: string; address: Address };
const keepers: ChildProcessWithoutNullStreams[] = [];
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  key = await keeperKeyFile(bed);
});
afterEach(() => {
  for (const child of keepers.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
});

/** A port that can stop listening (connections refused, open ones cut) and listen again on the same port. */
interface Outageable {
  url: string;
  refuse(): Promise<void>;
  answerAgain(): Promise<void>;
}

/** An HTTP JSON-RPC proxy to `target` that notes each method it serves and may rewrite answers. */
async function startRpcProvider(
  target: string,
  rewrite?: (method: string, body: { result?: unknown }) => void,
): Promise<Outageable & { methods: { method: string; at: number }[] }> {
  const methods: { method: string; at: number }[] = [];
  let server: HttpServer;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createHttpServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: { method?: string } | { method?: string }[];
          try {
            parsed = JSON.parse(text) as typeof parsed;
          } catch {
            parsed = { method: '(not JSON)' };
          }
          for (const call of Array.isArray(parsed) ? parsed : [parsed])
            methods.push({ method: call.method ?? '?', at: Date.now() });
          void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
            .then(async (answer) => {
              let out = await answer.text();
              if (rewrite && !Array.isArray(parsed)) {
                const body = JSON.parse(out) as { result?: unknown };
                rewrite(parsed.method ?? '', body);
                out = JSON.stringify(body);
              }
              response.writeHead(answer.status, { 'content-type': 'application/json' }).end(out);
            })
            .catch(() => response.destroy());
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const close = () =>
    new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  closers.push(close);
  return { url: `http://127.0.0.1:${port}`, methods, refuse: close, answerAgain: listen };
}

/** A TCP proxy (the provider's WebSocket port) to `target` (ws://host:port). */
async function startTcpProvider(target: string): Promise<Outageable> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: TcpServer;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createTcpServer((client) => {
        const upstream = createConnection({ host: hostname, port: Number(targetPort) });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket
            .on('close', () => sockets.delete(socket))
            .on('error', () => (client.destroy(), upstream.destroy()));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  closers.push(close);
  return { url: `ws://127.0.0.1:${port}`, refuse: close, answerAgain: listen };
}

/** `wager-keeper keeper` with these endpoint flags; its log lines at warn and above, parsed. */
function startKeeper(endpointArgs: string[], db: string) {
  const child = spawn(
    process.execPath,
    [bin, 'keeper', ...endpointArgs, '--keypair', key.file, '--db', db, '--port', '0', '--no-console'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, WAGER_KEEPER_LOG: 'warn' },
    },
  );
  keepers.push(child);
  const logs: { msg?: string; from?: string; to?: string; why?: string; time?: number }[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
    for (const line of chunk.toString().split('\n'))
      if (line.startsWith('{'))
        try {
          logs.push(JSON.parse(line) as (typeof logs)[number]);
        } catch {
          // a line cut between chunks: not a switch line we need
        }
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) =>
      reject(new Error(`the keeper exited (${code}) before its ready line: ${stderr.slice(-2_000)}`)),
    );
  });
  return { child, ready, logs, stderr: () => stderr };
}

const switchesIn = (logs: { msg?: string; from?: string; to?: string; why?: string }[]) =>
  logs
    .filter((line) => line.msg?.startsWith('RPC reads moved'))
    .map(({ from, to, why }) => ({ from, to, why }));

describe('a keeper with two RPC providers', () => {
  it('(b) serves no read from an endpoint 40 slots behind, even the preferred one, and settles its wagers through the other', async () => {
    // It models a lagging node's slot: getSlot and every answer's context slot 40 lower.
    const lagging = await startRpcProvider(bed.localnet.rpcUrl, (method, body) => {
      if (method === 'getSlot' && typeof body.result === 'number') body.result -= 40;
      const context = (body.result as { context?: { slot?: number } } | null)?.context;
      if (context && typeof context.slot === 'number') context.slot -= 40;
    });
    const healthy = await startRpcProvider(bed.localnet.rpcUrl);
    const keeper = startKeeper(
      ['--rpc', lagging.url, '--rpc', healthy.url, '--ws', bed.localnet.wsUrl],
      bed.dir.path('lag.db'),
    );
    await keeper.ready;
    const wagers = await openAtPace(bed, 20, 1); // 20 s of a keeper at work beside a lagging node
    const closed = await waitAllClosed(bed, wagers, 90_000);
    const servedByLagging = lagging.methods.filter((m) => !PROBE_METHODS.has(m.method)).map((m) => m.method);
    const report = {
      closed,
      servedByLagging,
      laggingProbes: lagging.methods.length,
      healthyCalls: healthy.methods.length,
      stderr: keeper.stderr().slice(-3_000),
    };
    expect(closed, JSON.stringify(report, null, 1)).toBe(true);
    expect(servedByLagging, JSON.stringify(report, null, 1)).toEqual([]);
    // Probed, and left for the other in the keeper's log. Which check ends first is a race: the other
    // endpoint may answer its genesis check before this one, so reads leave it as "not checked yet" and,
    // once it is checked, it is set aside for its lag without a second switch. Either way no read went to
    // it (above); lag detection itself is endpoint-pool.test.ts's.
    expect(lagging.methods.filter((m) => m.method === 'getSlot').length).toBeGreaterThan(0);
    expect(switchesIn(keeper.logs)[0], JSON.stringify(report, null, 1)).toMatchObject({
      from: asLogged(lagging.url),
      to: asLogged(healthy.url),
      why: expect.stringMatching(/^(\d+ slots behind|not checked yet)$/),
    });
    expect(
      endings(bed, wagers).filter(
        (e) => e.names.join() !== 'WagerOpened,WagerRandomnessRequested,WagerSettled',
      ),
    ).toEqual([]);
  }, 150_000);

  it(`(a) settles every one of ${WAGERS} wagers while the preferred provider refuses connections for ${OUTAGE_MS / 1000} s, and goes back to it`, async () => {
    const preferredRpc = await startRpcProvider(bed.localnet.rpcUrl);
    const preferredWs = await startTcpProvider(bed.localnet.wsUrl);
    const fallbackRpc = await startRpcProvider(bed.localnet.rpcUrl);
    const fallbackWs = await startTcpProvider(bed.localnet.wsUrl);
    const keeper = startKeeper(
      ['--rpc', preferredRpc.url, '--rpc', fallbackRpc.url, '--ws', preferredWs.url, '--ws', fallbackWs.url],
      bed.dir.path('outage.db'),
    );
    await keeper.ready;

    const opened: Address[] = [];
    const opening = openAtPace(bed, WAGERS, 1, opened);
    // The outage starts once a few wagers are in flight.
    await waitFor(() => (opened.length >= 10 ? true : undefined), 60_000, 'ten wagers opened', 200);
    await Promise.all([preferredRpc.refuse(), preferredWs.refuse()]);
    const outage = { from: Date.now(), to: 0, openedBefore: opened.length };
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS)); // the outage's length is the scenario, not a wait for a state
    await Promise.all([preferredRpc.answerAgain(), preferredWs.answerAgain()]);
    outage.to = Date.now();
    const wagers = await opening;
    const closed = await waitAllClosed(bed, wagers, 90_000);
    // Back on the preferred one: the keeper says so, and its reads reach it again.
    const back = await waitFor(
      () => (switchesIn(keeper.logs).some((s) => s.to === asLogged(preferredRpc.url)) ? true : undefined),
      30_000,
      'the keeper back on the preferred endpoint',
      200,
    ).catch((error: Error) => error);
    const readsAfter = () =>
      preferredRpc.methods.filter((m) => m.at > outage.to && !PROBE_METHODS.has(m.method)).length;
    await waitFor(
      () => (readsAfter() > 0 ? true : undefined),
      30_000,
      'a read on the preferred endpoint after the outage',
      200,
    ).catch(() => undefined);

    const ends = endings(bed, wagers);
    const report = {
      closed,
      back,
      switches: switchesIn(keeper.logs),
      outageMs: outage.to - outage.from,
      openedBeforeOutage: outage.openedBefore,
      readsOnPreferredAfter: readsAfter(),
      fallbackReads: fallbackRpc.methods.filter((m) => !PROBE_METHODS.has(m.method)).length,
      notSettled: ends.filter((e) => e.names.join() !== 'WagerOpened,WagerRandomnessRequested,WagerSettled'),
      stderr: keeper.stderr().slice(-3_000),
    };
    console.log(JSON.stringify({ ...report, stderr: undefined, notSettled: report.notSettled.length }));
    expect(closed, JSON.stringify(report, null, 1)).toBe(true);
    expect(report.notSettled, JSON.stringify(report, null, 1)).toEqual([]);
    expect(ends.filter((e) => e.names.includes('WagerExpired'))).toEqual([]);
    expect(back, JSON.stringify(report, null, 1)).toBe(true);
    expect(report.switches[0], JSON.stringify(report.switches)).toMatchObject({
      from: asLogged(preferredRpc.url),
      to: asLogged(fallbackRpc.url),
    });
    expect(report.readsOnPreferredAfter).toBeGreaterThan(0);
    expect(report.fallbackReads).toBeGreaterThan(0);
  }, 300_000);
});
