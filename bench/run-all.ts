/**
 * `npm run bench`: every `bench:*` script of package.json, one after the other, each with the modest sizes
 * below (the whole run stays under ~15 minutes on 2 cores); each bench's last JSON document on stdout is
 * written to bench/results/<name>.json with the command and the ISO date; then the table in
 * docs/performance.md is regenerated (bench/performance-table.ts).
 *
 *   npm run bench                     every bench, then the table
 *   npm run bench -- cu keeper        only these (names without `bench:`), then the table
 *   npm run bench -- --table          only the table, from the results already written
 *
 * A bench that writes its own bench/results/<name>.json during the run (its owner's format) is left as it
 * wrote it. A bench that fails is recorded with its exit code and the run goes on.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writePerformanceTable } from './performance-table';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

/** Arguments for the full run, where a bench's own default is larger than the run can afford. */
const RUN_ARGS: Record<string, string[]> = {
  localnet: ['4000'],
  keeper: ['60', '24000'],
  burst: ['1000'],
  api: ['4', '8', '2'],
  startup: ['3'],
  'console-ready': ['5'],
  'console-queue': ['10000', '6'],
  inspector: ['6'],
  gateway: ['30', '4'],
  'cli-startup': ['20'],
  // 200 000 wagers (about 35 s to make on 2 cores); `npm run bench:history` alone makes the issue's 1 000 000.
  history: ['--wagers', '200000'],
};

/** The last top-level JSON document in `stdout` (pretty-printed or one line), or undefined. */
export function lastJsonDocument(stdout: string): unknown {
  const lines = stdout.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!/^[{[]/.test(lines[i]!)) continue;
    try {
      return JSON.parse(lines.slice(i).join('\n').trim());
    } catch {
      // not the start of the last document: look further up
    }
  }
  return undefined;
}

function runScript(script: string, args: string[]): Promise<{ code: number | null; stdout: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      process.stderr.write(chunk); // the bench's own output stays visible while it runs
    });
    child.once('exit', (code) => resolve({ code, stdout, ms: Math.round(performance.now() - started) }));
  });
}

const argv = process.argv.slice(2);
if (!argv.includes('--table')) {
  const scripts = Object.keys((JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts)
    .filter((name) => name.startsWith('bench:'))
    .map((name) => name.slice('bench:'.length))
    .filter((name) => argv.length === 0 || argv.includes(name));
  mkdirSync(resultsDir, { recursive: true });
  const runStarted = Date.now();
  for (const name of scripts) {
    const args = RUN_ARGS[name] ?? [];
    const command = `npm run bench:${name}${args.length ? ` -- ${args.join(' ')}` : ''}`;
    const file = `${resultsDir}${name}.json`;
    const date = new Date().toISOString();
    process.stderr.write(`\n== ${command}\n`);
    const { code, stdout, ms } = await runScript(`bench:${name}`, args);
    if (existsSync(file) && statSync(file).mtimeMs >= Date.parse(date)) {
      process.stderr.write(`== ${name}: it wrote ${file} itself (${ms} ms)\n`);
      continue;
    }
    const result = lastJsonDocument(stdout) ?? null;
    writeFileSync(file, `${JSON.stringify({ bench: name, command, date, durationMs: ms, exitCode: code, result }, null, 2)}\n`);
    process.stderr.write(`== ${name}: exit ${code}, ${ms} ms${result === null ? ', no JSON on stdout' : ''}\n`);
  }
  process.stderr.write(`\n== all benches: ${Math.round((Date.now() - runStarted) / 1000)} s\n`);
}
writePerformanceTable();
