/**
 * Whether the Queue screen stays smooth while 10 000 wagers update (the target: p95 frame time
 * under 16 ms). The real built UI in Debian's Chromium, over the real operator HTTP + SSE transport
 * (operator-http.ts); behind it a load generator stands in for the keeper (named as such: a real keeper
 * cannot be made to move 10 000 wagers at once on this machine). It answers the operator interface with
 * 10 000 in-progress wagers and pushes `records` batches the way the core does (every 150 ms), moving
 * every wager to its next state every ~1.5 s. Frame times come from requestAnimationFrame in the page.
 * Prints JSON; asserts nothing. `npm run bench:console-queue [-- wagers seconds]`. Needs `npm run build`.
 */
import { chromium } from '@playwright/test';
import { listenPublicApi } from '../src-main/api/public-api';
import { CONSOLE_UI_DIRECTORY } from '../src-main/commands/console-host';
import { createOperatorHttp } from '../src-main/operator-http/operator-http';
import type { OperatorApi } from '../src-shared/contract/operator-api';
import type { OperatorEvent } from '../src-shared/contract/events';
import type { QueueRow } from '../src-shared/contract/activity';
import type { StatusView } from '../src-shared/contract/status';
import type { WagerState } from '../src-shared/crank-vocabulary';
import { expiresAt } from '../src-shared/wager-timing';

const wagers = Number(process.argv[2] ?? 10_000);
const seconds = Number(process.argv[3] ?? 8);
const BATCH_MS = 150;
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const fakeAddress = (i: number) => {
  let text = '';
  let n = i * 7_919 + 104_729;
  for (let k = 0; k < 44; k++) {
    text += ALPHABET[n % 58];
    n = Math.floor(n / 58) + k * 31 + i;
  }
  return text;
};

let slot = 1_000_000;
const states: WagerState[] = ['queued', 'requested', 'fulfilled'];
const rows: QueueRow[] = Array.from({ length: wagers }, (_, i) => ({
  address: fakeAddress(i),
  state: states[i % 3]!,
  paytable: 'Paytab1e1111111111111111111111111111111111',
  paytableName: ['coin-flip', 'dice', 'wheel'][i % 3]!,
  stake: String(1_000_000 * (1 + (i % 5))),
  openSlot: slot - (i % 140),
  expirySlot: expiresAt(slot - (i % 140)),
  oracleRequest: null,
  requestSignature: null,
  requestedSlot: null,
  fulfilledSlot: null,
  settleSignature: null,
  expireSignature: null,
  claimSignature: null,
  bucket: null,
  payout: null,
  payoutPending: false,
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
}));

const status: StatusView = {
  phase: 'running',
  error: null,
  host: 'headless',
  cluster: { name: 'localnet', rpcUrl: 'http://127.0.0.1:8899', wsUrl: 'ws://127.0.0.1:8900', genesisHash: null, embedded: true, wagerKeeperLocalnet: true, deployment: null, noDeployment: null },
  keeper: { address: fakeAddress(99_999), keySource: 'localnet dev key', shard: null },
  paused: false,
  apiUrl: 'http://127.0.0.1:7300',
  apiError: null,
  faucet: true,
  demo: { available: true, reason: null, enabled: false, intervalMs: 5_000, opened: 0, lastOpenedAt: null, lastError: null },
  startedAt: Date.now(),
};
const health = () => ({
  lamports: '5000000000',
  lastTick: Date.now(),
  queue: wagers,
  rpcError: null,
  slot,
  rpcLatencyMs: 1,
  checkedAt: Date.now(),
  runway: { lamportsPerCrank: 5_000, cranks: 1_000_000, low: false },
  oracleWait: { waiting: Math.round(wagers / 3), oldestWaitSlots: 2 },
  overdue: [],
});
const totals = { receivedLamports: 0, feeLamports: 0, netLamports: 0, cranks: 0 };
const loadGenerator: OperatorApi = {
  status: async () => status,
  health: async () => health(),
  overview: async () => ({
    queueCounts: { queued: wagers / 3, requested: wagers / 3, fulfilled: wagers / 3, settled: 0, expired: 0, unknown: 0 },
    parkedPayouts: 0,
    cranksToday: { landed: 0, lost: 0, skipped: 0, failed: 0 },
    earnings: { today: totals, week: totals, all: totals },
  }),
  queue: async () => rows,
  wager: async ({ address }) => rows.find((row) => row.address === address) ?? null,
  earningsSeries: async () => [],
  earningsReport: async () => ({ csv: '', fileName: 'earnings.csv', rows: 0, totals: { cranks: 0, earnedLamports: 0, spentLamports: 0, netLamports: 0, sweeps: 0, sentToWalletLamports: 0 }, notice: null }),
  recentSteps: async () => [],
  stepTally: async () => [],
  fleet: async () => [],
  oracleLatency: async () => [],
  settings: async () => {
    throw new Error('not part of this benchmark');
  },
  setPaused: async () => status,
  saveSettings: async () => {
    throw new Error('not part of this benchmark');
  },
  testConnection: async ({ rpcUrl }) => ({ ok: false, rpcUrl, error: 'not part of this benchmark' }),
  generateKey: async () => {
    throw new Error('not part of this benchmark');
  },
  importKey: async () => {
    throw new Error('not part of this benchmark');
  },
  exportKey: async () => {
    throw new Error('not part of this benchmark');
  },
  inspect: async () => {
    throw new Error('not part of this benchmark');
  },
  handToKeeper: async () => null,
  earningsSweep: async () => {
    throw new Error('not part of this benchmark');
  },
  saveSweepSettings: async () => {
    throw new Error('not part of this benchmark');
  },
  sweepNow: async () => {
    throw new Error('not part of this benchmark');
  },
  liquidity: async () => {
    throw new Error('not part of this benchmark');
  },
  strikeEpoch: async () => ({ outcome: 'failed', error: 'not part of this benchmark' }),
  claimLiquidity: async () => ({ outcome: 'failed', error: 'not part of this benchmark' }),
  claimPayout: async () => ({ outcome: 'failed', error: 'not part of this benchmark' }),
  wagerTransaction: async () => null,
  wagerFailedAttempts: async () => ({ attempts: [] }),
  localOracle: async () => null,
  setLocalOracleStalled: async () => {
    throw new Error('not part of this benchmark');
  },
  loadDeployment: async () => {
    throw new Error('not part of this benchmark');
  },
  faucetStatus: async () => ({ source: 'none', reason: 'not part of this benchmark' }),
  faucetClaim: async () => {
    throw new Error('not part of this benchmark');
  },
  guardian: async () => {
    throw new Error('not part of this benchmark');
  },
  setNewWagersPaused: async () => {
    throw new Error('not part of this benchmark');
  },
  importGuardianKey: async () => {
    throw new Error('not part of this benchmark');
  },
  searchAddress: async () => {
    throw new Error('not part of this benchmark');
  },
  alerts: async () => {
    throw new Error('not part of this benchmark');
  },
  muteAlert: async () => {
    throw new Error('not part of this benchmark');
  },
  alertSettings: async () => {
    throw new Error('not part of this benchmark');
  },
  saveAlertSettings: async () => {
    throw new Error('not part of this benchmark');
  },
  addAlertChannel: async () => {
    throw new Error('not part of this benchmark');
  },
  removeAlertChannel: async () => {
    throw new Error('not part of this benchmark');
  },
  sendTestAlert: async () => {
    throw new Error('not part of this benchmark');
  },
  logs: async () => ({ lines: [] }),
  saveDiagnostics: async () => {
    throw new Error('not part of this benchmark');
  },
};

