/**
 * Deploys or upgrades an upgradeable program over JSON-RPC the way `solana program deploy` does, and
 * resumably: the program is written into a buffer in chunks (Write transactions in parallel, bounded),
 * then DeployWithMaxDataLen (a new program, program data sized to the program) or Upgrade (first
 * ExtendProgram when the new build is larger). What is missing is always read from the chain: the
 * buffer's bytes are compared chunk by chunk with the build, so a run killed at any moment continues with
 * only the chunks that are not there. Buffer rent is never left behind: the buffer is reused, consumed
 * by the deploy/upgrade, or closed back to the deployer.
 *
 * `planProgramDeploy` reads the chain and says what would be sent and what it costs (dry runs, the
 * funds check); `executeProgramDeploy` sends it.
 */
import type { Address, Instruction, KeyPairSigner, Rpc, SolanaRpcApi } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { refusalLine } from '../protocol/program-error-sentences';
import type { ErrorNamingPrograms } from '../protocol/program-errors';
import { TransactionFailedError, type TransactionSender } from './transaction-sender';
import {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  BUFFER_METADATA_SIZE,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAM_DATA_METADATA_SIZE,
  WRITE_CHUNK_SIZE,
  decodeUpgradeableLoaderAccount,
  findProgramDataAddress,
  getCloseInstruction,
  getDeployWithMaxDataLenInstruction,
  getExtendProgramCheckedInstruction,
  getExtendProgramInstruction,
  getInitializeBufferInstruction,
  getUpgradeInstruction,
  getWriteInstruction,
} from './upgradeable-loader';

/** Write transactions in flight at once: fast on any RPC, gentle on public ones' rate limits. */
export const DEFAULT_WRITE_CONCURRENCY = 8;

/** The buffer a deploy writes the program into, remembered across runs (the chain says what it holds). */
export interface BufferKeyStore {
  /** The remembered buffer keypair, or null. */
  load(): Promise<KeyPairSigner | null>;
  /** A fresh buffer keypair, remembered before it is used on chain. */
  create(): Promise<KeyPairSigner>;
  /** Forgets the buffer (it was consumed by a deploy or upgrade, or closed). */
  clear(): Promise<void>;
}

/** One transaction of a plan, for its cost: base fee per signature. */
export interface PlannedTransaction {
  label: string;
  signatures: number;
}

/** What a deploy of one program would do, read from the chain. */
export interface ProgramDeployPlan {
  /** `unchanged`: the program data already holds the build, nothing is sent for the program. */
  action: 'deploy' | 'upgrade' | 'unchanged';
  program: Address;
  programData: Address;
  /** The deploy creates the program account (false when it exists uninitialized, or for upgrades). */
  createProgramAccount: boolean;
  /** Bytes ExtendProgram adds before the upgrade (0: none). */
  extendBytes: number;
  /** The buffer the program is written into; null for `unchanged`. */
  buffer: {
    /** The remembered buffer, when it still exists on chain with this build's size and our authority. */
    reused: Address | null;
    /** Chunks whose bytes are not in the buffer yet (all of them for a new buffer, except all-zero ones). */
    chunksToWrite: number;
    chunks: number;
  } | null;
  /** Buffers that will be closed back to the deployer (a leftover of another build), with their lamports. */
  closeBuffers: { address: Address; lamports: bigint; reason: string }[];
  /** A remembered buffer that is gone or not ours any more: forgotten, nothing to close. */
  forgetBuffer: boolean;
  transactions: PlannedTransaction[];
  /** The program's upgrade authority once the plan is carried out (the deployer after a deploy or upgrade). */
  upgradeAuthority: Address | null;
  /** Rent that stays paid: program account and program data (or its extension). */
  rentLamports: bigint;
  /** Rent held by a new buffer while the program is written; it comes back at the deploy or upgrade. */
  heldLamports: bigint;
  /** Lamports the closed buffers return. */
  refundLamports: bigint;
}

