/**
 * The dead man's switch (issue 26): a GET to the operator's heartbeat URL (healthchecks.io, Uptime Kuma's
 * push monitor, ...) every period while the keeper is ready, none while it is not, so the monitor raises
 * its own alarm when the pings stop, even when this machine is off. `--heartbeat-url URL
 * [--heartbeat-every SECONDS]` or Settings; the configuration is read again before every beat and checked
 * every second between beats, so a change in Settings applies within a second.
 *
 * The URL often carries the monitor's secret (healthchecks.io's ping UUID, a push token): it is kept in
 * the secret store (heartbeat-url-store.ts), never logged or shown whole, only masked by the channels'
 * maskUrl (one masking for every secret URL).
 */
import type { Logger } from 'pino';
import type { HeartbeatView, Readiness } from '../../src-shared/alert-types';
import { maskUrl } from '../../src-shared/mask-url';

export type { HeartbeatView } from '../../src-shared/alert-types';

export const DEFAULT_HEARTBEAT_EVERY_SECONDS = 30;
/** The longest a ping may take (shorter when the period is): a monitor that hangs must not hold the next beat. */
const PING_TIMEOUT_MS = 10_000;
/** Between beats the configuration is read this often, so a URL or period saved in Settings applies within a second, not after the old period. */
const CONFIG_CHECK_MS = 1_000;

const sameConfig = (a: HeartbeatConfig | null, b: HeartbeatConfig | null): boolean =>
  (a?.url ?? '') === (b?.url ?? '') && (a?.url ? a.everySeconds === b?.everySeconds : true);

export interface HeartbeatConfig {
  url: string;
  everySeconds: number;
}

/** What one beat did: the tests wait on these instead of sleeping. */
export type HeartbeatBeat = 'sent' | 'failed' | 'notReady' | 'off';

export interface HeartbeatOptions {
  /** The configuration in force, read before each beat; null: no heartbeat configured (read again every second). */
  config(): HeartbeatConfig | null;
  readiness(): Readiness | Promise<Readiness>;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Per-ping timeout (default 10 s, at most the period). */
  timeoutMs?: number;
  onBeat?(beat: HeartbeatBeat, view: HeartbeatView | null): void;
}

export interface Heartbeat {
  start(): void;
  /** Stops beating; a ping in flight is aborted. */
  stop(): void;
  /** null while no heartbeat URL is configured. */
  view(): HeartbeatView | null;
}

/**
 * Checks a heartbeat URL (flag or Settings), naming what is wrong; '' is "no heartbeat".
 * @example checkHeartbeatUrl('hc-ping.com/abc') // throws: the heartbeat URL must be an http:// or https:// URL ...
 */
export function checkHeartbeatUrl(value: string): string {
  const url = value.trim();
  if (url === '') return '';
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new Error(
      'the heartbeat URL must be an http:// or https:// URL, like the ping URL healthchecks.io or an Uptime Kuma push monitor gives you',
    );
  return url;
}

export function createHeartbeat(options: HeartbeatOptions): Heartbeat {
  const { log } = options;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: AbortController | undefined;
  let running = false;
  let current: { config: HeartbeatConfig; view: HeartbeatView } | null = null;

  const viewFor = (config: HeartbeatConfig): HeartbeatView => {
    // A new URL or period starts a fresh record (the old one's pings say nothing about the new monitor).
    if (current && current.config.url === config.url && current.config.everySeconds === config.everySeconds)
      return current.view;
    current = {
      config,
      view: {
        label: maskUrl(config.url),
        everySeconds: config.everySeconds,
        state: 'waiting',
        lastPingAt: null,
        lastError: null,
        notReadyReasons: [],
      },
    };
    return current.view;
  };

  const ping = async (config: HeartbeatConfig, view: HeartbeatView): Promise<HeartbeatBeat> => {
    inFlight = new AbortController();
    const timeoutMs = Math.min(options.timeoutMs ?? PING_TIMEOUT_MS, config.everySeconds * 1000);
    const timeout = setTimeout(
      () => inFlight?.abort(new Error(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    let problem: string | null = null;
    try {
      const response = await fetch(config.url, {
        method: 'GET',
        signal: inFlight.signal,
        redirect: 'follow',
      });
      await response.body?.cancel();
      if (!response.ok)
        problem = `the monitor answered HTTP ${response.status}: check the heartbeat URL (Settings → Alerts, or --heartbeat-url)`;
    } catch (error) {
      if (!running) return 'off';
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = inFlight.signal.aborted
        ? (inFlight.signal.reason as Error).message
        : (cause?.code ?? cause?.message ?? (error as Error).message);
      problem = `cannot reach the monitor (${why}): check the heartbeat URL and this machine's network`;
    } finally {
      clearTimeout(timeout);
      inFlight = undefined;
    }
    if (problem === null) {
      if (view.state === 'failing')
        log.info({ heartbeat: view.label }, 'heartbeat: the monitor takes pings again');
      view.state = 'pinging';
      view.lastPingAt = new Date().toISOString();
      view.lastError = null;
      return 'sent';
    }
    // Logged when it starts failing or the reason changes, not at every beat.
    if (view.state !== 'failing' || view.lastError !== problem)
      log.warn({ heartbeat: view.label, error: problem }, 'heartbeat ping failed');
    view.state = 'failing';
    view.lastError = problem;
    return 'failed';
  };

  const beat = async (): Promise<{
    beat: HeartbeatBeat;
    view: HeartbeatView | null;
    everySeconds: number;
    config: HeartbeatConfig | null;
  }> => {
    const config = options.config();
    if (!config || config.url === '') {
      current = null;
      return { beat: 'off', view: null, everySeconds: DEFAULT_HEARTBEAT_EVERY_SECONDS, config: null };
    }
    const view = viewFor(config);
    let readiness: Readiness;
    try {
      readiness = await options.readiness();
    } catch (error) {
      readiness = {
        ready: false,
        reasons: [`readiness: cannot be determined (${(error as Error).message})`],
      };
    }
    if (!readiness.ready) {
      if (view.state !== 'notReady')
        log.warn(
          { heartbeat: view.label, reasons: readiness.reasons },
          'heartbeat: not ready, so no pings until it is (the monitor will alarm)',
        );
      view.state = 'notReady';
      view.notReadyReasons = readiness.reasons;
      return { beat: 'notReady', view, everySeconds: config.everySeconds, config };
    }
    view.notReadyReasons = [];
    return { beat: await ping(config, view), view, everySeconds: config.everySeconds, config };
  };

  const loop = async () => {
    const startedAt = Date.now();
    const done = await beat();
    if (!running) return;
    options.onBeat?.(done.beat, done.view);
    // Every period from the start of the last beat, so a slow monitor does not stretch the rhythm.
    waitUntil(startedAt + done.everySeconds * 1000, done.config);
  };

  /** Waits for the next beat, or beats at once when the configuration changed meanwhile. */
  const waitUntil = (dueAt: number, config: HeartbeatConfig | null) => {
    const left = dueAt - Date.now();
    timer = setTimeout(
      () => {
        if (!running) return;
        if (left <= CONFIG_CHECK_MS || !sameConfig(options.config(), config)) void loop();
        else waitUntil(dueAt, config);
      },
      Math.max(0, Math.min(left, CONFIG_CHECK_MS)),
    );
    timer.unref?.();
  };

  return {
    start() {
      if (running) return;
      running = true;
      void loop();
    },
    stop() {
      running = false;
      clearTimeout(timer);
      inFlight?.abort(new Error('stopped'));
    },
    view: () => current?.view ?? null,
  };
}
