/**
 * `--alert-webhook [FORMAT=]URL` as an operator types it: the format prefix, the default json, and errors
 * that say what to write (a usage error, exit code 2, from the CLI) without ever repeating the URL; and
 * maskUrl, which keeps scheme and host and never shows a token.
 */
import { describe, expect, it } from 'vitest';
import { alertWebhookFlags, UsageError } from '../../../commands/cli-flags';
import { maskUrl } from '../../../../src-shared/mask-url';
import { channelFromUrl } from '../webhook-channel';
import { parseAlertWebhook } from '../webhook-flag';

const SLACK = 'https://hooks.slack.com/services/T0AAA1111/B0BBB2222/XyZsecret123token';
const TELEGRAM =
  'https://api.telegram.org/bot123456789:AAHsecretTelegramToken/sendMessage?chat_id=-1001234567';
const PAGERDUTY = 'https://events.pagerduty.com/v2/enqueue?routing_key=R0ut1ngKeySecret';
const DISCORD = 'https://discord.com/api/webhooks/112233445566/DiscordSecretToken-abc';

describe('parseAlertWebhook', () => {
  it.each([
    [`slack=${SLACK}`, 'slack', SLACK],
    [`telegram=${TELEGRAM}`, 'telegram', TELEGRAM],
    [`PagerDuty=${PAGERDUTY}`, 'pagerduty', PAGERDUTY],
    [`discord=${DISCORD}`, 'discord', DISCORD],
    ['https://example.com/hook?a=b', 'json', 'https://example.com/hook?a=b'],
    ['json=http://127.0.0.1:9000/alerts', 'json', 'http://127.0.0.1:9000/alerts'],
  ])('%s', (flag, format, url) => {
    expect(parseAlertWebhook(flag)).toEqual({ format, url });
  });

  it.each([
    [
      'teams=https://example.com/x',
      /^unknown webhook format 'teams': use json, slack, discord, telegram or pagerduty, as FORMAT=URL/,
    ],
    ['slack=', /^a slack webhook needs its URL/],
    [
      'slack=hooks.slack.com/services/T0/B0/secretpart',
      /^the slack webhook is not a URL: give the full https:\/\/\.\.\. address/,
    ],
    ['ftp://files.example.com/secretpart', /^the json webhook must be an http:\/\/ or https:\/\/ URL/],
    [
      'telegram=https://api.telegram.org/bot123:secretpart/sendMessage',
      /needs the chat id in the URL's query: https:\/\/api\.telegram\.org\/bot<TOKEN>\/sendMessage\?chat_id=<CHAT_ID>/,
    ],
    ['telegram=https://api.telegram.org/bot123:secretpart/getMe?chat_id=1', /is the bot's sendMessage URL/],
    [
      'pagerduty=https://events.pagerduty.com/v2/enqueue?secretpart=1',
      /needs the integration key in the URL's query: .*routing_key=<KEY>/,
    ],
  ])('refuses %s saying what to write, without the URL', (flag, message) => {
    const error = (() => {
      try {
        parseAlertWebhook(flag);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('accepted');
    })();
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('secretpart');
  });

  it('is a usage error (exit code 2) when given as --alert-webhook, and each repeat is a channel', () => {
    expect(() => alertWebhookFlags({ 'alert-webhook': ['teams=https://example.com/x'] })).toThrow(UsageError);
    expect(() => alertWebhookFlags({ 'alert-webhook': ['teams=https://example.com/x'] })).toThrow(
      /^--alert-webhook: unknown webhook format 'teams'/,
    );
    expect(alertWebhookFlags({ 'alert-webhook': [`slack=${SLACK}`, PAGERDUTY] })).toEqual([
      { format: 'slack', url: SLACK },
      { format: 'json', url: PAGERDUTY },
    ]);
    expect(alertWebhookFlags({})).toBeUndefined();
  });
});

describe('maskUrl', () => {
  it.each([
    [SLACK, 'https://hooks.slack.com/services/***/***/***'],
    [TELEGRAM, 'https://api.telegram.org/***/sendMessage?chat_id=***'],
    [PAGERDUTY, 'https://events.pagerduty.com/v2/enqueue?routing_key=***'],
    [DISCORD, 'https://discord.com/api/webhooks/***/***'],
    [
      'https://user:pass@example.com:8443/hook/abc123?token=t0k#frag',
      'https://example.com:8443/hook/***?token=***',
    ],
    ['not a url', '***'],
  ])('%s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it('a channel’s id and label reveal no token', () => {
    for (const [format, url] of [
      ['slack', SLACK],
      ['telegram', TELEGRAM],
      ['pagerduty', PAGERDUTY],
      ['discord', DISCORD],
    ] as const) {
      const channel = channelFromUrl({ url, format });
      for (const secret of [
        'XyZsecret123token',
        'AAHsecretTelegramToken',
        'R0ut1ngKeySecret',
        'DiscordSecretToken',
        '1001234567',
        '112233445566',
      ])
        expect(`${channel.id} ${channel.label}`).not.toContain(secret);
    }
  });
});
