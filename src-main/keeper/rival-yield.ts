/**
 * Keepers that know nothing of each other (issue 19, "Wasted fees"): every racer's simulation passes at
 * once, so all of them land and all but one fail on chain, fees paid. Once this keeper has lost a race, it
 * learns the winner's key (the fee payer of the transaction that beat it) and from then on ranks, for each
 * wager, itself and the rivals it knows by SHA-256(key bytes || wager address bytes): the lowest score sends
 * at the step's due slot, the next one slot later, the rest two slots later (MAX_YIELD_SLOTS). Each keeper
 * computes the same order, so racers take turns instead of landing together, and the winner is not
 * delayed. A keeper alone (no rival seen) never waits; a rival not seen winning for RIVAL_TTL_MS is
 * forgotten (a stopped rival delays only the wagers it ranked first, by a slot, until then).
 */
import { getAddressEncoder, type Address, type Signature } from '@solana/kit';
import { createHash } from 'node:crypto';
import type { KeeperContext } from './keeper-context';

/** The most a keeper yields on a wager, in slots past its due slot. */
export const MAX_YIELD_SLOTS = 2;
/** A rival not seen winning a race for this long is forgotten. */
export const RIVAL_TTL_MS = 10 * 60_000;
/** Lookups of a race's winner at once (each is two RPC calls; races become rare once rivals are known). */
const MAX_LOOKUPS = 2;
/** Signatures read per lookup: the wager's newest, where the winning crank is. */
const LOOKUP_DEPTH = 10;

export interface RivalYield {
  /** Slots this keeper waits past a wager's due slot for the rivals it ranks behind (0 when alone). */
  offset(wager: Address): number;
  /** Rivals known now (their addresses). */
  rivals(): string[];
}

const encoder = getAddressEncoder();
const score = (keeper: Address, wager: Address): bigint =>
  createHash('sha256').update(encoder.encode(keeper) as Uint8Array).update(encoder.encode(wager) as Uint8Array).digest().readBigUInt64BE(0);

export function createRivalYield(ctx: KeeperContext): RivalYield {
  const { rpc, signer, events, now, log } = ctx;
  const self = signer.address;
  /** Rival address -> when last seen winning (Unix ms). */
  const known = new Map<Address, number>();
  const pending = new Set<Address>();
  let lookups = 0;

  const current = (): Address[] => {
    const cutoff = now() - RIVAL_TTL_MS;
    for (const [rival, seen] of known) if (seen < cutoff) known.delete(rival);
    return [...known.keys()];
  };

  /** The fee payer of the wager's newest successful transaction after its opening: the keeper that beat us. */
  const winnerOf = async (wager: Address): Promise<Address | undefined> => {
    const signatures = await rpc.getSignaturesForAddress(wager, { limit: LOOKUP_DEPTH, commitment: 'confirmed' }).send();
    // Newest first; with fewer than LOOKUP_DEPTH the last is the opening (the app's, not a keeper's).
    const cranks = signatures.length < LOOKUP_DEPTH ? signatures.slice(0, -1) : signatures;
    const winning = cranks.find((s) => s.err === null);
    if (!winning) return undefined;
    const tx = await rpc.getTransaction(winning.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send();
    return tx?.transaction.message.accountKeys[0];
  };

  const learn = (wager: Address) => {
    if (pending.has(wager) || lookups >= MAX_LOOKUPS) return;
    pending.add(wager);
    lookups++;
    ctx.launch(async () => {
      try {
        const winner = await winnerOf(wager);
        if (winner && winner !== self) {
          if (!known.has(winner)) log?.info({ rival: winner, wager }, 'another keeper cranks the same wagers: taking turns with it (rival-yield)');
          known.set(winner, now());
        }
      } catch (error) {
        log?.debug({ wager, error: (error as Error).message }, 'could not read who won a race');
      } finally {
        pending.delete(wager);
        lookups--;
      }
    });
  };

  events.on('step', (step) => {
    if (step.outcome === 'lost' && step.wager) learn(step.wager as Address);
  });

  return {
    rivals: () => current().map(String),
    offset(wager) {
      const rivals = current();
      if (rivals.length === 0) return 0;
      const mine = score(self, wager);
      const ahead = rivals.filter((rival) => score(rival, wager) < mine).length;
      return Math.min(ahead, MAX_YIELD_SLOTS);
    },
  };
}
