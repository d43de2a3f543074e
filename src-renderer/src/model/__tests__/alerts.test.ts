/** The Alerts screen's count, mutes, times and states, and Settings → Alerts' thresholds and webhook forms. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS, type HeartbeatView } from '@shared/alert-types';
import type { ActiveAlert } from '@shared/contract/alerts';
import {
  alertCount,
  channelState,
  heartbeatStatus,
  heartbeatUrlError,
  historyState,
  mutedNow,
  parseHeartbeatForm,
  parseThresholdsForm,
  thresholdsFormOf,
  webhookUrlError,
} from '../alerts';

const now = Date.parse('2026-11-27T12:00:00Z');
const active = (
  alert: ActiveAlert['alert'],
  severity: ActiveAlert['severity'],
  mutedUntil: string | null = null,
): ActiveAlert => ({
  alert,
  severity,
  summary: `${alert} holds`,
  since: '2026-11-27T11:50:00Z',
  lastSentAt: '2026-11-27T11:50:00Z',
  mutedUntil,
});

describe('the count of active alerts', () => {
  it('says there are none, or how many and how many of them are critical', () => {
    expect(alertCount([], now)).toMatchObject({ count: 0, critical: 0, text: 'no alerts' });
    expect(alertCount(undefined, now).count).toBe(0);
    expect(alertCount([active('balance-low', 'warning')], now)).toMatchObject({
      count: 1,
      critical: 0,
      text: '1 alert',
    });
    const two = alertCount([active('balance-low', 'warning'), active('oracle-stalled', 'critical')], now);
    expect(two).toMatchObject({ count: 2, critical: 1, text: '2 alerts (1 critical)' });
    expect(two.title).toBe('Keeper balance low, Oracle stalled: open the Alerts screen');
  });

  it('still counts a muted alert, but a muted critical one is no longer shown as critical', () => {
    const muted = alertCount([active('oracle-stalled', 'critical', '2026-11-27T12:15:00Z')], now);
    expect(muted).toMatchObject({ count: 1, critical: 0, text: '1 alert' });
    expect(muted.title).toContain('1 muted');
    // A mute that ended is no mute.
    expect(alertCount([active('oracle-stalled', 'critical', '2026-11-27T11:59:59Z')], now).critical).toBe(1);
  });
});

describe('mutes, times and states', () => {
  it('holds a mute only until its end', () => {
    expect(mutedNow(null, now)).toBe(false);
    expect(mutedNow('2026-11-27T12:00:01Z', now)).toBe(true);
    expect(mutedNow('2026-11-27T12:00:00Z', now)).toBe(false);
  });

  it('names a history row firing, reminder or resolved', () => {
    expect(historyState({ state: 'firing', reminder: false })).toBe('firing');
    expect(historyState({ state: 'firing', reminder: true })).toBe('reminder');
    expect(historyState({ state: 'resolved', reminder: false })).toBe('resolved');
  });

  it("names a channel's state from its last send", () => {
    expect(channelState({ ok: null })).toBe('unused');
    expect(channelState({ ok: true })).toBe('ok');
    expect(channelState({ ok: false })).toBe('failing');
  });
});

describe('the thresholds form', () => {
  const form = thresholdsFormOf(DEFAULT_ALERT_THRESHOLDS);

  it('saves only what changed', () => {
    expect(parseThresholdsForm(form, DEFAULT_ALERT_THRESHOLDS)).toEqual({ changes: {}, errors: {} });
    const result = parseThresholdsForm(
      { ...form, balanceWarningSol: ' 1.5 ', debounceSeconds: '30' },
      DEFAULT_ALERT_THRESHOLDS,
    );
    expect(result).toEqual({ changes: { balanceWarningSol: 1.5, debounceSeconds: 30 }, errors: {} });
  });

  it('says what to enter next to each wrong field, and saves none of it', () => {
    const result = parseThresholdsForm(
      {
        ...form,
        rpcFailingSeconds: '',
        debounceSeconds: '2.5',
        reminderMinutes: 'soon',
        loopStalledSeconds: '0',
      },
      DEFAULT_ALERT_THRESHOLDS,
    );
    expect(result.errors).toEqual({
      rpcFailingSeconds: 'Enter a number from 1 to 86,400 s',
      debounceSeconds: 'Enter a whole number from 0 to 86,400 s',
      reminderMinutes: '"soon" is not a number: enter one from 0 to 10,080 min',
      loopStalledSeconds: 'Must be from 1 to 86,400 s',
    });
    expect(result.changes).toEqual({});
  });

  it('keeps the critical balance at or below the warning balance', () => {
    const result = parseThresholdsForm({ ...form, balanceCriticalSol: '2' }, DEFAULT_ALERT_THRESHOLDS);
    expect(result.errors.balanceCriticalSol).toMatch(/^Must not be above the warning level \(0.5 SOL\)/);
    expect(result.changes).toEqual({});
  });

  it('leaves a threshold set by a flag alone, whatever its field holds', () => {
    const result = parseThresholdsForm(
      { ...form, debounceSeconds: 'x', reminderMinutes: '5' },
      DEFAULT_ALERT_THRESHOLDS,
      ['debounceSeconds'],
    );
    expect(result).toEqual({ changes: { reminderMinutes: 5 }, errors: {} });
  });
});

describe('the webhook form', () => {
  it('accepts an http(s) URL and says what is missing otherwise', () => {
    expect(webhookUrlError('http://127.0.0.1:9000/hook', 'json')).toBeNull();
    expect(webhookUrlError('', 'slack')).toMatch(/^Enter the webhook URL: a Slack incoming webhook URL/);
    expect(webhookUrlError('hooks.slack.com/x', 'slack')).toMatch(
      /is not a URL: write it whole, starting with https:\/\//,
    );
    expect(webhookUrlError('ftp://example.com/x', 'json')).toBe(
      'The webhook URL must start with https:// (or http://)',
    );
  });

  it("wants Telegram's chat id and PagerDuty's routing key in the query", () => {
    expect(webhookUrlError('https://api.telegram.org/botT/sendMessage', 'telegram')).toMatch(/chat_id/);
    expect(webhookUrlError('https://api.telegram.org/botT/sendMessage?chat_id=42', 'telegram')).toBeNull();
    expect(webhookUrlError('https://events.pagerduty.com/v2/enqueue', 'pagerduty')).toMatch(/routing_key/);
    expect(
      webhookUrlError('https://events.pagerduty.com/v2/enqueue?routing_key=abc', 'pagerduty'),
    ).toBeNull();
  });
});

describe('the heartbeat form', () => {
  const free = { url: false, everySeconds: false };
  it('saves a URL only when one is entered, and the period only when it changed', () => {
    expect(parseHeartbeatForm({ url: '', everySeconds: '30' }, 30, free)).toEqual({
      changes: {},
      errors: {},
    });
    expect(parseHeartbeatForm({ url: ' https://hc-ping.com/abc ', everySeconds: '60' }, 30, free)).toEqual({
      changes: { heartbeatUrl: 'https://hc-ping.com/abc', heartbeatEverySeconds: 60 },
      errors: {},
    });
  });

  it('says what to enter for a wrong URL or period, and saves none of it', () => {
    expect(parseHeartbeatForm({ url: 'hc-ping.com/abc', everySeconds: '0.5' }, 30, free)).toEqual({
      changes: {},
      errors: {
        url: expect.stringMatching(/^"hc-ping.com\/abc" is not an http\(s\) URL: paste the whole ping URL/),
        everySeconds: 'Enter a whole number from 1 to 86,400 s',
      },
    });
    expect(heartbeatUrlError('ftp://example.com/x')).toMatch(/https:\/\/hc-ping.com/);
    expect(heartbeatUrlError('http://127.0.0.1:9000/ping')).toBeNull();
  });

  it('leaves what a flag set alone', () => {
    expect(
      parseHeartbeatForm({ url: 'not a url', everySeconds: 'x' }, 30, { url: true, everySeconds: true }),
    ).toEqual({ changes: {}, errors: {} });
  });
});

describe("the heartbeat's state", () => {
  const settings = {
    heartbeatConfigured: true,
    heartbeatLabel: 'https://hc-ping.com/***',
    heartbeatEverySeconds: 30,
  };
  const view = (state: HeartbeatView['state'], extra: Partial<HeartbeatView> = {}): HeartbeatView => ({
    label: 'https://hc-ping.com/***',
    everySeconds: 30,
    state,
    lastPingAt: null,
    lastError: null,
    notReadyReasons: [],
    ...extra,
  });

  it('is off without a URL, whatever the last beat was', () => {
    expect(heartbeatStatus({ ...settings, heartbeatConfigured: false }, view('pinging'))).toMatchObject({
      tone: 'muted',
      text: expect.stringMatching(/^Off: no heartbeat URL/),
      lastPing: null,
    });
  });

  it('waits for the first ping of a URL or period just saved', () => {
    expect(heartbeatStatus(settings, null).text).toMatch(/^Waiting for the first ping \(every 30 s/);
    const older = view('pinging', { label: 'https://old.example/***', lastPingAt: '2026-11-27T11:58:03Z' });
    expect(heartbeatStatus(settings, older)).toMatchObject({ tone: 'muted', lastPing: 'no ping yet' });
  });

  it('says pinging with the last ping, not pinging and why, or failing and why', () => {
    expect(heartbeatStatus(settings, view('pinging', { lastPingAt: '2026-11-27T11:58:03Z' }))).toEqual({
      tone: 'ok',
      text: 'Pinging: the monitor takes a ping every 30 s.',
      why: null,
      lastPing: 'last ping 2026-11-27 11:58:03 UTC',
    });
    const reasons = [
      'rpc-failing: the RPC has failed for 42 s (fetch failed)',
      'loop-stalled: no loop pass for 61 s',
    ];
    expect(heartbeatStatus(settings, view('notReady', { notReadyReasons: reasons }))).toMatchObject({
      tone: 'warn',
      text: expect.stringMatching(/^Not pinging: the keeper is not ready/),
      why: reasons.join('; '),
    });
    const error =
      'the monitor answered HTTP 404: check the heartbeat URL (Settings → Alerts, or --heartbeat-url)';
    expect(heartbeatStatus(settings, view('failing', { lastError: error }))).toMatchObject({
      tone: 'error',
      text: expect.stringMatching(/^Failing:/),
      why: error,
      lastPing: 'no ping yet',
    });
  });
});
