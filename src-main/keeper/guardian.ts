/**
 * The guardian: the holder of the deployment's guardian key, beside the keeper. The spec's operating
 * target is to pause new wagers within 60 slots of an oracle stall: from the keeper's records (wagers
 * waiting for randomness since `requestedSlot`) it sends the wager program's `set_paused` once a request
 * has waited `pauseAfterSlots`, and resumes once the oracle has fulfilled again (the keeper's `latency`
 * events) for `resumeAfterSlots` slots with no request waiting past the threshold. It only resumes a
 * pause it made itself: the config's paused flag is read on chain before each action, and a pause or
 * resume by a person (the console's buttons, or any other signer of the guardian key) wins for that
 * stall. A person's own pause and resume go through here too, so that every action is logged, counted
 * and listed with its reason.
 */
import type { Address, KeyPairSigner, Rpc, SolanaRpcApi } from '@solana/kit';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { createSignatureConfirmer } from '../chain/signature-confirmer';
import { createTransactionSender, TransactionFailedError } from '../chain/transaction-sender';
import { customErrorName } from '../protocol/program-errors';
import { findConfigPda, getSetPausedInstructionAsync } from '../protocol/wager';
import { fetchConfig } from './chain-view';
import type { Keeper } from './keeper';

/** The spec's target: new wagers paused within 60 slots of a stall. */
export const DEFAULT_PAUSE_AFTER_SLOTS = 60;
/** Slots of fulfilments, with nothing waiting past the threshold, before the guardian resumes its own pause. */
export const DEFAULT_RESUME_AFTER_SLOTS = 20;
/** The guardian's last actions kept for the console (in memory: a restarted guardian starts a new list). */
export const GUARDIAN_ACTIONS_KEPT = 20;
/** A failed send is tried again after this long, doubling (a guardian short of SOL must not send every slot). */
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 30_000;
/** How long stop() waits for a pause or resume in flight (as the keeper waits for its cranks). */
const STOP_GRACE_MS = 15_000;

/** One pause or resume, by the guardian on its own (`guardian`) or asked for by a person (`person`). */
export interface GuardianAction {
  action: 'pause' | 'resume';
  by: 'guardian' | 'person';
  /** Unix ms. */
  at: number;
  /** The slot the transaction landed in. */
  slot: number;
  reason: string;
  signature: string;
}

export interface GuardianEvents {
  action: [GuardianAction];
}

export interface GuardianSettings {
  /** Pause and resume by itself (off: only a person's actions are sent). */
  automatic: boolean;
  pauseAfterSlots: number;
  resumeAfterSlots: number;
}

export interface GuardianOptions extends Partial<GuardianSettings> {
  /** Read only: its records (requests waiting) and events (`latency`: a fulfilment seen; `health`: a pass ended). */
  keeper: Pick<Keeper, 'records' | 'events'>;
  rpc: Rpc<SolanaRpcApi>;
  /** The guardian key: signs set_paused and pays for it. */
  signer: KeyPairSigner;
  /** The deployment's wager program (its config PDA is derived under it). */
  programAddress: Address;
  priorityFeeMicroLamports?: bigint;
  logger?: Logger;
  now?: () => number;
}

/** What the console shows of the guardian. */
export interface GuardianState extends GuardianSettings {
  address: Address;
  /** The pause now in force is the guardian's own: it resumes it by itself. */
  pausedByGuardian: boolean;
  /** The last automatic check or send that failed (null once one succeeds). */
  lastError: string | null;
}

export interface Guardian {
  readonly address: Address;
  readonly events: EventEmitter<GuardianEvents>;
  /** Follows the keeper: one check after each of its passes. */
  start(): void;
  stop(): Promise<void>;
  configure(changes: Partial<GuardianSettings>): void;
  /** One automatic check now (the keeper's passes call it; tests may too): the action sent, if any. */
  check(): Promise<GuardianAction | null>;
  /** A person's pause or resume (the console's buttons), sent at once; throws with the reason when refused. */
  setPaused(paused: boolean, reason: string): Promise<GuardianAction>;
  /** The config on chain: whether new wagers are paused, and who the guardian is. */
  readConfig(): Promise<{ paused: boolean; guardian: Address }>;
  /** The last actions, newest first. */
  actions(): GuardianAction[];
  state(): GuardianState;
}

/** A guardian key that is not the one the deployment's config names: it could not pause anything. */
export class GuardianKeyError extends Error {
  constructor(
    readonly key: Address,
    readonly guardian: Address,
  ) {
    super(`the key ${key} is not this deployment's guardian (its config on chain names ${guardian}): only that key can pause new wagers`);
    this.name = 'GuardianKeyError';
  }
}

/** The guardian the deployment's config names on chain. */
export async function readConfiguredGuardian(rpc: Rpc<SolanaRpcApi>, programAddress: Address): Promise<Address> {
  const [config] = await findConfigPda({ programAddress });
  return (await fetchConfig(rpc, config, programAddress)).guardian;
}

