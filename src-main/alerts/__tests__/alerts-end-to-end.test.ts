/**
 * Issue 26 end to end: the built `wager-keeper serve` with every webhook format at once, the readiness
 * endpoint and the heartbeat, against one loopback receiver that plays every service (a JSON webhook,
 * Slack, Discord, Telegram's sendMessage, PagerDuty's Events API v2, and a heartbeat monitor) and records
 * each request. The oracle stalled with `wager-keeper oracle stall`, the keeper balance drained below the
 * critical level by a real transfer, and (on a second, short `serve --rpc` through a TCP proxy) the RPC taken
 * away: each fires once per channel after the debounce, is not repeated while it holds, resolves once; /v1/ready
 * answers 503 naming it meanwhile and 200 after; the heartbeat stops meanwhile and resumes after.
 * Needs the build (`npx electron-vite build`): bin/wager-keeper.js runs out/main/cli.js.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { address, createSolanaRpc, generateKeyPairSigner, lamports, type Address } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendInstructions } from '../../deploy/__tests__/deploy-test-helpers';
import { closedPort, startTcpProxy, type TcpProxy } from '../../keeper/__tests__/network-faults';
import { fetchLocalnetManifest } from '../../localnet/localnet-admin-client';
import { generateKeypairWithBytes, keypairFromBytes } from '../../secrets/keypair-bytes';
import type { AlertMessage } from '../../../src-shared/alert-types';
import { withConsoleToken } from '../../service/__tests__/ready-console-url';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');
const run = promisify(execFile);
const SOL = 1_000_000_000n;

// ---- the receiver: every service on one loopback port, told apart by path

interface Received {
  path: string;
  search: string;
  method: string;
  body: unknown;
  at: number;
}
const received: Received[] = [];
let receiver: Server;
let base: string;

async function startReceiver() {
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url!, 'http://receiver');
      received.push({
        path: url.pathname,
        search: url.search,
        method: request.method!,
        body: text ? (JSON.parse(text) as unknown) : null,
        at: Date.now(),
      });
      response.setHeader('content-type', 'application/json');
      // What each service answers to a message it took.
      if (url.pathname.startsWith('/pagerduty'))
        response.writeHead(202).end('{"status":"success","message":"Event processed"}');
      else if (url.pathname.startsWith('/telegram')) response.end('{"ok":true,"result":{}}');
      else response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
}

const TELEGRAM_PATH = '/telegram/bot123456:ABC-token/sendMessage';
const CHANNELS = ['json', 'slack', 'discord', 'telegram', 'pagerduty'] as const;
type ChannelName = (typeof CHANNELS)[number];
const channelPath: Record<ChannelName, string> = {
  json: '/json',
  slack: '/slack',
  discord: '/discord',
  telegram: TELEGRAM_PATH,
  pagerduty: '/pagerduty',
};
const webhookFlags = () => [
  '--alert-webhook',
  `json=${base}/json`,
  '--alert-webhook',
  `slack=${base}/slack`,
  '--alert-webhook',
  `discord=${base}/discord`,
  '--alert-webhook',
  `telegram=${base}${TELEGRAM_PATH}?chat_id=42`,
  '--alert-webhook',
  `pagerduty=${base}/pagerduty?routing_key=ROUTING-KEY`,
];

/** A chat message's headline as message-text.ts writes it: "CRITICAL oracle-stalled: …", "RESOLVED …". */
const HEADLINE = /^(?:\*\*)?(WARNING|CRITICAL|RESOLVED) ([a-z-]+)( \(still firing\))?(?:\*\*)?:/;
const fromHeadline = (text: string) => {
  const [, level, alert, reminder] = HEADLINE.exec(text) ?? [];
  if (!level) return `unreadable: ${text}`;
  return level === 'RESOLVED'
    ? `${alert} resolved`
    : `${alert} firing ${level.toLowerCase()}${reminder ? ' reminder' : ''}`;
};

