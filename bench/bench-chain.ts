/**
 * What several benches do with a chain: start `wager-keeper localnet` as its own process (like a
 * validator), and sign the dev app's open_wager transactions (to send them as fast or as spread as the
 * bench wants, which is why they are signed here rather than sent through the product's `open`).
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
} from '@solana/kit';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LocalnetManifest } from '../src-main/localnet/localnet';
import { devAppOpener } from '../src-main/localnet/dev-app-wager';

const bin = fileURLToPath(new URL('../bin/wager-keeper.js', import.meta.url));

/** `wager-keeper localnet --rpc-port 0 --slot-ms N` as its own process, once its manifest line is out. */
export async function startLocalnetProcess(slotMs: number): Promise<{ manifest: LocalnetManifest; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [bin, 'localnet', '--rpc-port', '0', '--slot-ms', String(slotMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const manifest = await new Promise<LocalnetManifest>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as LocalnetManifest));
    child.once('exit', (code) => reject(new Error(`the localnet exited (${code})`)));
  });
  return {
    manifest,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

export type Lifetime = { blockhash: Blockhash; lastValidBlockHeight: bigint };

/** The localnet's dev app (src-main/localnet/dev-app-wager.ts), staking 1 test USDC per wager from its own USDC account. */
export async function devApp(manifest: LocalnetManifest) {
  const { app, open } = await devAppOpener(manifest);
  return {
    app,
    /** A signed open_wager of 1.00 USDC on `paytable` with `nonce`: its wager, signature and wire bytes. */
    async signedOpen(paytable: Address, nonce: bigint, lifetime: Lifetime) {
      const { instruction, wager } = await open(paytable, 1_000_000n, nonce);
      const signed = await signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayerSigner(app, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
          (m) => appendTransactionMessageInstructions([instruction], m),
        ),
      );
      return { wager, signature: getSignatureFromTransaction(signed), wire: getBase64EncodedWireTransaction(signed) };
    },
  };
}
