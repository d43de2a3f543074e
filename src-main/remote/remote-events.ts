/**
 * A server keeper's live events through its tunnel: `GET /operator/events?token=` read as a fetch body
 * stream, each SSE `data:` block a JSON OperatorEvent (the first one, on connect, a `status`). When the
 * stream ends it opens again, with a growing delay, whenever the tunnel has an endpoint.
 */
import { OPERATOR_HTTP } from '../../src-shared/contract/bridge';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { RemoteEndpoint } from './remote-operator-api';

const REOPEN_MS = [500, 1_000, 2_000, 5_000];

export interface RemoteEventsOptions {
  endpoint: RemoteEndpoint;
  onEvent(event: OperatorEvent): void;
  /** The stream opened (true) or ended (false). Any byte, keep-alives included, also calls onSeen. */
  onOpen(open: boolean): void;
  onSeen(): void;
  /** The stream was refused (401: the keeper restarted with a new token) or the keeper did not answer. */
  onRefused(): void;
}

/** Splits an SSE text stream into the `data` of each event (blocks end with a blank line). */
export function sseDataBlocks(buffer: string): { blocks: string[]; rest: string } {
  const parts = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = parts.pop() ?? '';
  const blocks = parts
    .map((block) => block.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n'))
    .filter((data) => data !== '');
  return { blocks, rest };
}

/** Keeps the stream open until `stop`; `kick` tries at once (the tunnel just connected). */
export function followRemoteEvents(options: RemoteEventsOptions): { kick(): void; stop(): void } {
  let stopped = false;
  let controller: AbortController | null = null;
  let wake: () => void = () => {};
  let failures = 0;

  const readOnce = async (port: number, token: string) => {
    controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}${OPERATOR_HTTP.events}?token=${encodeURIComponent(token)}`, { signal: controller.signal });
    if (!response.ok || !response.body) {
      if (response.status === 401) options.onRefused();
      throw new Error(`HTTP ${response.status}`);
    }
    options.onOpen(true);
    failures = 0;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      options.onSeen();
      const { blocks, rest } = sseDataBlocks(buffer + decoder.decode(chunk, { stream: true }));
      buffer = rest;
      for (const data of blocks) {
        try {
          options.onEvent(JSON.parse(data) as OperatorEvent);
        } catch {
          // not an event of ours (the stream only carries JSON events)
        }
      }
    }
  };

  void (async () => {
    while (!stopped) {
      const at = options.endpoint();
      if (!('unavailable' in at)) {
        await readOnce(at.port, at.token).catch((error: Error) => {
          // The tunnel is up but nothing answered at the keeper's port: it is gone or moved.
          if (!stopped && error.name !== 'AbortError' && failures >= 2) options.onRefused();
        });
        options.onOpen(false);
      }
      if (stopped) break;
      const delay = 'unavailable' in at ? 60_000 : REOPEN_MS[Math.min(failures++, REOPEN_MS.length - 1)]!;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();

  return {
    kick: () => wake(),
    stop() {
      stopped = true;
      controller?.abort();
      wake();
    },
  };
}