export type ProgramDeployProgress =
  | { step: 'program'; action: ProgramDeployPlan['action']; program: Address }
  | { step: 'close-buffer'; buffer: Address; lamports: bigint; reason: string }
  | { step: 'buffer'; buffer: Address; reused: boolean; chunks: number; alreadyWritten: number; toWrite: number }
  | { step: 'write'; chunk: number; written: number; toWrite: number; chunks: number }
  | { step: 'extend'; additionalBytes: number; signature: string }
  | { step: 'deploy' | 'upgrade'; signature: string; slot: bigint };

export interface ProgramDeployInput {
  rpc: Rpc<SolanaRpcApi>;
  /** Pays everything, owns the buffer and is (or becomes) the program's upgrade authority. */
  deployer: Address;
  program: Address;
  /** Whether the program keypair is at hand (a new program needs it to sign its account's creation). */
  hasProgramKeypair: boolean;
  bytes: Uint8Array;
  /** The buffer remembered from an earlier run, if any. */
  rememberedBuffer: Address | null;
}

type AccountRead = { owner: Address; lamports: bigint; data: Uint8Array } | null;

async function readAccount(rpc: Rpc<SolanaRpcApi>, account: Address): Promise<AccountRead> {
  const { value } = await rpc.getAccountInfo(account, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) return null;
  return { owner: value.owner, lamports: value.lamports, data: new Uint8Array(Buffer.from(value.data[0], 'base64')) };
}

/** Indexes of the chunks of `bytes` that `written` (the buffer's program bytes) does not hold yet. */
export function chunksMissing(written: Uint8Array, bytes: Uint8Array, chunkSize = WRITE_CHUNK_SIZE): number[] {
  const missing: number[] = [];
  for (let index = 0, offset = 0; offset < bytes.length; index++, offset += chunkSize) {
    const end = Math.min(offset + chunkSize, bytes.length);
    for (let i = offset; i < end; i++) {
      if (written[i] !== bytes[i]) {
        missing.push(index);
        break;
      }
    }
  }
  return missing;
}

/** Agave's floor for ExtendProgram (except up to the maximum size): `MINIMUM_EXTEND_PROGRAM_BYTES`. */
export const MINIMUM_EXTEND_PROGRAM_BYTES = 10_240;
/** The largest account, so the largest program data: `MAX_PERMITTED_DATA_LENGTH` (10 MiB). */
const MAX_PERMITTED_DATA_LENGTH = 10 * 1024 * 1024;

/**
 * How many bytes to add to program data holding `capacity` program bytes so that `needed` fit: 0 when
 * they fit, else at least the runtime's minimum extension (current runtimes refuse less), capped at the
 * largest account.
 * @example extensionFor(70_928, 75_024) // 10_240; extensionFor(75_024, 70_928) // 0
 */
export function extensionFor(capacity: number, needed: number): number {
  if (needed <= capacity) return 0;
  const room = MAX_PERMITTED_DATA_LENGTH - PROGRAM_DATA_METADATA_SIZE - capacity;
  if (needed - capacity > room) throw new Error(`a program of ${needed} bytes does not fit in an account (at most ${MAX_PERMITTED_DATA_LENGTH - PROGRAM_DATA_METADATA_SIZE})`);
  return Math.min(Math.max(needed - capacity, MINIMUM_EXTEND_PROGRAM_BYTES), room);
}