/** Throws GuardianKeyError when `signer` is not the config's guardian (an RPC failure is thrown as is). */
export async function assertIsDeploymentGuardian(rpc: Rpc<SolanaRpcApi>, programAddress: Address, signer: KeyPairSigner): Promise<void> {
  const guardian = await readConfiguredGuardian(rpc, programAddress);
  if (guardian !== signer.address) throw new GuardianKeyError(signer.address, guardian);
}

export function createGuardian(options: GuardianOptions): Guardian {
  const { keeper, rpc, signer, programAddress } = options;
  const log = options.logger;
  const now = options.now ?? Date.now;
  const events = new EventEmitter<GuardianEvents>();
  const confirmer = createSignatureConfirmer(rpc);
  const sender = createTransactionSender({ rpc, confirmer, payer: signer, priorityFeeMicroLamports: options.priorityFeeMicroLamports });
  const settings: GuardianSettings = {
    automatic: options.automatic ?? true,
    pauseAfterSlots: options.pauseAfterSlots ?? DEFAULT_PAUSE_AFTER_SLOTS,
    resumeAfterSlots: options.resumeAfterSlots ?? DEFAULT_RESUME_AFTER_SLOTS,
  };
  const history: GuardianAction[] = [];

  /** The slot our own pause landed in while it is in force (null: the pause in force, if any, is not ours). */
  let ownPauseSlot: number | null = null;
  /** First fulfilment seen after our pause landed. */
  let fulfilledAgainAt: number | null = null;
  /** Since when no request has waited past the threshold (null while one does). */
  let clearSince: number | null = null;
  /** A person decided during this stall (paused or resumed themselves): the guardian leaves it until the stall clears. */
  let personDecided = false;
  let lastError: string | null = null;
  let retryAt = 0;
  let failures = 0;
  let checking: Promise<GuardianAction | null> | undefined;
  let running = false;
  let stopped = false;

  const configAddress = findConfigPda({ programAddress }).then(([address]) => address);
  const readConfig = async () => {
    const config = await fetchConfig(rpc, await configAddress, programAddress);
    return { paused: config.paused !== 0, guardian: config.guardian };
  };

  const record = (action: GuardianAction) => {
    history.unshift(action);
    history.length = Math.min(history.length, GUARDIAN_ACTIONS_KEPT);
    const fields = { action: action.action, by: action.by, slot: action.slot, signature: action.signature, guardian: signer.address };
    if (action.action === 'pause') log?.warn(fields, `new wagers paused: ${action.reason}`);
    else log?.info(fields, `new wagers resumed: ${action.reason}`);
    events.emit('action', action);
  };

  /** Sends set_paused and names a refusal by the wager program's error names. */
  const send = async (paused: boolean): Promise<{ signature: string; slot: number }> => {
    const instruction = await getSetPausedInstructionAsync({ guardian: signer, config: await configAddress, paused: paused ? 1 : 0 }, { programAddress });
    try {
      const sent = await sender.send([instruction]);
      return { signature: sent.signature, slot: Number(sent.slot) };
    } catch (error) {
      if (error instanceof TransactionFailedError && error.customCode !== undefined)
        throw new Error(`set_paused was refused: ${customErrorName(error.failingProgram, error.customCode, { wager: programAddress, oracle: '' })}`, { cause: error });
      throw error;
    }
  };

  /** The request waiting longest for randomness, from the keeper's records (those with a known request slot). */
  const oldestWaiting = () => {
    let oldest: { wager: string; requestedSlot: number } | null = null;
    for (const record of keeper.records.byState(['requested']))
      if (record.requestedSlot !== null && (!oldest || record.requestedSlot < oldest.requestedSlot)) oldest = { wager: record.address, requestedSlot: record.requestedSlot };
    return oldest;
  };

  const failed = (what: string, error: unknown) => {
    const message = `${what}: ${(error as Error).message}`;
    failures += 1;
    retryAt = now() + Math.min(RETRY_BASE_MS * 2 ** (failures - 1), RETRY_MAX_MS);
    if (lastError !== message) log?.error({ guardian: signer.address, error: (error as Error).message, retryInMs: retryAt - now() }, `guardian: ${what} failed; trying again later`);
    lastError = message;
    return null;
  };
  const succeeded = () => {
    failures = 0;
    retryAt = 0;
    lastError = null;
  };

  const checkOnce = async (): Promise<GuardianAction | null> => {
    if (!settings.automatic || stopped || now() < retryAt) return null;
    const oldest = oldestWaiting();
    // Nothing waits and no pause of ours to lift: no RPC call at all.
    if (!oldest && ownPauseSlot === null) {
      personDecided = false;
      return null;
    }
    let slot: number;
    try {
      slot = Number(await rpc.getSlot({ commitment: 'confirmed' }).send());
    } catch (error) {
      return failed('reading the slot', error);
    }
    const waited = oldest ? slot - oldest.requestedSlot : 0;
    if (oldest && waited >= settings.pauseAfterSlots) {
      clearSince = null;
      if (ownPauseSlot !== null || personDecided) return null;
      const reason = `oracle stalled: request of wager ${oldest.wager} waited ${waited} slots (the guardian pauses from ${settings.pauseAfterSlots})`;
      try {
        // Read before acting: a pause already in force is someone else's, never ours to lift.
        const config = await readConfig();
        if (config.guardian !== signer.address) throw new GuardianKeyError(signer.address, config.guardian);
        if (config.paused) {
          personDecided = true;
          log?.info({ guardian: signer.address, wager: oldest.wager, waitedSlots: waited }, `${reason}; new wagers are already paused (not by this guardian), so it leaves them to whoever paused`);
          return null;
        }
        const sent = await send(true);
        succeeded();
        ownPauseSlot = sent.slot;
        fulfilledAgainAt = null;
        const action: GuardianAction = { action: 'pause', by: 'guardian', at: now(), slot: sent.slot, reason, signature: sent.signature };
        record(action);
        return action;
      } catch (error) {
        return failed('pausing new wagers', error);
      }
    }
    clearSince ??= slot;
    personDecided = false;
    if (ownPauseSlot === null || fulfilledAgainAt === null) return null;
    const since = Math.max(fulfilledAgainAt, clearSince);
    if (slot - since < settings.resumeAfterSlots) return null;
    try {
      const config = await readConfig();
      if (!config.paused) {
        // Someone resumed already: nothing of ours is in force any more.
        ownPauseSlot = null;
        log?.info({ guardian: signer.address }, 'the guardian would resume new wagers, but they are already resumed');
        return null;
      }
      if (config.guardian !== signer.address) throw new GuardianKeyError(signer.address, config.guardian);
      const reason = `oracle fulfilling again: a fulfilment seen at slot ${fulfilledAgainAt}, and no request waiting ${settings.pauseAfterSlots}+ slots for ${slot - since} slots since (the guardian resumes after ${settings.resumeAfterSlots})`;
      const sent = await send(false);
      succeeded();
      ownPauseSlot = null;
      const action: GuardianAction = { action: 'resume', by: 'guardian', at: now(), slot: sent.slot, reason, signature: sent.signature };
      record(action);
      return action;
    } catch (error) {
      return failed('resuming new wagers', error);
    }
  };

  const check = () => (checking ??= checkOnce().finally(() => (checking = undefined)));

  const onHealth = () => void check();
  const onLatency = (latency: { fulfilledSlot: number }) => {
    if (ownPauseSlot !== null && fulfilledAgainAt === null && latency.fulfilledSlot >= ownPauseSlot) fulfilledAgainAt = latency.fulfilledSlot;
  };

  return {
    address: signer.address,
    events,
    start() {
      if (running || stopped) return;
      running = true;
      keeper.events.on('health', onHealth);
      keeper.events.on('latency', onLatency);
    },
    async stop() {
      stopped = true;
      running = false;
      keeper.events.off('health', onHealth);
      keeper.events.off('latency', onLatency);
      // A send in flight may take a while to land (or never, with the RPC gone): wait for it, within bounds.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([checking, new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(grace);
      confirmer.stop();
    },
    configure(changes) {
      const before = JSON.stringify(settings);
      if (changes.automatic !== undefined) settings.automatic = changes.automatic;
      if (changes.pauseAfterSlots !== undefined) settings.pauseAfterSlots = changes.pauseAfterSlots;
      if (changes.resumeAfterSlots !== undefined) settings.resumeAfterSlots = changes.resumeAfterSlots;
      if (JSON.stringify(settings) === before) return;
      log?.info({ guardian: signer.address, ...settings }, settings.automatic ? 'guardian: pauses new wagers automatically when the oracle stalls' : 'guardian: automatic pausing off');
    },
    check,
    async setPaused(paused, reason) {
      const config = await readConfig();
      if (config.guardian !== signer.address) throw new GuardianKeyError(signer.address, config.guardian);
      if (config.paused === paused) throw new Error(`new wagers are already ${paused ? 'paused' : 'open'}: nothing was sent`);
      const sent = await send(paused);
      // A person's choice: a pause is theirs (the guardian never lifts it); a resume stands for this stall.
      ownPauseSlot = null;
      personDecided = true;
      const action: GuardianAction = { action: paused ? 'pause' : 'resume', by: 'person', at: now(), slot: sent.slot, reason, signature: sent.signature };
      record(action);
      return action;
    },
    readConfig,
    actions: () => [...history],
    state: () => ({ address: signer.address, ...settings, pausedByGuardian: ownPauseSlot !== null, lastError }),
  };
}
