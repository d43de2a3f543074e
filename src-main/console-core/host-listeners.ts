/**
 * The service's listeners, up for the whole run (across cluster switches): the public /v1 API (headless,
 * with the operator HTTP API and the built console on the same listener) and the Prometheus metrics.
 */
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Readiness } from '../../src-shared/alert-types';
import { createPublicApi, listenPublicApi, type PublicApiServer } from '../api/public-api';
import { consoleOrigins, listenError, stopInReverse } from '../runtime/listen-errors';
import type { GuardianEvents } from '../keeper/guardian';
import type { KeeperEvents } from '../keeper/keeper-events';
import type { KeeperControl } from '../runtime/keeper-control';
import { operatorMetricReadings } from '../metrics/metric-readings';
import { createKeeperMetrics } from '../metrics/metrics';
import { createOperatorHttp } from '../operator-http/operator-http';
import { OPERATOR_HTTP } from '../../src-shared/contract/bridge';
import type { OperatorApi } from '../../src-shared/contract/operator-api';
import type { OperatorEvent } from '../../src-shared/contract/events';
import type { ResolvedOperatorOptions } from '../runtime/operator-options';
import { createOperatorApp, listenOperator } from '../operator-http/operator-server';
import { registerSecret } from '../../src-shared/secret-scrub';
import { diagnosticsFolder } from '../operator/diagnostics-service';

export interface HostListeners {
  /**
   * Listens; a listener that cannot bind throws the flag's error (what started is closed by stop()).
   * Without failFast (the desktop app) a /v1 API that cannot listen is not thrown: `apiError` says why and
   * the keeper runs without it.
   */
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly apiUrl: string | null;
  /** Why the /v1 API is not listening (desktop: its port is taken, say), with the next step; null when it listens. */
  readonly apiError: string | null;
  readonly consoleUrl: string | null;
  readonly corsOrigins: string[];
  readonly metricsUrl: string | null;
}

