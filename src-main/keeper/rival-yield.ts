/**
 * Keepers that know nothing of each other (issue 19, "Wasted fees"): every racer's simulation passes at
 * once, so all of them land and all but one fail on chain, fees paid. Once this keeper has lost a race, it
 * learns the winner's key (the fee payer of the transaction that beat it) and from then on ranks, for each
 * wager, itself and the rivals it knows by SHA-256(key bytes || wager address bytes): the lowest score sends
 * at the step's due slot, the next one step later, the rest two steps later (a step: 2 slots, or this
 * keeper's recent crank latency + 1 when longer, at most 8). Each keeper
 * computes the same order, so racers take turns instead of landing together, and the winner is not
 * delayed. A keeper alone (no rival seen) never waits; a rival not seen winning for RIVAL_TTL_MS is
 * forgotten (a stopped rival delays only the wagers it ranked first, by a step, until then).
 */
import { getAddressEncoder, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';
import type { KeeperContext } from './keeper-context';
import { walkToOpening } from '../history/wager-history-walk';

/**
 * Slots between one rival's turn and the next, at least: a rival that sends before the previous one's
 * crank is visible races it anyway. The step is this keeper's own recent crank latency (pass to landing,
 * 90th percentile of the last LATENCY_SAMPLES) plus one, from YIELD_STEP_SLOTS to MAX_YIELD_STEP_SLOTS:
 * a rival's crank takes about as long as ours (measured here, under load, 3+ slots at times).
 */
export const YIELD_STEP_SLOTS = 2;
const MAX_YIELD_STEP_SLOTS = 8;
const LATENCY_SAMPLES = 50;
/** Ranks past the first that wait more (the third and later all wait 2 steps). */
const MAX_YIELD_RANK = 2;
/** A rival not seen winning a race for this long is forgotten. */
export const RIVAL_TTL_MS = 10 * 60_000;
/** Lookups of a race's winner at once (each is two RPC calls; races become rare once rivals are known). */
const MAX_LOOKUPS = 2;
/** Lost races waiting for a lookup; more are not looked up (the queue's rivals are being learned already). */
const MAX_QUEUED = 32;
/** Signatures read per lookup: the wager's newest, where the winning crank is. */
const LOOKUP_DEPTH = 10;

export interface RivalYield {
  /** Slots this keeper waits past a wager's due slot for the rivals it ranks behind (0 when alone). */
  offset(wager: Address): number;
  /** One of this keeper's cranks landed `slots` after the pass that sent it. */
  landedAfter(slots: number): void;
  /** Rivals known now (their addresses). */
  rivals(): string[];
  /**
   * The other members of this keeper's fleet (their keys, from Settings → Fleet's members): never ranked
   * as rivals, since the shards already say whose turn it is. Without this, a takeover race lost to a
   * member made the two take turns on their own shards too, for RIVAL_TTL_MS.
   */
  setPeers(addresses: readonly string[]): void;
}

const encoder = getAddressEncoder();
const score = (keeper: Address, wager: Address): bigint =>
  createHash('sha256').update(encoder.encode(keeper) as Uint8Array).update(encoder.encode(wager) as Uint8Array).digest().readBigUInt64BE(0);

export function createRivalYield(ctx: KeeperContext): RivalYield {
  const { rpc, program, signer, events, now, log } = ctx;
  const self = signer.address;
  /** Rival address -> when last seen winning (Unix ms). */
  const known = new Map<Address, number>();
  const peers = new Set<string>();
  const pending = new Set<Address>();
  let lookups = 0;

  const current = (): Address[] => {
    const cutoff = now() - RIVAL_TTL_MS;
    for (const [rival, seen] of known) if (seen < cutoff) known.delete(rival);
    return [...known.keys()];
  };

  /** The fee payer of the wager's newest successful transaction after its opening: the keeper that beat us. */
  const winnerOf = async (wager: Address): Promise<Address | undefined> => {
    let winner: Address | undefined;
    // Newest first, one short page; the walk ends at the opening (the app's, not a keeper's).
    await walkToOpening(rpc, wager, program, { pageSize: LOOKUP_DEPTH, pages: 1 }, {
      visit: (_event, tx) => {
        winner = tx.transaction?.transaction.message.accountKeys[0];
        return true;
      },
    });
    return winner;
  };

  /** Races lost and not looked up yet: a short queue (early on, before the rivals are known, many are lost at once). */
  const queue: Address[] = [];
  const next = () => {
    // Launched work does not start while paused or stopped: nothing to look up then.
    if (!ctx.running || ctx.paused) {
      for (const wager of queue.splice(0)) pending.delete(wager);
      return;
    }
    while (lookups < MAX_LOOKUPS && queue.length > 0) {
      const wager = queue.shift()!;
      lookups++;
      ctx.launch(async () => {
        try {
          const winner = await winnerOf(wager);
          if (winner && winner !== self && !peers.has(winner)) {
            if (!known.has(winner)) log?.info({ rival: winner, wager }, 'another keeper cranks the same wagers: taking turns with it (rival-yield)');
            known.set(winner, now());
          }
        } catch (error) {
          log?.debug({ wager, error: (error as Error).message }, 'could not read who won a race');
        } finally {
          pending.delete(wager);
          lookups--;
          next();
        }
      });
    }
  };
  const learn = (wager: Address) => {
    if (pending.has(wager) || queue.length >= MAX_QUEUED) return;
    pending.add(wager);
    queue.push(wager);
    next();
  };

  events.on('step', (step) => {
    if (step.outcome === 'lost' && step.wager) learn(step.wager as Address);
  });

  const latencies: number[] = [];
  let step = YIELD_STEP_SLOTS;

  return {
    rivals: () => current().map(String),
    setPeers(addresses) {
      peers.clear();
      for (const peer of addresses) if (peer !== self) peers.add(peer);
      for (const peer of peers) known.delete(peer as Address);
    },
    landedAfter(slots) {
      latencies.push(slots);
      if (latencies.length > LATENCY_SAMPLES) latencies.shift();
      const sorted = [...latencies].sort((a, b) => a - b);
      const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))]!;
      step = Math.max(YIELD_STEP_SLOTS, Math.min(MAX_YIELD_STEP_SLOTS, p90 + 1));
    },
    offset(wager) {
      const rivals = current();
      if (rivals.length === 0) return 0;
      const mine = score(self, wager);
      const ahead = rivals.filter((rival) => score(rival, wager) < mine).length;
      return Math.min(ahead, MAX_YIELD_RANK) * step;
    },
  };
}
