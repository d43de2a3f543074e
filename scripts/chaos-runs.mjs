#!/usr/bin/env node
/**
 * `npm run test:chaos`: the chaos runs (src-main/__tests__/chaos/*.chaos.ts) in two lanes at once, each
 * lane one file at a time. The RPC failover run spends two minutes waiting out a provider's outage with
 * one keeper cranking 150 wagers (little CPU): it runs beside the others instead of after them, which
 * keeps `npm test` within its 25 minutes on 2 cores. The heavier runs (500 wagers through a SIGKILLed
 * keeper, a failing RPC, a stalled oracle) still run one after another in the other lane.
 * Exits non-zero when either lane fails; extra arguments go to both vitest runs.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const config = 'src-main/__tests__/chaos/vitest.chaos.config.ts';
const failover = 'src-main/__tests__/chaos/rpc-failover.chaos.ts';
// vitest's own entry (the package exports no path to it; node_modules/.bin/vitest is a shell shim on Windows).
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const extra = process.argv.slice(2);

const lanes = [
  ['run', '--config', config, '--exclude', failover, ...extra],
  ['run', '--config', config, failover, ...extra],
];

const exitCodes = await Promise.all(
  lanes.map(
    (args) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [vitest, ...args], { stdio: 'inherit' });
        child.on('error', (error) => {
          console.error(`chaos lane could not start: ${error.message}`);
          resolve(1);
        });
        child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  ),
);
process.exit(exitCodes.some((code) => code !== 0) ? 1 : 0);
