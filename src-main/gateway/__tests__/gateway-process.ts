/**
 * `wager-keeper gateway` as a child process on a testbed's localnet, and a read of its payments file: for
 * the tests that kill it (SIGKILL, by its fault switch) and start it again on the same file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'wager-keeper.js');

/** Starts the gateway against `rpcUrl`; resolves with its ready line (rejects with its stderr if it exits first). */
export async function startGatewayProcess(rpcUrl: string, keyFile: string, db: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; ready: { gateway: string; address: string } }> {
  const child = spawn(process.execPath, [bin, 'gateway', '--rpc', rpcUrl, '--keypair', keyFile, '--db', db, '--port', '0', '--keeper', 'http://127.0.0.1:9'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  lines.on('line', () => {}); // keep draining
  if (!first) throw new Error(`the gateway exited before it was ready: ${stderr}`);
  return { child, ready: JSON.parse(first) as { gateway: string; address: string } };
}

export interface StoredPayment {
  state: string;
  wager: string;
  payer: string;
  amount: string;
  settlement: string;
  refund_signature: string | null;
  open_signature: string | null;
}

/** The payments a gateway's file holds (read-only, while the gateway runs or after it died). */
export function paymentsIn(db: string): StoredPayment[] {
  const file = new DatabaseSync(db, { readOnly: true });
  try {
    return file.prepare('SELECT state, wager, payer, amount, settlement, refund_signature, open_signature FROM payments').all() as unknown as StoredPayment[];
  } finally {
    file.close();
  }
}
