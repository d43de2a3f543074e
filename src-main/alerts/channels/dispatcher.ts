/**
 * Delivers alert messages to every channel without ever blocking the caller (the alert engine, and so the
 * keeper loop): each channel has its own bounded queue worked one message at a time, so a slow or failing
 * channel delays only itself. A channel whose send fails is marked failing with the error and its time;
 * the next success clears it. Logs name a channel by id and masked label, never its URL. Every message is
 * scrubbed (secret-scrub.ts) before any channel formats it: no webhook body of any format carries a secret
 * a summary quoted (an RPC URL's key).
 */
import type { AlertChannel, AlertChannelStatus, AlertMessage } from '../../../src-shared/alert-types';
import { scrubValue } from '../../../src-shared/secret-scrub';
import { DEFAULT_WEBHOOK_ATTEMPTS, DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhook-sender';

export interface DispatcherLog {
  warn(object: object, message: string): void;
}

export interface AlertDispatcherOptions {
  channels: AlertChannel[];
  log: DispatcherLog;
  /** Per attempt (default 5000 ms). */
  timeoutMs?: number;
  /** Attempts after the first (default 2: three in all). */
  retries?: number;
  /** Messages waiting per channel; past it the oldest waiting one is dropped (default 100). */
  queueLimit?: number;
}

export interface AlertDispatcher {
  /** Queues the message for every channel and returns at once; never throws. */
  deliver(message: AlertMessage): void;
  statuses(): AlertChannelStatus[];
  /** Sends to every channel now (the test alert) and answers how each went. */
  sendNow(message: AlertMessage): Promise<AlertChannelStatus[]>;
  /** Replaces the channels; a channel kept (same id) keeps its queue and status. */
  setChannels(channels: AlertChannel[]): void;
}

interface Lane {
  channel: AlertChannel;
  queue: AlertMessage[];
  running: boolean;
  removed: boolean;
  status: AlertChannelStatus;
}

export function createAlertDispatcher(options: AlertDispatcherOptions): AlertDispatcher {
  const sendOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    attempts: (options.retries ?? DEFAULT_WEBHOOK_ATTEMPTS - 1) + 1,
  };
  const queueLimit = options.queueLimit ?? 100;
  let lanes = new Map<string, Lane>();

  const newLane = (channel: AlertChannel): Lane => ({
    channel,
    queue: [],
    running: false,
    removed: false,
    status: {
      id: channel.id,
      kind: channel.kind,
      label: channel.label,
      ok: null,
      lastError: null,
      lastSentAt: null,
      lastFailedAt: null,
    },
  });

  async function sendOn(lane: Lane, message: AlertMessage): Promise<void> {
    try {
      // Scrubbed here, in the lane, so deliver() stays as quick for the alert engine as before.
      await lane.channel.send(scrubValue(message), sendOptions);
      lane.status = {
        ...lane.status,
        ok: true,
        lastError: null,
        lastSentAt: new Date().toISOString(),
        lastFailedAt: null,
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      lane.status = { ...lane.status, ok: false, lastError: reason, lastFailedAt: new Date().toISOString() };
      options.log.warn(
        {
          channel: lane.channel.id,
          kind: lane.channel.kind,
          target: lane.channel.label,
          alert: message.alert,
          state: message.state,
          error: reason,
        },
        'alert channel failed',
      );
    }
  }

  async function work(lane: Lane): Promise<void> {
    lane.running = true;
    try {
      while (lane.queue.length > 0 && !lane.removed) await sendOn(lane, lane.queue.shift()!);
    } finally {
      lane.running = false;
    }
  }

  function setChannels(channels: AlertChannel[]): void {
    const next = new Map<string, Lane>();
    for (const channel of channels) {
      const kept = lanes.get(channel.id);
      if (kept) {
        kept.channel = channel;
        kept.status = { ...kept.status, kind: channel.kind, label: channel.label };
      }
      next.set(channel.id, kept ?? newLane(channel));
    }
    for (const [id, lane] of lanes) if (!next.has(id)) lane.removed = true;
    lanes = next;
  }
  setChannels(options.channels);

  return {
    deliver(message) {
      for (const lane of lanes.values()) {
        lane.queue.push(message);
        if (lane.queue.length > queueLimit) {
          const dropped = lane.queue.shift()!;
          options.log.warn(
            {
              channel: lane.channel.id,
              target: lane.channel.label,
              alert: dropped.alert,
              state: dropped.state,
              queueLimit,
            },
            'alert channel queue full: the oldest waiting message was dropped',
          );
        }
        if (!lane.running) void work(lane);
      }
    },
    statuses: () => [...lanes.values()].map((lane) => ({ ...lane.status })),
    async sendNow(message) {
      const current = [...lanes.values()];
      await Promise.all(current.map((lane) => sendOn(lane, message)));
      return current.map((lane) => ({ ...lane.status }));
    },
    setChannels,
  };
}
