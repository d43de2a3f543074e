/**
 * Waits for many signatures at once with one getSignatureStatuses call per poll (up to 256 each),
 * instead of one poller per transaction: a burst of thousands of cranks costs a few RPC calls a second.
 */
import type { Rpc, Signature, SolanaRpcApi } from '@solana/kit';

export type SignatureOutcome = { landed: true; slot: bigint; err: unknown | null } | { landed: false };

interface Waiter {
  resolve: (outcome: SignatureOutcome) => void;
  deadline: () => boolean;
}

export interface SignatureConfirmer {
  /** Resolves when the signature is confirmed, or with landed=false once `expired()` says it can't land. */
  wait(signature: Signature, expired: () => boolean): Promise<SignatureOutcome>;
  stop(): void;
}

const MAX_PER_CALL = 256;

export function createSignatureConfirmer(rpc: Rpc<SolanaRpcApi>, pollMs = 300): SignatureConfirmer {
  const waiters = new Map<Signature, Waiter[]>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  const poll = async () => {
    if (polling || waiters.size === 0) return;
    polling = true;
    try {
      const signatures = [...waiters.keys()];
      for (let i = 0; i < signatures.length; i += MAX_PER_CALL) {
        const batch = signatures.slice(i, i + MAX_PER_CALL);
        const { value } = await rpc.getSignatureStatuses(batch).send();
        batch.forEach((signature, index) => {
          const status = value[index];
          const list = waiters.get(signature) ?? [];
          if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) {
            waiters.delete(signature);
            for (const w of list) w.resolve({ landed: true, slot: status.slot, err: status.err });
          } else {
            const remaining = list.filter((w) => {
              if (!w.deadline()) return true;
              w.resolve({ landed: false });
              return false;
            });
            if (remaining.length === 0) waiters.delete(signature);
            else waiters.set(signature, remaining);
          }
        });
      }
    } catch {
      // The RPC is unreachable: keep waiting; the keeper's health reports the RPC error.
    } finally {
      polling = false;
    }
  };

  const ensureTimer = () => {
    if (timer) return;
    timer = setInterval(() => void poll(), pollMs);
    timer.unref?.();
  };

  return {
    wait(signature, expired) {
      ensureTimer();
      return new Promise((resolve) => {
        const list = waiters.get(signature) ?? [];
        list.push({ resolve, deadline: expired });
        waiters.set(signature, list);
      });
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      for (const list of waiters.values()) for (const w of list) w.resolve({ landed: false });
      waiters.clear();
    },
  };
}