export function createHostListeners(
  control: KeeperControl,
  options: Pick<ResolvedOperatorOptions, 'flags' | 'console' | 'log' | 'failFast' | 'dataDir'>,
  service: {
    api: OperatorApi;
    onEvent(listener: (event: OperatorEvent) => void): () => void;
    keeperEvents: EventEmitter<KeeperEvents>;
    guardianEvents: EventEmitter<GuardianEvents>;
    /** GET /v1/ready asks it on every request (the alert engine's readiness over the live health). */
    readiness?: () => Readiness | Promise<Readiness>;
  },
): HostListeners {
  const { flags, log } = options;
  let api: PublicApiServer | undefined;
  let apiError: string | null = null;
  let consoleUrl: string | null = null;
  let metricsUrl: string | null = null;
  let corsOrigins: string[] = [];
  const stopHost: (() => Promise<void> | void)[] = [];

  return {
    async start() {
      const settings = control.settings();
      const allowedOrigins = new Set<string>(settings.corsOrigins);
      const publicApi = createPublicApi({
        // /v1 answers 503 while the keeper restarts (a cluster switch), through requireKeeper's error.
        keeper: {
          submitWager: (address) => control.requireKeeper().submitWager(address),
          lookupWager: (address) => control.requireKeeper().lookupWager(address),
          health: () => control.requireKeeper().health(),
        },
        faucet: () => control.keeperSide?.core.faucet,
        allowedOrigins,
        ...(flags.trustProxy !== undefined ? { trustProxy: flags.trustProxy } : {}),
        ...(service.readiness ? { readiness: service.readiness } : {}),
        onInternalError: (error, request) => log.error({ error: (error as Error)?.message, ...request }, 'public api error'),
      });
      const token = randomBytes(24).toString('base64url');
      registerSecret(token); // masked in every log line and diagnostics archive
      const operatorHttp = options.console
        ? createOperatorHttp({
            api: service.api,
            onEvent: (listener) => service.onEvent(listener),
            token,
            uiDirectory: options.console.uiDirectory,
            logger: log,
            diagnosticsDirectory: diagnosticsFolder(options.dataDir),
          })
        : undefined;
      const fetch = operatorHttp ? operatorHttp.withConsole(publicApi.fetch) : publicApi.fetch;
      try {
        api = await listenPublicApi({ fetch } as Parameters<typeof listenPublicApi>[0], { port: settings.apiPort, host: settings.apiHost, publicHosts: flags.publicHosts ?? [] });
      } catch (error) {
        if (options.failFast) throw listenError(error, '--port', settings.apiHost, settings.apiPort);
        // The desktop app: the keeper still cranks on its chain; the console says why /v1 is down and what to do.
        apiError = apiListenerProblem(error, settings.apiHost, settings.apiPort);
        log.error({ error: (error as Error).message, host: settings.apiHost, port: settings.apiPort }, 'the /v1 API cannot listen: the keeper runs without it');
      }
      const server = api;
      if (server) {
        stopHost.push(() => {
          operatorHttp?.endStreams();
          return server.close();
        });
        // --cors-origin names exactly the origins allowed (as before the console existed); otherwise the
        // console's own origins and the saved list.
        if (flags.corsOrigins === undefined) for (const origin of consoleOrigins(server)) allowedOrigins.add(origin);
        if (operatorHttp) consoleUrl = `${consoleBase(server.url)}${OPERATOR_HTTP.consolePath}#token=${token}`;
      }
      corsOrigins = [...allowedOrigins];
      if (flags.metricsPort !== undefined) {
        const port = flags.metricsPort;
        const metrics = await listenOperator(createOperatorApp(createKeeperMetrics({ events: service.keeperEvents }, { events: service.guardianEvents }, operatorMetricReadings(service.api))), port, flags.publicHosts ?? []).catch((error: unknown) => {
          throw listenError(error, '--metrics-port', '127.0.0.1', port);
        });
        stopHost.push(() => new Promise<void>((resolve) => metrics.server.close(() => resolve())));
        metricsUrl = metrics.url;
      }
    },
    stop: () => stopInReverse(stopHost, log),
    get apiUrl() {
      return api?.url ?? null;
    },
    get apiError() {
      return apiError;
    },
    get consoleUrl() {
      return consoleUrl;
    },
    get corsOrigins() {
      return corsOrigins;
    },
    get metricsUrl() {
      return metricsUrl;
    },
  };
}

/**
 * The console's words for a /v1 API that cannot listen: where, why, and the next step.
 * @example apiListenerProblem({ code: 'EADDRINUSE' }, '127.0.0.1', 7300)
 * // "The public /v1 API cannot listen on 127.0.0.1:7300: another program already uses that port. ..."
 */
export function apiListenerProblem(error: unknown, host: string, port: number): string {
  const code = (error as { code?: string }).code;
  const where = `The public /v1 API cannot listen on ${host}:${port}`;
  const without = 'The keeper cranks without it, but apps and gateways cannot hand it wagers';
  const restart = 'then restart the app';
  if (code === 'EADDRINUSE')
    return `${where}: another program already uses that port. ${without}: stop that program, or pick another port in Settings → Keeper and API options → API port (0: any free port), ${restart}.`;
  if (code === 'EACCES')
    return `${where}: ports below 1024 need privileges. ${without}: pick a port from 1024 up in Settings → Keeper and API options → API port, ${restart}.`;
  if (code === 'EADDRNOTAVAIL')
    return `${where}: ${host} is not an address of this machine. ${without}: set API host to 127.0.0.1 (or an address of this machine) in Settings → Keeper and API options, ${restart}.`;
  return `${where}: ${(error as Error)?.message ?? String(error)}. ${without}: check API port and API host in Settings → Keeper and API options, ${restart}.`;
}

/** The console is opened at 127.0.0.1 even when /v1 listens on every address (it answers loopback peers only). */
function consoleBase(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return url.origin;
}
