/**
 * What every part of the keeper shares: the chain, the store, the clock, the event stream, whether it
 * runs or is paused, and the one way work is launched (so that stop() can let the work in flight finish).
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { ChainConnection } from '../chain/rpc-connection';
import type { Database } from '../store/database';
import { createWagerRecordStore, type WagerRecord, type WagerRecordChanges, type WagerRecordStore } from '../store/wager-records';
import type { KeeperEvents } from './keeper-events';

export interface KeeperContext {
  readonly connection: ChainConnection;
  readonly rpc: ChainConnection['rpc'];
  /** The deployment's wager program. */
  readonly program: Address;
  readonly signer: KeyPairSigner;
  readonly records: WagerRecordStore;
  readonly events: EventEmitter<KeeperEvents>;
  readonly now: () => number;
  readonly log?: Logger;
  /** Between start() and stop(). */
  running: boolean;
  /** While paused no new crank is sent (setPaused). */
  paused: boolean;
  /** Changes a wager's record and tells the console. */
  change(address: string, changes: WagerRecordChanges): WagerRecord | undefined;
  /** Runs a piece of work beside the pass (a crank, a history read); none starts after stop() or while paused. */
  launch(work: () => Promise<void>): void;
  /** Waits for the launched work to end, at most `graceMs`. */
  drain(graceMs: number): Promise<void>;
}

export interface KeeperContextOptions {
  connection: ChainConnection;
  program: Address;
  signer: KeyPairSigner;
  db: Database;
  now: () => number;
  log?: Logger;
}

export function createKeeperContext({ connection, program, signer, db, now, log }: KeeperContextOptions): KeeperContext {
  const records = createWagerRecordStore(db, () => new Date(now()));
  const events = new EventEmitter<KeeperEvents>();
  const launched = new Set<Promise<void>>();
  const context: KeeperContext = {
    connection,
    rpc: connection.rpc,
    program,
    signer,
    records,
    events,
    now,
    log,
    running: false,
    paused: false,
    change(address, changes) {
      const record = records.update(address, changes);
      if (record) events.emit('record', record);
      return record;
    },
    launch(work) {
      // A pass that started before stop() (a late slot notification) must not send anything new after it.
      if (!context.running || context.paused) return;
      // Fix: remember each piece of work in flight so that stop() can let it finish (see drain).
      const step = work().catch((error: Error) => void log?.error({ error: error.message }, 'crank step crashed'));
      launched.add(step);
      void step.finally(() => launched.delete(step));
    },
    async drain(graceMs) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...launched]), new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
      clearTimeout(grace);
    },
  };
  return context;
}