/** What each channel said, one line per message: "oracle-stalled firing warning", "... resolved". */
function said(channel: ChannelName, prefix = ''): string[] {
  return received
    .filter((request) => request.path === `${prefix}${channelPath[channel]}`)
    .map(({ body }) => {
      const b = body as Record<string, unknown>;
      switch (channel) {
        case 'json': {
          const m = b as unknown as AlertMessage;
          return m.state === 'resolved'
            ? `${m.alert} resolved`
            : `${m.alert} firing ${m.severity}${m.reminder ? ' reminder' : ''}`;
        }
        case 'slack':
        case 'telegram':
          return fromHeadline(String(b.text));
        case 'discord':
          return fromHeadline(String(b.content));
        case 'pagerduty': {
          const alert = String(b.dedup_key).split(':').at(-1);
          const payload = b.payload as
            { severity: string; custom_details: { reminder: boolean } } | undefined;
          return b.event_action === 'resolve'
            ? `${alert} resolved`
            : `${alert} firing ${payload?.severity}${payload?.custom_details.reminder ? ' reminder' : ''}`;
        }
      }
    });
}
const saidAbout = (channel: ChannelName, alert: string, prefix = '') =>
  said(channel, prefix).filter((line) => line.startsWith(`${alert} `));
const everyChannelAbout = (alert: string) =>
  Object.fromEntries(CHANNELS.map((channel) => [channel, saidAbout(channel, alert)]));
const beatsAfter = (path: string, since: number) =>
  received.filter((request) => request.path === path && request.at > since).length;

// ---- waiting for states (polled; each names what it waits for)

async function waitFor<T>(
  what: string,
  read: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 40_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${ms} ms waiting for ${what}; the receiver got: ${JSON.stringify(received.filter((r) => !r.path.endsWith('/beat')).map((r) => [r.path, r.body]))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const readyOf = async (api: string) => {
  const response = await fetch(`${api}/v1/ready`);
  return { status: response.status, body: (await response.json()) as { ready: boolean; reasons?: string[] } };
};
/** Waits for /v1/ready to answer 503 with a reason about `alert`; resolves with that reason and when it was seen. */
const waitNotReady = (api: string, alert: string) =>
  waitFor(`/v1/ready to answer 503 naming ${alert}`, async () => {
    const { status, body } = await readyOf(api);
    const reason = body.reasons?.find((text) => text.startsWith(`${alert}: `));
    return status === 503 && body.ready === false && reason ? { reason, at: Date.now() } : undefined;
  });
const waitReady = (api: string) =>
  waitFor('/v1/ready to answer 200 {"ready":true}', async () =>
    (await readyOf(api)).status === 200 ? Date.now() : undefined,
  );
const waitBeatAfter = (path: string, since: number) =>
  waitFor(`a heartbeat on ${path}`, () => beatsAfter(path, since) > 0);

// ---- serve

interface Ready {
  api: string;
  rpcUrl: string;
  keeper: string;
  console?: string;
}
const started: ChildProcess[] = [];
let dir: string;

/** `wager-keeper <args>` (serve or keeper) until its ready line. */
async function startWagerKeeper(
  name: string,
  args: string[],
): Promise<{ child: ChildProcess; ready: Ready; stderr: () => string }> {
  // Its own settings and data folders: alerts.db, mutes and channels of other runs stay out of it.
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, name, 'config'),
    XDG_DATA_HOME: join(dir, name, 'data'),
  };
  const child = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  started.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [
    string | null,
  ];
  lines.on('line', () => {}); // keep draining stdout
  if (!first) throw new Error(`serve exited before it was ready: ${stderr}`);
  return { child, ready: withConsoleToken(JSON.parse(first) as Ready), stderr: () => stderr };
}
const startServe = (name: string, args: string[]) =>
  startWagerKeeper(name, ['serve', '--port', '0', '--gateway-port', '0', ...args]);
