/**
 * The client example of docs/gateway.md (examples/gateway-client.mjs), run as a newcomer would: against
 * `wager-keeper serve`, from a fresh wallet with faucet USDC to a settled wager.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

it('the documented client pays the gateway of serve and sees its wager settle', async () => {
  const serve = spawn(process.execPath, [join(root, 'bin', 'wager-keeper.js'), 'serve', '--port', '0', '--rpc-port', '0', '--gateway-port', '0', '--no-console'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  serve.stderr!.resume();
  try {
    const lines = createInterface({ input: serve.stdout! });
    const [first] = (await once(lines, 'line')) as [string];
    lines.on('line', () => {});
    const ready = JSON.parse(first) as { api: string; gateway: string; rpcUrl: string };
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'examples', 'gateway-client.mjs'), ready.api, ready.gateway, ready.rpcUrl], { cwd: root, timeout: 60_000 });
    expect(JSON.parse(stdout)).toMatchObject({ wager: expect.any(String), paid: expect.any(String), state: 'settled', bucket: expect.any(Number), payout: expect.stringMatching(/^\d+$/) });
  } finally {
    serve.kill('SIGTERM');
    await once(serve, 'exit');
  }
}, 90_000);
