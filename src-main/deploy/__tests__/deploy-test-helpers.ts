/**
 * What the deploy tests share: an in-process localnet whose clock the test drives (a slot pump, and a jump
 * to an epoch's close when a deploy says it waits for it), deployers with funded keypair files, `deploy`
 * run in-process or as a child process with its output read as the user sees it, the deployer's fees read
 * back from the chain, a plain-RPC proxy that hides the localnet's own methods, and a variant build of the
 * wager program made with the project's toolchain.
 */
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getU64Decoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../../../program/toolchain/build-programs';
import { deployCommand } from '../../commands/deploy-command';
import type { Localnet } from '../../localnet/localnet';
import { generateKeypairWithBytes } from '../../secrets/keypair-bytes';
import type { DeployEvent } from '../deploy-service';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const BIN = join(REPO_ROOT, 'bin', 'wager-keeper.js');
/** The deploy tests count SOL in bigint lamports. */
export { LAMPORTS_PER_SOL_BIGINT as LAMPORTS_PER_SOL } from '../../../src-shared/units';

/** One slot every `ms` while running: deploys wait for slots (a program is callable in the next one). */
export function slotPump(localnet: Localnet, ms = 50) {
  const timer = setInterval(() => localnet.chain.advanceSlots(1), ms);
  return { stop: () => clearInterval(timer) };
}

/** A temp directory; `remove()` deletes it. */
export async function tempDir(prefix = 'deploy-test-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, path: (name: string) => join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A deployer keypair file in `dir`, airdropped `lamports` on the localnet. */
export async function fundedDeployer(localnet: Localnet, dir: string, lamports: bigint, name = 'deployer.json'): Promise<{ signer: KeyPairSigner; file: string }> {
  const key = await generateKeypairWithBytes();
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(Array.from(key.secretKey)), { mode: 0o600 });
  if (lamports > 0n) localnet.chain.airdrop(key.signer.address, lamports);
  return { signer: key.signer, file };
}

type JsonEvent = DeployEvent & Record<string, unknown>;

/**
 * Reacts to what a deploy prints as a user's script would: when it waits for the liquidity epoch's close,
 * the test moves the clock there (as a cluster's slots would pass).
 */
export function epochCloser(localnet: Localnet) {
  return (event: { event?: string; step?: string; status?: string; closeSlot?: string }) => {
    if (event.event === 'progress' && event.step === 'pool-liquidity' && event.status === 'waiting') {
      const behind = BigInt(event.closeSlot!) + 1n - localnet.chain.slot();
      if (behind > 0n) localnet.chain.advanceSlots(Number(behind));
    }
  };
}

export interface DeployRun {
  code: number;
  lines: string[];
  /** Every stdout line that parsed as an event (the deployment line is last, not an event). */
  events: JsonEvent[];
  last: unknown;
}

/** `wager-keeper deploy ARGS` in this process (stdout not a terminal: JSON lines). */
export async function runDeploy(localnet: Localnet, args: string[], dataDir: string): Promise<DeployRun> {
  const lines: string[] = [];
  const events: JsonEvent[] = [];
  const close = epochCloser(localnet);
  const code = await deployCommand(args, {
    output: {
      stdout: (line) => {
        lines.push(line);
        const parsed = JSON.parse(line) as JsonEvent;
        if (typeof parsed.event === 'string') {
          events.push(parsed);
          close(parsed as Parameters<typeof close>[0]);
        }
      },
      stderr: () => undefined,
      stderrIsTTY: false,
    },
    deploymentsFolder: dataDir,
  });
  return { code, lines, events, last: JSON.parse(lines.at(-1)!) };
}

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string[];
  stderr: string;
}

/**
 * `bin/wager-keeper.js deploy ARGS` as a child process (XDG_DATA_HOME in `dataHome`). `onLine` sees each
 * stdout line as it comes and may kill the child.
 */
