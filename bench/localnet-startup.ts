/**
 * How long `wager-keeper localnet` takes from the command to its ready line (programs deployed through
 * the upgradeable loader, mint, config, pool, paytables, seeded liquidity, dev keys funded), and to the
 * first answered `getHealth`. The target: under 5 s on this machine. Prints JSON; asserts nothing.
 * `npm run bench:startup [-- runs]` (default 5 runs).
 *
 * Each run is a fresh process started the way a user starts it (`node bin/wager-keeper.js localnet`),
 * so the figure includes Node start-up, module loading and the re-exec onto the pinned Node when needed.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 5);
const bin = fileURLToPath(new URL('../bin/wager-keeper.js', import.meta.url));

async function startOnce(): Promise<{ readyMs: number; healthyMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'localnet', '--rpc-port', '0', '--ws-port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) {
      const ready = JSON.parse(line) as { event?: string; rpcUrl?: string };
      if (ready.event !== 'ready' || !ready.rpcUrl) continue;
      const readyMs = performance.now() - started;
      const response = await fetch(ready.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}',
      });
      if (((await response.json()) as { result?: string }).result !== 'ok')
        throw new Error('the localnet answered getHealth with something else than ok');
      return { readyMs, healthyMs: performance.now() - started };
    }
    throw new Error('the localnet exited before its ready line');
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await startOnce());
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const summary = (values: number[]) => {
  const s = sorted(values);
  return {
    min: Math.round(s[0]!),
    median: Math.round(s[Math.floor(s.length / 2)]!),
    max: Math.round(s.at(-1)!),
  };
};
console.log(
  JSON.stringify(
    {
      bench: 'localnet-startup',
      runs,
      readyLineMs: summary(results.map((r) => r.readyMs)),
      firstHealthyRpcMs: summary(results.map((r) => r.healthyMs)),
      targetMs: 5_000,
    },
    null,
    2,
  ),
);
