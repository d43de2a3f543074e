/**
 * monitoring/ as an operator loads it: Prometheus accepts the alert rules (`promtool check rules`), the
 * rules' unit tests pass (`promtool test rules`), and every metric the rules and the Grafana dashboard
 * query is one a running keeper exports on its --metrics-port (one keeper on a localnet, /metrics read once).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalnet, type Localnet } from '../localnet/localnet';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/wager-keeper.js');
const rulesFile = join(root, 'monitoring/prometheus/wager-keeper.rules.yml');
const dashboardFile = join(root, 'monitoring/grafana/wager-keeper.json');
const testsDir = join(root, 'monitoring/tests');

async function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('promtool', args, { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    if (failed.code === 'ENOENT')
      throw new Error(
        "promtool is not installed: run `node scripts/ensure-toolchain.mjs` (it installs Debian's prometheus package), or npm test, which runs it first",
        { cause: error },
      );
    return { code: Number(failed.code), output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** Metric names in PromQL text: the keeper's own, and any other series a query reads. */
const keeperMetricNames = (promql: string) => new Set(promql.match(/\bwager_keeper_[a-z0-9_]+/g) ?? []);

const rulesText = () => readFile(rulesFile, 'utf8');
async function dashboardExpressions(): Promise<string[]> {
  const dashboard = JSON.parse(await readFile(dashboardFile, 'utf8')) as {
    panels: { title: string; targets: { expr: string }[] }[];
    templating: { list: { definition?: string }[] };
  };
  return [
    ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)),
    ...dashboard.templating.list.flatMap((variable) => variable.definition ?? []),
  ];
}

describe('Prometheus rules', () => {
  it('pass promtool check rules', async () => {
    const result = await promtool('check', 'rules', rulesFile);
    expect(result.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(result.code, result.output).toBe(0);
  });

  it('pass their promtool unit tests (monitoring/tests/*.yml)', async () => {
    const files = (await readdir(testsDir))
      .filter((name) => name.endsWith('.yml'))
      .map((name) => join(testsDir, name));
    expect(files.length).toBeGreaterThan(0);
    const result = await promtool('test', 'rules', ...files);
    expect(result.code, result.output).toBe(0);
  });
});

describe('every metric the rules and the dashboard query', () => {
  let localnet: Localnet;
  let dir: string;
  let keeper: ChildProcess | undefined;
  let exported: Set<string>;
  let metricsText: string;

  beforeAll(async () => {
    localnet = await startLocalnet({ rpcPort: 0, slotMs: 100 });
    dir = await mkdtemp(join(tmpdir(), 'wk-monitoring-'));
    const keypair = join(dir, 'keeper.json');
    await writeFile(keypair, JSON.stringify(Array.from(localnet.manifest.devKeys.keeper.keypair)));
    const env = { ...process.env, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    const args = [
      'keeper',
      '--rpc',
      localnet.rpcUrl,
      '--keypair',
      keypair,
      '--port',
      '0',
      '--db',
      join(dir, 'keeper.db'),
      '--metrics-port',
      '0',
    ];
    keeper = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stderr = '';
    keeper.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const lines = createInterface({ input: keeper.stdout! });
    const [first] = (await Promise.race([once(lines, 'line'), once(keeper, 'exit').then(() => [null])])) as [
      string | null,
    ];
    lines.on('line', () => {}); // keep draining stdout
    if (!first) throw new Error(`wager-keeper keeper exited before it was ready: ${stderr}`);
    const { metrics } = JSON.parse(first) as { metrics: string };
    // Read once the first loop pass has ended (the health gauges are set by it), polling that state.
    for (;;) {
      metricsText = await (await fetch(metrics)).text();
      if (!/^wager_keeper_last_tick_ms 0$/m.test(metricsText)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    exported = new Set([
      ...[...metricsText.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!),
      ...[...metricsText.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/gm)].map((match) => match[1]!),
    ]);
  }, 60_000);

  afterAll(async () => {
    if (keeper && keeper.exitCode === null && keeper.signalCode === null) {
      keeper.kill('SIGTERM');
      await once(keeper, 'exit');
    }
    await localnet?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is exported by a running keeper on /metrics', async () => {
    const used = new Set([
      ...keeperMetricNames(await rulesText()),
      ...(await dashboardExpressions()).flatMap((expr) => [...keeperMetricNames(expr)]),
    ]);
    expect(used.size).toBeGreaterThan(10);
    expect(
      [...used].filter((name) => !exported.has(name)),
      'queried but not exported by the keeper',
    ).toEqual([]);
  });

  it('reads live figures where the alerts need them: the RPC round trip, the oracle wait, the pause flag', () => {
    expect(metricsText).toMatch(/^wager_keeper_rpc_latency_seconds \d+(\.\d+)?(e-\d+)?$/m);
    expect(metricsText).toMatch(/^wager_keeper_oracle_oldest_wait_slots 0$/m);
    expect(metricsText).toMatch(/^wager_keeper_new_wagers_paused 0$/m);
    expect(metricsText).toMatch(/^wager_keeper_rpc_up 1$/m);
  });

  it("reads no series but the keeper's own, except Prometheus's `up` for a failed scrape", async () => {
    const rules = await rulesText();
    const exprs = [...rules.matchAll(/^\s+expr: (.+)$/gm)].map((match) => match[1]!);
    const foreign = exprs
      .flatMap((expr) => [...expr.matchAll(/\b([a-z_:][a-z0-9_:]*)\s*\{/g)].map((match) => match[1]!))
      .filter((name) => !name.startsWith('wager_keeper_') && !['by', 'without'].includes(name));
    expect(foreign).toEqual(['up']);
  });
});