export function spawnDeploy(localnet: Localnet, args: string[], dataHome: string, onLine?: (line: string, kill: () => void) => void): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'deploy', ...args], { env: { ...process.env, XDG_DATA_HOME: dataHome }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    let stderr = '';
    let pending = '';
    const close = epochCloser(localnet);
    const kill = () => child.kill('SIGKILL');
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        stdout.push(line);
        try {
          close(JSON.parse(line) as Parameters<typeof close>[0]);
        } catch {
          // not JSON: kept as is
        }
        onLine?.(line, kill);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The fees the deployer paid (as fee payer), read from its transactions on chain, and how many there were. */
export async function feesPaidBy(rpc: Rpc<SolanaRpcApi>, payer: Address): Promise<{ lamports: bigint; transactions: number }> {
  const signatures = await rpc.getSignaturesForAddress(payer, { limit: 1000 }).send();
  let lamports = 0n;
  let transactions = 0;
  for (const { signature } of signatures) {
    const tx = await rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    if (tx?.transaction.message.accountKeys[0] !== payer) continue; // e.g. the airdrop, paid by the faucet
    lamports += tx.meta!.fee;
    transactions++;
  }
  return { lamports, transactions };
}

/** The number of signatures that name `account` (its transactions). */
export const signatureCount = async (rpc: Rpc<SolanaRpcApi>, account: Address) => (await rpc.getSignaturesForAddress(account, { limit: 1000 }).send()).length;

export const balanceOf = async (rpc: Rpc<SolanaRpcApi>, account: Address) => (await rpc.getBalance(account, { commitment: 'confirmed' }).send()).value;

/** Loader buffers whose authority is `authority` (tag 1, Some(authority) at byte 4). */
export async function buffersOf(rpc: Rpc<SolanaRpcApi>, authority: Address) {
  return rpc
    .getProgramAccounts(address('BPFLoaderUpgradeab1e11111111111111111111111'), {
      encoding: 'base64',
      dataSlice: { offset: 0, length: 0 },
      filters: [
        { memcmp: { offset: 0n, bytes: getBase58Decoder().decode(new Uint8Array([1, 0, 0, 0])) as never, encoding: 'base58' } },
        { memcmp: { offset: 5n, bytes: authority as never, encoding: 'base58' } },
      ],
    })
    .send();
}

/**
 * A plain JSON-RPC in front of the localnet: the localnet's own `localnet_*` methods are "method not
 * found" (as on any validator), and `getGenesisHash` can be made to answer another cluster's hash.
 */
export async function plainRpcProxy(target: string, options: { genesisHash?: string } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const call = JSON.parse(body) as { id: unknown; method: string };
      const answer = (value: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (call.method.startsWith('localnet_')) return answer({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } });
      if (call.method === 'getGenesisHash' && options.genesisHash) return answer({ jsonrpc: '2.0', id: call.id, result: options.genesisHash });
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (upstream) => {
          response.writeHead(upstream.status, { 'content-type': 'application/json' });
          response.end(await upstream.text());
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * A working variant of the wager program, built with the project's toolchain from the same sources plus
 * one more C file holding a 4 KiB constant: different and larger bytes, the same instructions.
 */
export async function buildWagerVariant(outFile: string): Promise<Uint8Array> {
  const root = await mkdtemp(join(tmpdir(), 'wager-variant-'));
  try {
    await mkdir(join(root, 'program'), { recursive: true });
    await cp(join(REPO_ROOT, 'program', 'wager'), join(root, 'program', 'wager'), { recursive: true, filter: (source) => !source.includes('__tests__') });
    await cp(join(REPO_ROOT, 'program', 'include'), join(root, 'program', 'include'), { recursive: true });
    await writeFile(join(root, 'program', 'wager', 'zz_build_variant.c'), 'const char wager_build_variant[4096] = "wager-keeper deploy test: variant build";\n');
    const bytes = await buildProgram('wager', { root });
    await writeFile(outFile, bytes);
    return bytes;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The SlotHashes sysvar: u64 count, then (u64 slot, 32-byte hash) entries, newest first. */
export async function readSlotHashes(rpc: Rpc<SolanaRpcApi>) {
  const { value } = await rpc.getAccountInfo(address('SysvarS1otHashes111111111111111111111111111'), { encoding: 'base64' }).send();
  const data = new Uint8Array(Buffer.from(value!.data[0], 'base64'));
  const u64 = getU64Decoder();
  return Array.from({ length: Number(u64.decode(data, 0)) }, (_, i) => ({
    slot: u64.decode(data, 8 + i * 40),
    hash: getBase58Decoder().decode(data.subarray(16 + i * 40, 48 + i * 40)),
  }));
}

/** Account bytes, or null. */
export async function accountBytes(rpc: Rpc<SolanaRpcApi>, account: Address): Promise<Uint8Array | null> {
  const { value } = await rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send();
  return value ? new Uint8Array(Buffer.from(value.data[0], 'base64')) : null;
}

export const rpcOf = (localnet: Localnet) => createSolanaRpc(localnet.rpcUrl);
export const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as unknown;

/** Signs and sends `instructions` with `feePayer` (and any signer they name) with preflight; resolves once confirmed. */
export async function sendInstructions(rpc: Rpc<SolanaRpcApi>, feePayer: KeyPairSigner, instructions: readonly Instruction[]): Promise<Signature> {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(signed);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
  await waitFor(async () => {
    const status = (await rpc.getSignatureStatuses([signature]).send()).value[0];
    if (status?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    return status?.confirmationStatus ? true : undefined;
  }, `transaction ${signature} to land`);
  return signature;
}

/** Polls `read` until it returns something other than undefined; throws after `ms` naming `what`. */
export async function waitFor<T>(read: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