/** Whether program data bytes hold exactly `bytes` (an upgrade to a smaller build zero-fills the rest). */
export function holdsProgram(programBytes: Uint8Array, bytes: Uint8Array): boolean {
  if (programBytes.length < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (programBytes[i] !== bytes[i]) return false;
  for (let i = bytes.length; i < programBytes.length; i++) if (programBytes[i] !== 0) return false;
  return true;
}

/** The program's state on chain, checked: throws, naming the problem, when this deployer cannot deploy it. */
async function readProgram(input: ProgramDeployInput) {
  const { rpc, program, deployer } = input;
  const programData = await findProgramDataAddress(program);
  const account = await readAccount(rpc, program);
  if (!account) return { programData, exists: false as const };
  if (account.owner !== BPF_LOADER_UPGRADEABLE_ADDRESS) {
    throw new Error(`the program address ${program} is already an account owned by ${account.owner}, not an upgradeable program: use another program keypair`);
  }
  const state = decodeUpgradeableLoaderAccount(account.data);
  if (state.kind === 'uninitialized') return { programData, exists: false as const, uninitialized: true };
  if (state.kind !== 'program') throw new Error(`the program address ${program} holds a loader ${state.kind} account, not a program`);
  const dataAccount = await readAccount(rpc, state.programData);
  if (!dataAccount) throw new Error(`program ${program}: its program data account ${state.programData} is missing (the program was closed)`);
  const data = decodeUpgradeableLoaderAccount(dataAccount.data);
  if (data.kind !== 'programData') throw new Error(`program ${program}: ${state.programData} is not a program data account`);
  if (data.upgradeAuthority !== null && data.upgradeAuthority !== deployer && !holdsProgram(data.bytes, input.bytes)) {
    throw new Error(`program ${program} differs from this build and its upgrade authority is ${data.upgradeAuthority}, not the deployer ${deployer}: deploy with that keypair`);
  }
  if (data.upgradeAuthority === null && !holdsProgram(data.bytes, input.bytes)) {
    throw new Error(`program ${program} differs from this build and is immutable (no upgrade authority): it cannot be upgraded`);
  }
  return { programData: state.programData, exists: true as const, data, dataLamports: dataAccount.lamports };
}

/** Reads the program (and the remembered buffer) and plans what to send. Sends nothing. */
export async function planProgramDeploy(input: ProgramDeployInput): Promise<ProgramDeployPlan> {
  const { rpc, bytes, deployer } = input;
  const rent = async (size: number) => rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
  const onChain = await readProgram(input);
  const chunks = Math.ceil(bytes.length / WRITE_CHUNK_SIZE);
  const unchanged = onChain.exists && holdsProgram(onChain.data.bytes, bytes);

  const closeBuffers: ProgramDeployPlan['closeBuffers'] = [];
  let forgetBuffer = false;
  let reusable: { address: Address; written: Uint8Array } | null = null;
  if (input.rememberedBuffer) {
    const buffer = await readAccount(rpc, input.rememberedBuffer);
    const state = buffer?.owner === BPF_LOADER_UPGRADEABLE_ADDRESS ? decodeUpgradeableLoaderAccount(buffer.data) : null;
    if (!buffer || state?.kind !== 'buffer' || state.authority !== deployer) {
      forgetBuffer = true; // consumed by a deploy that landed, or not a buffer we can write or close
    } else if (unchanged) {
      closeBuffers.push({ address: input.rememberedBuffer, lamports: buffer.lamports, reason: 'the program already holds this build' });
    } else if (state.bytes.length !== bytes.length) {
      closeBuffers.push({ address: input.rememberedBuffer, lamports: buffer.lamports, reason: `it was sized for another build (${state.bytes.length} bytes, this build is ${bytes.length})` });
    } else {
      reusable = { address: input.rememberedBuffer, written: state.bytes };
    }
  }

  const transactions: PlannedTransaction[] = closeBuffers.map(() => ({ label: 'close leftover buffer', signatures: 1 }));
  const refundLamports = closeBuffers.reduce((sum, buffer) => sum + buffer.lamports, 0n);
  const programData = onChain.programData;
  const base = { program: input.program, programData, closeBuffers, forgetBuffer, refundLamports, upgradeAuthority: deployer };
  if (unchanged) {
    return { ...base, upgradeAuthority: onChain.data.upgradeAuthority, action: 'unchanged', createProgramAccount: false, extendBytes: 0, buffer: null, transactions, rentLamports: 0n, heldLamports: 0n };
  }

  const chunksToWrite = chunksMissing(reusable?.written ?? new Uint8Array(bytes.length), bytes).length;
  const heldLamports = reusable ? 0n : await rent(BUFFER_METADATA_SIZE + bytes.length);
  if (!reusable) transactions.push({ label: 'create buffer', signatures: 2 });
  for (let i = 0; i < chunksToWrite; i++) transactions.push({ label: 'write', signatures: 1 });
  const buffer = { reused: reusable?.address ?? null, chunksToWrite, chunks };

  if (!onChain.exists) {
    if (!input.hasProgramKeypair) throw new Error(`program ${input.program} does not exist yet: deploying it needs its keypair (--program-keypair FILE)`);
    const createProgramAccount = !onChain.uninitialized;
    transactions.push({ label: 'deploy', signatures: createProgramAccount ? 2 : 1 });
    const rentLamports = (createProgramAccount ? await rent(PROGRAM_ACCOUNT_SIZE) : 0n) + (await rent(PROGRAM_DATA_METADATA_SIZE + bytes.length));
    return { ...base, action: 'deploy', createProgramAccount, extendBytes: 0, buffer, transactions, rentLamports, heldLamports };
  }

  const extendBytes = extensionFor(onChain.data.bytes.length, bytes.length);
  let rentLamports = 0n;
  if (extendBytes > 0) {
    transactions.push({ label: 'extend program data', signatures: 1 });
    const needed = await rent(PROGRAM_DATA_METADATA_SIZE + onChain.data.bytes.length + extendBytes);
    rentLamports = needed > onChain.dataLamports ? needed - onChain.dataLamports : 0n;
  }
  transactions.push({ label: 'upgrade', signatures: 1 });
  return { ...base, action: 'upgrade', createProgramAccount: false, extendBytes, buffer, transactions, rentLamports, heldLamports };
}

export interface ProgramDeployExecution {
  rpc: Rpc<SolanaRpcApi>;
  sender: TransactionSender;
  deployer: KeyPairSigner;
  /** Needed for a new program (it signs the creation of the program account). */
  programKeypair: KeyPairSigner | null;
  bytes: Uint8Array;
  bufferKeys: BufferKeyStore;
  concurrency?: number;
  onProgress?: (progress: ProgramDeployProgress) => void;
}

export interface ProgramDeployResult {
  action: ProgramDeployPlan['action'];
  program: Address;
  programData: Address;
  /** The program data's deployment slot (of the last deploy or upgrade). */
  slot: bigint;
  upgradeAuthority: Address | null;
  transactions: number;
}

/** The runtime's or a program's own words for a failure: the last log line that is not invoke/success/consumed bookkeeping. */
function reasonFromLogs(logs: readonly string[]): string | undefined {
  return [...logs].reverse().find((line) => !/^Program \w+ (invoke \[\d+\]|success|consumed \d+)/.test(line));
}

/**
 * Sends one step's transaction; a refusal becomes an error naming the step and the reason from the logs
 * (`upgrade failed: simulation failed: {...} (Program was deployed in this slot already)`).
 */
export async function sendStep(sender: TransactionSender, label: string, instructions: readonly Instruction[], programs?: ErrorNamingPrograms) {
  try {
    return await sender.send(instructions);
  } catch (error) {
    if (!(error instanceof TransactionFailedError)) throw error;
    // A refusal of the service's own programs is said in words, with its next step (one mapping for every surface).
    if (programs && error.customCode !== undefined) throw new Error(`${label} failed: ${refusalLine(error, programs)}`, { cause: error });
    const reason = reasonFromLogs(error.logs);
    throw new Error(`${label} failed: ${error.message}${reason ? ` (${reason})` : ''}`, { cause: error });
  }
}

/** Runs `work` over `items`, at most `limit` at a time; stops taking new items after a failure. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Resolves once the cluster is past `slot` (a deployment is callable from the next slot on). */
export async function waitForSlotAfter(rpc: Rpc<SolanaRpcApi>, slot: bigint, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await rpc.getSlot({ commitment: 'confirmed' }).send()) <= slot) {
    if (Date.now() > deadline) throw new Error(`the cluster did not pass slot ${slot} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * ExtendProgramChecked (SIMD-0164) where the runtime has it, else ExtendProgram: runtimes with
 * `enable_extend_program_checked` active refuse the old one, the others refuse the new one, both with
 * InvalidInstructionData, so a simulation decides.
 */
async function extendInstruction(sender: TransactionSender, input: Parameters<typeof getExtendProgramCheckedInstruction>[0]): Promise<Instruction> {
  const checked = getExtendProgramCheckedInstruction(input);
  try {
    await sender.simulate([checked]);
    return checked;
  } catch (error) {
    if (error instanceof TransactionFailedError && error.message.includes('InvalidInstructionData')) return getExtendProgramInstruction(input);
    throw error;
  }
}

/** Sends what `plan` says (re-reading the buffer's bytes before and after writing). */
export async function executeProgramDeploy(plan: ProgramDeployPlan, execution: ProgramDeployExecution): Promise<ProgramDeployResult> {
  const { rpc, sender, deployer, bytes, bufferKeys } = execution;
  const progress = execution.onProgress ?? (() => undefined);
  let transactions = 0;
  const send: Send = async (label, instructions) => {
    const sent = await sendStep(sender, label, instructions);
    transactions++;
    return sent;
  };
  progress({ step: 'program', action: plan.action, program: plan.program });

  for (const leftover of plan.closeBuffers) {
    await send('close leftover buffer', [getCloseInstruction({ account: leftover.address, recipient: deployer.address, authority: deployer })]);
    progress({ step: 'close-buffer', buffer: leftover.address, lamports: leftover.lamports, reason: leftover.reason });
  }
  if (plan.closeBuffers.length > 0 || plan.forgetBuffer) await bufferKeys.clear();

  if (plan.action !== 'unchanged') {
    const buffer = plan.buffer?.reused ? await bufferKeys.load() : await createBuffer(execution, send);
    if (!buffer) throw new Error('the remembered buffer keypair disappeared while deploying');
    await writeBuffer(execution, buffer.address, Boolean(plan.buffer?.reused), send);

    let landed: bigint;
    if (plan.action === 'deploy') {
      if (!execution.programKeypair) throw new Error(`program ${plan.program} does not exist yet: deploying it needs its keypair`);
      const program = execution.programKeypair;
      const instructions: Instruction[] = [];
      if (plan.createProgramAccount) {
        const lamports = await rpc.getMinimumBalanceForRentExemption(BigInt(PROGRAM_ACCOUNT_SIZE)).send();
        instructions.push(getCreateAccountInstruction({ payer: deployer, newAccount: program, lamports, space: PROGRAM_ACCOUNT_SIZE, programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS }));
      }
      // Program data sized to the program, as `solana program deploy` does today: upgrades extend it.
      instructions.push(getDeployWithMaxDataLenInstruction({ payer: deployer, programData: plan.programData, program: program.address, buffer: buffer.address, authority: deployer, maxDataLen: bytes.length }));
      const sent = await send('deploy', instructions);
      landed = sent.slot;
      progress({ step: 'deploy', signature: sent.signature, slot: sent.slot });
    } else {
      if (plan.extendBytes > 0) {
        // The loader refuses to extend a program deployed or extended in the current slot.
        const current = await readProgramData(rpc, plan.programData);
        await waitForSlotAfter(rpc, current.slot);
        const extend = await extendInstruction(sender, { programData: plan.programData, program: plan.program, payer: deployer, authority: deployer, additionalBytes: plan.extendBytes });
        const sent = await send('extend program data', [extend]);
        progress({ step: 'extend', additionalBytes: plan.extendBytes, signature: sent.signature });
      }
      // The loader refuses to upgrade a program deployed, upgraded or extended in the current slot.
      await waitForSlotAfter(rpc, (await readProgramData(rpc, plan.programData)).slot);
      const sent = await send('upgrade', [getUpgradeInstruction({ programData: plan.programData, program: plan.program, buffer: buffer.address, spill: deployer.address, authority: deployer })]);
      landed = sent.slot;
      progress({ step: 'upgrade', signature: sent.signature, slot: sent.slot });
    }
    await bufferKeys.clear();
    await waitForSlotAfter(rpc, landed);
  }

  const final = await readProgramData(rpc, plan.programData);
  if (!holdsProgram(final.bytes, bytes)) throw new Error(`program ${plan.program}: its program data does not hold this build after the ${plan.action}`);
  return { action: plan.action, program: plan.program, programData: plan.programData, slot: final.slot, upgradeAuthority: final.upgradeAuthority, transactions };
}

async function readProgramData(rpc: Rpc<SolanaRpcApi>, programData: Address) {
  const account = await readAccount(rpc, programData);
  const state = account ? decodeUpgradeableLoaderAccount(account.data) : null;
  if (state?.kind !== 'programData') throw new Error(`${programData} is not a program data account`);
  return state;
}

type Send = (label: string, instructions: Instruction[]) => Promise<{ signature: string; slot: bigint }>;

/** A new buffer sized for the build, its keypair remembered before the account exists (or the remembered one, if its creation never landed). */
async function createBuffer(execution: ProgramDeployExecution, send: Send): Promise<KeyPairSigner> {
  const { rpc, deployer, bytes, bufferKeys } = execution;
  const remembered = await bufferKeys.load();
  const buffer = remembered && !(await readAccount(rpc, remembered.address)) ? remembered : await bufferKeys.create();
  const size = BUFFER_METADATA_SIZE + bytes.length;
  const lamports = await rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
  await send('create buffer', [
    getCreateAccountInstruction({ payer: deployer, newAccount: buffer, lamports, space: size, programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS }),
    getInitializeBufferInstruction(buffer.address, deployer.address),
  ]);
  return buffer;
}

/** Writes the chunks the buffer lacks, as read from the chain, until it holds the build (three rounds at most). */
async function writeBuffer(execution: ProgramDeployExecution, buffer: Address, reused: boolean, send: Send): Promise<void> {
  const { rpc, deployer, bytes, concurrency = DEFAULT_WRITE_CONCURRENCY } = execution;
  const progress = execution.onProgress ?? (() => undefined);
  const chunks = Math.ceil(bytes.length / WRITE_CHUNK_SIZE);
  for (let round = 0; ; round++) {
    const account = await readAccount(rpc, buffer);
    const state = account ? decodeUpgradeableLoaderAccount(account.data) : null;
    if (state?.kind !== 'buffer' || state.bytes.length !== bytes.length) throw new Error(`buffer ${buffer} is gone or resized while deploying`);
    const missing = chunksMissing(state.bytes, bytes);
    if (round === 0) progress({ step: 'buffer', buffer, reused, chunks, alreadyWritten: chunks - missing.length, toWrite: missing.length });
    if (missing.length === 0) return;
    if (round === 3) throw new Error(`buffer ${buffer} still lacks ${missing.length} chunks after three rounds of writes`);
    let written = 0;
    await forEachConcurrently(missing, concurrency, async (chunk) => {
      const offset = chunk * WRITE_CHUNK_SIZE;
      await send(`write chunk ${chunk}`, [getWriteInstruction(buffer, deployer, offset, bytes.subarray(offset, offset + WRITE_CHUNK_SIZE))]);
      progress({ step: 'write', chunk, written: ++written, toWrite: missing.length, chunks });
    });
  }
}
