/**
 * Confirms one fee payer's transactions (the gateway's, the keeper's) by subscription instead of polling
 * getSignatureStatuses: one `logsSubscribe` (mentions: the payer's address, at `confirmed`) for the life
 * of the process. The payer signs every transaction it sends, so each of them is
 * notified (with its error and logs if it failed) the moment it is confirmed: no RPC call per
 * transaction, not even a subscribe/unsubscribe pair, and no waiting for the next poll.
 *
 * Outcomes are kept a while (a notification may come before the sender asks: on a localnet, during the
 * send itself). Should the WebSocket be down, or say nothing about a signature for `silenceMs`, the
 * polling confirmer answers for it: a confirmation is never missed, it only costs calls then.
 */
import type { Address, RpcSubscriptions, Signature, SolanaRpcSubscriptionsApi } from '@solana/kit';
import type { SignatureConfirmer, SignatureOutcome } from './signature-confirmer';

/** A confirmed transaction as notified: its slot, error and logs. */
export type NotifiedOutcome = { landed: true; slot: bigint; err: unknown | null; logs?: readonly string[] };

export interface SubscribedConfirmer extends SignatureConfirmer {
  wait(signature: Signature, expired: () => boolean): Promise<NotifiedOutcome | { landed: false }>;
  /** Resolves once the subscription is in place (or failed for now: then polling). */
  readonly ready: Promise<void>;
}

export interface SubscribedConfirmerOptions {
  /** Without a notification after this long, the signature is polled too (default 3 s). */
  silenceMs?: number;
  /** Between two attempts to subscribe after the WebSocket failed (default 1 s, doubling to 30 s). */
  retryMs?: number;
  /** Outcomes kept for senders that ask after the notification (default 4 096). */
  keep?: number;
}

export function createSubscribedConfirmer(
  subscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>,
  mentioned: Address,
  polling: SignatureConfirmer,
  options: SubscribedConfirmerOptions = {},
): SubscribedConfirmer {
  const silenceMs = options.silenceMs ?? 3_000;
  const keep = options.keep ?? 4_096;
  const seen = new Map<Signature, NotifiedOutcome>();
  const waiting = new Map<Signature, ((outcome: NotifiedOutcome | { landed: false }) => void)[]>();
  const abort = new AbortController();
  let subscribed = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const notified = (signature: Signature, outcome: NotifiedOutcome) => {
    seen.set(signature, outcome);
    if (seen.size > keep) seen.delete(seen.keys().next().value!);
    for (const resolve of waiting.get(signature) ?? []) resolve(outcome);
    waiting.delete(signature);
  };

  void (async () => {
    let retryMs = options.retryMs ?? 1_000;
    while (!abort.signal.aborted) {
      try {
        const notifications = await subscriptions.logsNotifications({ mentions: [mentioned] }, { commitment: 'confirmed' }).subscribe({ abortSignal: abort.signal });
        subscribed = true;
        retryMs = options.retryMs ?? 1_000;
        markReady();
        for await (const { context, value } of notifications) notified(value.signature, { landed: true, slot: context.slot, err: value.err, logs: value.logs ?? [] });
      } catch {
        // Down (or stopped): polling answers meanwhile; try again.
      }
      subscribed = false;
      markReady();
      if (abort.signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
      retryMs = Math.min(retryMs * 2, 30_000);
    }
  })();

  return {
    ready,
    async wait(signature, expired) {
      const known = seen.get(signature);
      if (known) return known;
      if (abort.signal.aborted) return { landed: false };
      if (!subscribed) return polling.wait(signature, expired);
      let timer: NodeJS.Timeout | undefined;
      let release: () => void = () => undefined;
      const byNotification = new Promise<NotifiedOutcome | { landed: false }>((resolve) => {
        const list = waiting.get(signature) ?? [];
        list.push(resolve);
        waiting.set(signature, list);
        release = () => {
          const left = (waiting.get(signature) ?? []).filter((r) => r !== resolve);
          if (left.length > 0) waiting.set(signature, left);
          else waiting.delete(signature);
        };
      });
      // The poller too once the subscription stayed silent (a dropped connection, a missed notification); it also notices expiry.
      const byPolling = new Promise<SignatureOutcome>((resolve) => (timer = setTimeout(() => void polling.wait(signature, expired).then(resolve), silenceMs)));
      try {
        return await Promise.race([byNotification, byPolling]);
      } finally {
        clearTimeout(timer);
        release();
      }
    },
    stop() {
      abort.abort();
      polling.stop();
      markReady();
      for (const list of waiting.values()) for (const resolve of list) resolve({ landed: false });
      waiting.clear();
    },
  };
}