const listeners = new Set<(event: OperatorEvent) => void>();
const token = 'bench-token-0123456789abcdefghijklmnop';
const http = createOperatorHttp({ api: loadGenerator, onEvent: (l) => (listeners.add(l), () => listeners.delete(l)), token, uiDirectory: CONSOLE_UI_DIRECTORY });
const server = await listenPublicApi({ fetch: http.withConsole(() => new Response('{"error":"not found"}', { status: 404 })) } as never, { port: 0 });

// Every batch moves the next slice of wagers one state on, so every wager changes about every 1.5 s.
const perBatch = Math.ceil(wagers / (1_500 / BATCH_MS));
let cursor = 0;
let updates = 0;
const generator = setInterval(() => {
  slot += 1;
  const changed: QueueRow[] = [];
  for (let k = 0; k < perBatch; k++) {
    const row = rows[cursor]!;
    cursor = (cursor + 1) % rows.length;
    row.state = states[(states.indexOf(row.state) + 1) % 3]!;
    row.updatedAt = new Date().toISOString();
    changed.push({ ...row });
  }
  updates += changed.length;
  for (const listener of listeners) {
    listener({ type: 'records', records: changed });
    listener({ type: 'health', health: health() });
  }
}, BATCH_MS);

// Frames unthrottled (no vsync cap): each requestAnimationFrame interval is then the real cost of a frame
// (script, style, layout, paint), not the 16.7 ms of a 60 Hz display it would otherwise always show.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--disable-gpu', '--disable-gpu-vsync', '--disable-frame-rate-limit', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/console/#token=${token}`);
  await page.getByRole('link', { name: 'Queue' }).click();
  await page.getByText(rows[0]!.address.slice(0, 6)).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  const updatesBefore = updates;
  // Runs in the page (a string: this file is compiled without the DOM types).
  const frames = (await page.evaluate(`new Promise((resolve) => {
    const times = [];
    let last = performance.now();
    const end = last + ${seconds * 1000};
    // Scroll while measuring: a virtualized list must stay smooth while it moves, not only at rest.
    const scroller = [...document.querySelectorAll('*')].find((el) => el.scrollHeight > el.clientHeight + 1000);
    const step = (now) => {
      times.push(now - last);
      last = now;
      if (scroller) scroller.scrollTop += 40;
      if (now < end) requestAnimationFrame(step);
      else resolve(times);
    };
    requestAnimationFrame(step);
  })`)) as number[];
  const sorted = [...frames].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
  console.log(
    JSON.stringify(
      {
        bench: 'console-queue-frames',
        wagers,
        seconds,
        wagerUpdatesDuringMeasurement: updates - updatesBefore,
        frames: frames.length,
        frameMs: { median: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) },
        framesOver16ms: frames.filter((f) => f > 16).length,
        targetP95Ms: 16,
      },
      null,
      2,
    ),
  );
} finally {
  clearInterval(generator);
  await browser.close();
  await server.close();
}
