/**
 * The webhook channels of the alert service (issue 26): the saved ones (Settings → Alerts: id, format and
 * masked label in `alert-channels.json` beside the settings, the URL in the keychain or the 0600 secrets
 * file) or, when `--alert-webhook` is given, only those for this run (read-only, never saved); a
 * dispatcher delivers to them. Mounted by operator/alerts-service.ts as its AlertChannels.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertChannel, AlertChannelKind, AlertChannelStatus, AlertMessage } from '../../src-shared/alert-types';
import {
  openChannelSecrets,
  type ChannelSecrets,
  type SecretPlace,
} from './channels/channel-secrets';
import { createAlertDispatcher, type DispatcherLog } from './channels/dispatcher';
import { channelFromUrl } from './channels/webhook-channel';
import type { AlertWebhookSpec } from './channels/webhook-flag';
import { isWebhookFormat, WEBHOOK_FORMATS } from './channels/webhook-formats';
import { AlertWebhookError } from './channels/webhook-request';
import { writePrivateFile } from '../secrets/private-files';

export const SAVED_CHANNELS_FILE = 'alert-channels.json';

/** A saved channel as the settings keep it: nothing secret. */
interface SavedChannel {
  id: string;
  kind: AlertChannelKind;
  label: string;
  secret: SecretPlace;
}

export interface AlertChannelServiceOptions {
  /** The settings' folder: alert-channels.json and, without a keychain, alert-channel-secrets.json (0600). */
  directory: string;
  /** --alert-webhook: these replace the saved channels for this run, and Settings cannot change them. */
  flagWebhooks?: AlertWebhookSpec[];
  /** Channels always present beside the webhooks (e.g. the desktop notification). */
  extraChannels?: AlertChannel[];
  log: DispatcherLog & { info(object: object, message: string): void };
  /** false: never the keychain, only the 0600 file (tests; hosts that know there is none). */
  keychain?: boolean;
  timeoutMs?: number;
  retries?: number;
}

export interface AlertChannelService {
  add(args: { url: string; format?: AlertChannelKind }): Promise<void>;
  remove(args: { id: string }): Promise<void>;
  sendTest(message: AlertMessage): Promise<AlertChannelStatus[]>;
  statuses(): AlertChannelStatus[];
  /** Must not block or throw: delivery is asynchronous. */
  deliver(message: AlertMessage): void;
  /** True when --alert-webhook set the channels for this run. */
  readonly fixedByFlags: boolean;
}

const FIXED_BY_FLAGS =
  'the alert channels are set by --alert-webhook for this run; restart without --alert-webhook to manage them in Settings → Alerts';

export function createAlertChannelService(options: AlertChannelServiceOptions): AlertChannelService {
  const savedFile = join(options.directory, SAVED_CHANNELS_FILE);
  const secrets = openChannelSecrets(
    options.directory,
    options.keychain === undefined ? {} : { keychain: options.keychain },
  );
  const fixedByFlags = (options.flagWebhooks?.length ?? 0) > 0;
  const readSaved = (): SavedChannel[] =>
    existsSync(savedFile) ? (JSON.parse(readFileSync(savedFile, 'utf8')) as SavedChannel[]) : [];
  // Labels only, yet beside the settings: 0600 in their 0700 folder like them (issue 33).
  const writeSaved = (saved: SavedChannel[]) =>
    writePrivateFile(savedFile, `${JSON.stringify(saved, null, 2)}\n`);

  const webhookChannels = (): AlertChannel[] =>
    fixedByFlags
      ? options.flagWebhooks!.map((spec) => channelFromUrl(spec))
      : readSaved().map((saved) => savedChannel(saved, secrets));
  const allChannels = () => [...(options.extraChannels ?? []), ...webhookChannels()];
  const dispatcher = createAlertDispatcher({
    channels: allChannels(),
    log: options.log,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
  });

  return {
    fixedByFlags,
    async add({ url, format }) {
      if (fixedByFlags) throw new Error(FIXED_BY_FLAGS);
      const kind = format ?? 'json';
      if (!isWebhookFormat(kind))
        throw new Error(`'${kind}' is not a webhook format: choose one of ${WEBHOOK_FORMATS.join(', ')}`);
      let channel: AlertChannel;
      try {
        channel = channelFromUrl({ url: typeof url === 'string' ? url : '', format: kind });
      } catch (error) {
        if (error instanceof AlertWebhookError)
          throw new Error(`${error.message}; nothing was saved`, { cause: error });
        throw error;
      }
      const saved = readSaved();
      if (saved.some((entry) => entry.id === channel.id))
        throw new Error(
          `this ${kind} webhook is already a channel (${channel.label}); Settings → Alerts lists it`,
        );
      const { place, keychainProblem } = secrets.store(channel.id, url.trim());
      if (keychainProblem)
        options.log.info(
          { channel: channel.id, file: 'alert-channel-secrets.json (mode 0600)', keychainProblem },
          'no OS keychain: the webhook URL is kept in a file readable only by this user',
        );
      writeSaved([...saved, { id: channel.id, kind, label: channel.label, secret: place }]);
      dispatcher.setChannels(allChannels());
    },
    async remove({ id }) {
      if (fixedByFlags) throw new Error(FIXED_BY_FLAGS);
      const saved = readSaved();
      const gone = saved.find((entry) => entry.id === id);
      if (!gone) throw new Error(`there is no alert channel '${id}'; Settings → Alerts lists the channels`);
      secrets.remove(id, gone.secret);
      writeSaved(saved.filter((entry) => entry.id !== id));
      dispatcher.setChannels(allChannels());
    },
    sendTest: (message) => dispatcher.sendNow(message),
    statuses: () => dispatcher.statuses(),
    deliver(message) {
      try {
        dispatcher.deliver(message);
      } catch (error) {
        options.log.warn({ error: (error as Error).message }, 'alert delivery failed');
      }
    },
  };
}

/** A saved channel with its URL from the secret store; one whose URL is gone fails every send saying what to do. */
function savedChannel(saved: SavedChannel, secrets: ChannelSecrets): AlertChannel {
  let url: string | null;
  let problem: string;
  try {
    url = secrets.read(saved.id, saved.secret);
    problem =
      saved.secret === 'keychain'
        ? 'its URL is no longer in the OS keychain'
        : 'its URL is no longer in alert-channel-secrets.json';
  } catch (error) {
    url = null;
    problem = `its URL cannot be read: ${(error as Error).message}`;
  }
  if (url !== null && isWebhookFormat(saved.kind)) {
    try {
      return channelFromUrl({ url, format: saved.kind });
    } catch (error) {
      problem = (error as Error).message;
    }
  }
  return {
    id: saved.id,
    kind: saved.kind,
    label: saved.label,
    send: async () =>
      Promise.reject(new Error(`${problem}: remove this channel and add it again in Settings → Alerts`)),
  };
}
