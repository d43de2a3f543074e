/**
 * How long `wager-keeper --help` takes as a whole process, against a bare `node -e 0` on the same Node
 * (issue 25's target: within 8 times). `npm run bench:cli-startup [-- runs]` (default 20 runs of each)
 * builds first, so it measures the built CLI (out/main/cli.js) the way bin/wager-keeper.js picks it, the
 * staleness check of the sources included; the sources through tsx (WAGER_KEEPER_FROM_SOURCE=1) are
 * measured too, for comparison. Runs alternate (bare, built, sources, bare, ...) so a machine whose speed
 * drifts affects all three alike. Prints JSON; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 20);
const bin = fileURLToPath(new URL('../bin/wager-keeper.js', import.meta.url));

/** Wall time of one process from spawn to exit, in ms; rejects when it fails. */
function timeOnce(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore', env });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`node ${args.join(' ')} exited with ${code}`)),
    );
  });
}

const env = { ...process.env };
delete env.WAGER_KEEPER_FROM_SOURCE;
const commands = {
  bare: { args: ['-e', '0'], env },
  built: { args: [bin, '--help'], env },
  sources: { args: [bin, '--help'], env: { ...env, WAGER_KEEPER_FROM_SOURCE: '1' } },
};
const times: Record<keyof typeof commands, number[]> = { bare: [], built: [], sources: [] };

// One warm-up round (file cache, tsx's compile cache), not counted.
for (const command of Object.values(commands)) await timeOnce(command.args, command.env);
for (let i = 0; i < runs; i++) {
  for (const [name, command] of Object.entries(commands) as [
    keyof typeof commands,
    (typeof commands)['bare'],
  ][])
    times[name].push(await timeOnce(command.args, command.env));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const bareMs = median(times.bare);
console.log(
  JSON.stringify(
    {
      bench: 'cli-startup',
      runs,
      node: process.version,
      bareNodeMs: {
        median: round(bareMs),
        min: round(Math.min(...times.bare)),
        max: round(Math.max(...times.bare)),
      },
      helpMs: {
        median: round(median(times.built)),
        min: round(Math.min(...times.built)),
        max: round(Math.max(...times.built)),
      },
      helpFromSourcesMs: {
        median: round(median(times.sources)),
        min: round(Math.min(...times.sources)),
        max: round(Math.max(...times.sources)),
      },
      ratio: round(median(times.built) / bareMs, 2),
      ratioFromSources: round(median(times.sources) / bareMs, 2),
      targetRatio: 8,
    },
    null,
    2,
  ),
);