async function stopServe(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

let keeper: { ready: Ready; stderr: () => string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'alerts-e2e-'));
  await startReceiver();
  // Slots of 200 ms: the oracle's warning level (20 slots) and critical level (60) come 8 s apart, the
  // debounce of 2 s fits between them.
  const serve = await startServe('main', [
    '--rpc-port',
    '0',
    '--slot-ms',
    '200',
    ...webhookFlags(),
    '--alert-debounce-seconds',
    '2',
    '--heartbeat-url',
    `${base}/beat`,
    '--heartbeat-every',
    '1',
  ]);
  keeper = serve;
  await waitReady(keeper.ready.api);
}, 60_000);

afterAll(async () => {
  for (const child of started) await stopServe(child);
  await new Promise((resolve) => receiver?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

const oracle = (action: 'stall' | 'resume') =>
  run(process.execPath, [bin, 'oracle', action, '--rpc', keeper.ready.rpcUrl]);

/** The main serve's operator API (the console's transport headless), with the token of its console URL. */
async function operator<T>(method: string, args: object = {}): Promise<T> {
  const token = new URLSearchParams(new URL(keeper.ready.console!).hash.slice(1)).get('token')!;
  const response = await fetch(`${keeper.ready.api}/operator/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  const body = (await response.json()) as T;
  if (!response.ok)
    throw new Error(`operator ${method} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** A new keeper key with 5 SOL airdropped on the main serve's localnet, written as a keypair file (the dev key is the main serve's). */
async function fundedKeypairFile(name: string): Promise<string> {
  const key = await generateKeypairWithBytes();
  const keypairFile = join(dir, `${name}.json`);
  await writeFile(keypairFile, JSON.stringify([...key.secretKey]));
  const rpc = createSolanaRpc(keeper.ready.rpcUrl);
  await rpc.requestAirdrop(key.signer.address as Address, lamports(5n * SOL)).send();
  await waitFor(`the airdrop to ${name}`, async () =>
    (await rpc.getBalance(key.signer.address, { commitment: 'confirmed' }).send()).value >= 5n * SOL
      ? true
      : undefined,
  );
  return keypairFile;
}

describe('alerts end to end: one serve, every channel, /v1/ready and the heartbeat', () => {
  it('the oracle stalled: each channel gets the firing once in the shape its service documents (a warning, then critical once it escalates), none repeated; 503 and no heartbeat meanwhile; one resolution, 200 and heartbeats after', async () => {
    const { api, keeper: keeperAddress } = keeper.ready;
    await oracle('stall');
    // The demo app opens a wager every 5 s; its request then waits.
    await waitFor('the critical oracle-stalled firing on every channel', () =>
      CHANNELS.every((channel) =>
        saidAbout(channel, 'oracle-stalled').includes('oracle-stalled firing critical'),
      ),
    );
    const notReady = await waitNotReady(api, 'oracle-stalled');
    expect(notReady.reason).toMatch(
      /^oracle-stalled: The oracle has stalled: \d+ randomness requests? waiting, the oldest for \d+ slots/,
    );
    // Several more evaluations (the readiness reason follows the wait, read once a second) without a repeat.
    const slotsAt = (reason: string) => Number(/the oldest for (\d+) slots/.exec(reason)![1]);
    await waitFor('15 more slots of waiting', async () => {
      const reason = (await readyOf(api)).body.reasons?.find((text) => text.startsWith('oracle-stalled: '));
      return reason !== undefined && slotsAt(reason) >= slotsAt(notReady.reason) + 15;
    });
    // The engine (alert-engine.ts): fires once after the debounce at the level the condition holds; a rise
    // from warning to critical fires again at once; nothing else while it holds (the reminder is an hour).
    const firings = everyChannelAbout('oracle-stalled');
    expect([
      ['oracle-stalled firing warning', 'oracle-stalled firing critical'],
      ['oracle-stalled firing critical'],
    ]).toContainEqual(firings.json);
    for (const channel of CHANNELS) expect(firings[channel], channel).toEqual(firings.json);
    // A beat in flight when it turned may land just after; none later.
    expect(beatsAfter('/beat', notReady.at + 1_000)).toBe(0);

    // Each body in its service's documented shape.
    const first = (path: string) => received.find((request) => request.path === path)!;
    expect(first('/json').body).toEqual({
      alert: 'oracle-stalled',
      state: 'firing',
      severity: expect.stringMatching(/^(warning|critical)$/),
      summary: expect.stringMatching(/randomness requests? waiting/),
      keeper: keeperAddress,
      cluster: 'localnet',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(first('/slack').body).toEqual({
      text: expect.stringMatching(/^(WARNING|CRITICAL) oracle-stalled: /),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('oracle-stalled') } },
      ],
    });
    expect(first('/discord').body).toEqual({
      content: expect.stringMatching(/^\*\*(WARNING|CRITICAL) oracle-stalled\*\*: /),
      allowed_mentions: { parse: [] },
    });
    expect(first(TELEGRAM_PATH)).toMatchObject({
      method: 'POST',
      search: '',
      body: { chat_id: 42, text: expect.stringMatching(/^(WARNING|CRITICAL) oracle-stalled: /) },
    });
    const dedupKey = `wager-keeper:${keeperAddress}:oracle-stalled`;
    expect(first('/pagerduty')).toMatchObject({
      method: 'POST',
      search: '',
      body: {
        routing_key: 'ROUTING-KEY',
        event_action: 'trigger',
        dedup_key: dedupKey,
        payload: {
          summary: expect.stringMatching(/^oracle-stalled: /),
          source: keeperAddress,
          severity: expect.stringMatching(/^(warning|critical)$/),
        },
      },
    });

    const resumedAt = Date.now();
    await oracle('resume');
    await waitFor('the oracle-stalled resolution on every channel', () =>
      CHANNELS.every((channel) => saidAbout(channel, 'oracle-stalled').includes('oracle-stalled resolved')),
    );
    await waitReady(api);
    await waitBeatAfter('/beat', resumedAt);
    const after = everyChannelAbout('oracle-stalled');
    for (const channel of CHANNELS)
      expect(after[channel], channel).toEqual([...firings.json!, 'oracle-stalled resolved']);
    const resolve = received.filter((request) => request.path === '/pagerduty').at(-1)!;
    expect(resolve).toMatchObject({
      search: '',
      body: { routing_key: 'ROUTING-KEY', event_action: 'resolve', dedup_key: dedupKey },
    });
    expect((received.filter((request) => request.path === '/json').at(-1)!.body as AlertMessage).state).toBe(
      'resolved',
    );
  });

  it('the keeper balance drained below the critical level: one critical firing per channel, 503 naming it and no heartbeat; funded again: one resolution, 200 and heartbeats; the console history has both alerts', async () => {
    const { api, rpcUrl, keeper: keeperAddress } = keeper.ready;
    const rpc = createSolanaRpc(rpcUrl);
    // The keeper cranks with the localnet's dev key (serve); the manifest the localnet serves holds it.
    const manifest = (await fetchLocalnetManifest(rpcUrl)) as { devKeys: { keeper: { keypair: number[] } } };
    const keeperSigner = await keypairFromBytes(manifest.devKeys.keeper.keypair);
    expect(keeperSigner.address).toBe(keeperAddress);
    const { value: balance } = await rpc
      .getBalance(address(keeperAddress), { commitment: 'confirmed' })
      .send();
    const elsewhere = (await generateKeyPairSigner()).address;
    // Leave 0.05 SOL: below the critical 0.1, enough to keep paying fees.
    await sendInstructions(rpc, keeperSigner, [
      getTransferSolInstruction({
        source: keeperSigner,
        destination: elsewhere,
        amount: lamports(balance - SOL / 20n),
      }),
    ]);

    await waitFor('the balance-low firing on every channel', () =>
      CHANNELS.every((channel) => saidAbout(channel, 'balance-low').length > 0),
    );
    const notReady = await waitNotReady(api, 'balance-low');
    expect(notReady.reason).toMatch(
      /^balance-low: The keeper balance is 0\.0\d\d SOL, below the critical level of 0\.1 SOL/,
    );
    // A few more evaluations: two heartbeat periods of silence past the one a beat in flight may take.
    await waitFor('3 s since it turned', () => Date.now() > notReady.at + 3_000);
    expect(beatsAfter('/beat', notReady.at + 1_000)).toBe(0);
    for (const channel of CHANNELS)
      expect(saidAbout(channel, 'balance-low'), channel).toEqual(['balance-low firing critical']);

    const fundedAt = Date.now();
    await rpc.requestAirdrop(address(keeperAddress), lamports(10n * SOL)).send();
    await waitFor('the balance-low resolution on every channel', () =>
      CHANNELS.every((channel) => saidAbout(channel, 'balance-low').includes('balance-low resolved')),
    );
    await waitReady(api);
    await waitBeatAfter('/beat', fundedAt);
    for (const channel of CHANNELS)
      expect(saidAbout(channel, 'balance-low'), channel).toEqual([
        'balance-low firing critical',
        'balance-low resolved',
      ]);
    // The oracle stall of the test before stays resolved: nothing more about it.
    for (const channel of CHANNELS)
      expect(saidAbout(channel, 'oracle-stalled').at(-1), channel).toBe('oracle-stalled resolved');

    // Every message sent is in the console's history (alerts.db), newest first.
    const view = await operator<{
      active: { alert: string }[];
      history: { alert: string; state: string; severity: string }[];
    }>('alerts');
    const history = view.history
      .map((entry) =>
        entry.state === 'resolved' ? `${entry.alert} resolved` : `${entry.alert} firing ${entry.severity}`,
      )
      .reverse();
    expect(history.filter((line) => /^(oracle-stalled|balance-low) /.test(line))).toEqual([
      ...saidAbout('json', 'oracle-stalled'),
      ...saidAbout('json', 'balance-low'),
    ]);
    expect(view.active.map((active) => active.alert)).not.toContain('balance-low');
  });

  it('the RPC taken away (serve --rpc through a TCP proxy): one rpc-failing firing, 503 naming it and no heartbeat; back: one resolution, 200 and heartbeats', async () => {
    const proxy: TcpProxy = await startTcpProxy(Number(new URL(keeper.ready.rpcUrl).port));
    try {
      // Its own funded key: the localnet's dev key is the first serve's.
      const keypairFile = await fundedKeypairFile('rpc-keeper');

      const second = await startServe('rpc', [
        '--rpc',
        proxy.url,
        '--keypair',
        keypairFile,
        '--no-console',
        '--alert-webhook',
        `json=${base}/b/json`,
        '--alert-debounce-seconds',
        '2',
        '--alert-rpc-failing-seconds',
        '2',
        '--heartbeat-url',
        `${base}/b/beat`,
        '--heartbeat-every',
        '1',
      ]);
      const { api } = second.ready;
      const upAt = await waitReady(api);
      await waitBeatAfter('/b/beat', upAt);

      proxy.down();
      await waitFor('the rpc-failing firing', () => saidAbout('json', 'rpc-failing', '/b').length > 0);
      const notReady = await waitNotReady(api, 'rpc-failing');
      expect(notReady.reason).toMatch(/^rpc-failing: The RPC has not answered for \d+ s/);
      await waitFor('3 s since it turned', () => Date.now() > notReady.at + 3_000);
      expect(beatsAfter('/b/beat', notReady.at + 1_000)).toBe(0);
      expect(saidAbout('json', 'rpc-failing', '/b')).toEqual(['rpc-failing firing critical']);

      const backAt = Date.now();
      proxy.up();
      await waitFor('the rpc-failing resolution', () =>
        saidAbout('json', 'rpc-failing', '/b').includes('rpc-failing resolved'),
      );
      await waitReady(api);
      await waitBeatAfter('/b/beat', backAt);
      expect(saidAbout('json', 'rpc-failing', '/b')).toEqual([
        'rpc-failing firing critical',
        'rpc-failing resolved',
      ]);
      await stopServe(second.child);
    } finally {
      await proxy.close();
    }
  });

  it('a fleet member stopped (a second keeper, shard 1/2, listed in Settings → Fleet of the serve, shard 0/2): one fleet-member-silent warning per channel, not repeated; started again: one resolution. /v1/ready stays 200 and the heartbeat goes on: the serve itself is fine', async () => {
    const { api, rpcUrl } = keeper.ready;
    // A fixed port, so the member started again answers at the URL the serve watches.
    const memberUrl = `http://127.0.0.1:${await closedPort()}`;
    const memberArgs = [
      'keeper',
      '--rpc',
      rpcUrl,
      '--keypair',
      await fundedKeypairFile('fleet-member'),
      '--shard',
      '1/2',
      '--port',
      new URL(memberUrl).port,
      '--db',
      join(dir, 'fleet-member.db'),
      '--no-console',
    ];
    let member = await startWagerKeeper('fleet-member', memberArgs);
    const memberKey = member.ready.keeper;

    // Settings → Fleet, at run time: the serve takes shard 0 of 2 and watches the member's /v1/health.
    await operator('saveSettings', { changes: { shard: '0/2', fleetMembers: [memberUrl] } });
    type Member = { url: string; keeper: string | null; shard: string | null; stale: boolean };
    const watched = async () => (await operator<Member[]>('fleet')).find((entry) => entry.url === memberUrl);
    expect(
      await waitFor('the serve to see the member answer', async () => {
        const seen = await watched();
        return seen?.keeper ? seen : undefined;
      }),
    ).toMatchObject({ keeper: memberKey, shard: '1/2', stale: false });

    await stopServe(member.child);
    // The fleet watch calls a member silent after 15 s without an answer (fleet-watch.ts), then the debounce.
    await waitFor(
      'the fleet-member-silent firing on every channel',
      () => CHANNELS.every((channel) => saidAbout(channel, 'fleet-member-silent').length > 0),
      45_000,
    );
    const firedAt = Date.now();
    const firing = received.find(
      (request) => request.path === '/json' && (request.body as AlertMessage).alert === 'fleet-member-silent',
    )!;
    expect((firing.body as AlertMessage).summary).toMatch(
      new RegExp(
        `^1 fleet member silent \\(${memberUrl.replaceAll('.', '\\.')}\\): its shard's wagers wait for the takeover`,
      ),
    );
    // A silent peer is a warning about the fleet, not this keeper being unfit: ready, heartbeats go on.
    expect((await readyOf(api)).status).toBe(200);
    // Three more heartbeats (the serve evaluates once a second meanwhile) without a repeat.
    await waitFor('three heartbeats after the firing', () => beatsAfter('/beat', firedAt) >= 3);
    expect((await watched())?.stale).toBe(true);
    for (const channel of CHANNELS)
      expect(saidAbout(channel, 'fleet-member-silent'), channel).toEqual([
        'fleet-member-silent firing warning',
      ]);

    member = await startWagerKeeper('fleet-member', memberArgs);
    await waitFor('the fleet-member-silent resolution on every channel', () =>
      CHANNELS.every((channel) =>
        saidAbout(channel, 'fleet-member-silent').includes('fleet-member-silent resolved'),
      ),
    );
    for (const channel of CHANNELS)
      expect(saidAbout(channel, 'fleet-member-silent'), channel).toEqual([
        'fleet-member-silent firing warning',
        'fleet-member-silent resolved',
      ]);
    expect(await watched()).toMatchObject({ keeper: memberKey, stale: false });
    expect((await readyOf(api)).status).toBe(200);
    await stopServe(member.child);
  });
});
