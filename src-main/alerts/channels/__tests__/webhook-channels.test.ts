/**
 * Alert channels against a real HTTP receiver on loopback playing each service: the request each format
 * makes (method, path, query, headers, body as the service documents it), the sender's retries (500, 429
 * with Retry-After), its refusal to retry a 4xx, its timeout, and a dispatcher that lets a healthy channel
 * deliver while another hangs, marking the hanging one failing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AlertMessage } from '../../../../src-shared/alert-types';
import { createAlertDispatcher } from '../dispatcher';
import { channelFromUrl } from '../webhook-channel';
import { startReceiver, type LoopbackReceiver } from './loopback-receiver';

const KEEPER = 'Kpr1111111111111111111111111111111111111111';
const firing: AlertMessage = {
  alert: 'oracle-stalled',
  state: 'firing',
  severity: 'critical',
  summary:
    'The oracle has not fulfilled a request for 42 slots; new wagers wait: check the oracle or pause new wagers.',
  keeper: KEEPER,
  cluster: 'localnet',
  at: '2026-11-27T12:00:00.000Z',
};
const resolved: AlertMessage = {
  ...firing,
  state: 'resolved',
  summary: 'The oracle fulfils requests again.',
  at: '2026-11-27T12:05:00.000Z',
};

let receiver: LoopbackReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('each format posts what its service documents', () => {
  it('json: the AlertMessage object as is, to the URL as given', async () => {
    await channelFromUrl({ url: receiver.url('/hooks/json?tag=keeper'), format: 'json' }).send(firing);
    const [request] = receiver.requests('/hooks/json');
    expect(request).toMatchObject({ method: 'POST', query: { tag: 'keeper' }, body: firing });
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('slack: {"text"} with a mrkdwn section, the summary and the severity in both', async () => {
    await channelFromUrl({ url: receiver.url('/services/T000/B000/slacksecret'), format: 'slack' }).send(
      firing,
    );
    const body = receiver.requests('/services/T000/B000/slacksecret')[0]!.body as {
      text: string;
      blocks: { type: string; text: { type: string; text: string } }[];
    };
    expect(body.text).toContain('CRITICAL oracle-stalled');
    expect(body.text).toContain(firing.summary);
    expect(body.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining(firing.summary) } },
    ]);
  });

  it('discord: {"content"} of at most 2000 characters, with mentions off', async () => {
    const long = { ...firing, summary: `@everyone ${'x'.repeat(3000)}` };
    await channelFromUrl({ url: receiver.url('/api/webhooks/123456/discordsecret'), format: 'discord' }).send(
      long,
    );
    const body = receiver.requests('/api/webhooks/123456/discordsecret')[0]!.body as {
      content: string;
      allowed_mentions: unknown;
    };
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.content).toMatch(/^\*\*CRITICAL oracle-stalled\*\*: @everyone x+…$/);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('telegram: sendMessage with {"chat_id", "text"}, the chat id taken from the query', async () => {
    await channelFromUrl({
      url: receiver.url('/bot123456:AAtelegramsecret/sendMessage?chat_id=-1001234'),
      format: 'telegram',
    }).send(resolved);
    const [request] = receiver.requests('/bot123456:AAtelegramsecret/sendMessage');
    expect(request).toMatchObject({ method: 'POST', query: {} });
    expect(request!.body).toEqual({
      chat_id: -1001234,
      text: expect.stringMatching(/^RESOLVED oracle-stalled: The oracle fulfils requests again\./),
      disable_web_page_preview: true,
    });
  });

  it('pagerduty: trigger then resolve under one dedup key, the routing key in the body and not the URL', async () => {
    const channel = channelFromUrl({
      url: receiver.url('/v2/enqueue?routing_key=R0UT1NGKEY'),
      format: 'pagerduty',
    });
    await channel.send(firing);
    await channel.send(resolved);
    const [trigger, resolve] = receiver.requests('/v2/enqueue');
    expect(trigger!.query).toEqual({});
    expect(resolve!.query).toEqual({});
    expect(trigger!.body).toEqual({
      routing_key: 'R0UT1NGKEY',
      event_action: 'trigger',
      dedup_key: `wager-keeper:${KEEPER}:oracle-stalled`,
      payload: expect.objectContaining({
        summary: expect.stringContaining(firing.summary),
        source: KEEPER,
        severity: 'critical',
        timestamp: firing.at,
      }),
    });
    expect(resolve!.body).toEqual({
      routing_key: 'R0UT1NGKEY',
      event_action: 'resolve',
      dedup_key: `wager-keeper:${KEEPER}:oracle-stalled`,
    });
  });
});

describe('the sender', () => {
  it('tries again after a 500 and delivers', async () => {
    receiver.reply('/flaky', { status: 500, body: 'busy' }, { status: 200 });
    await channelFromUrl({ url: receiver.url('/flaky') }, { backoffMs: 10 }).send(firing);
    expect(receiver.requests('/flaky')).toHaveLength(2);
  });

  it('waits the Retry-After of a 429 before trying again', async () => {
    receiver.reply(
      '/limited',
      { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"You are being rate limited."}' },
      { status: 204 },
    );
    await channelFromUrl({ url: receiver.url('/limited') }, { backoffMs: 10 }).send(firing);
    const [first, second] = receiver.requests('/limited');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after its attempts on 5xx, saying what the service answered', async () => {
    receiver.reply('/down', { status: 503, body: 'maintenance' });
    await expect(
      channelFromUrl({ url: receiver.url('/down') }, { backoffMs: 5, attempts: 3 }).send(firing),
    ).rejects.toThrow('the service answered 503 Service Unavailable: maintenance (after 3 attempts)');
    expect(receiver.requests('/down')).toHaveLength(3);
  });

  it('fails at once on a 4xx other than 429, with the service answer and without the URL', async () => {
    receiver.reply('/services/T1/B1/badsecret', { status: 400, body: 'invalid_payload' });
    const send = channelFromUrl(
      { url: receiver.url('/services/T1/B1/badsecret'), format: 'slack' },
      { backoffMs: 5 },
    ).send(firing);
    const error = (await send.catch((caught: Error) => caught)) as Error;
    expect(error.message).toBe('the service answered 400 Bad Request: invalid_payload');
    expect(receiver.requests('/services/T1/B1/badsecret')).toHaveLength(1);
  });

  it('ends an attempt that gets no answer within its timeout', async () => {
    receiver.reply('/hang', { status: 200, hang: true });
    const started = Date.now();
    await expect(
      channelFromUrl({ url: receiver.url('/hang') }, { timeoutMs: 300, attempts: 1 }).send(firing),
    ).rejects.toThrow('no answer within 0.3 s');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('the dispatcher', () => {
  it('returns at once, delivers to a healthy channel while another hangs, and marks the hanging one failing', async () => {
    receiver.reply('/stuck/9f8e7d6c5b4a', { status: 200, hang: true });
    const warnings: object[] = [];
    const dispatcher = createAlertDispatcher({
      channels: [
        channelFromUrl({ url: receiver.url('/stuck/9f8e7d6c5b4a') }),
        channelFromUrl({ url: receiver.url('/healthy'), format: 'slack' }),
      ],
      log: { warn: (object) => warnings.push(object) },
      timeoutMs: 1_500,
      retries: 0,
    });
    const started = performance.now();
    dispatcher.deliver(firing);
    expect(performance.now() - started).toBeLessThan(20);
    await vi.waitFor(() => expect(receiver.requests('/healthy')).toHaveLength(1), {
      timeout: 1_000,
      interval: 10,
    });
    const [stuck, healthy] = dispatcher.statuses();
    // The healthy channel was served while the stuck one still waited for its answer.
    expect(healthy).toMatchObject({
      kind: 'slack',
      ok: true,
      lastError: null,
      lastSentAt: expect.any(String),
    });
    expect(stuck).toMatchObject({ ok: null });
    await vi.waitFor(
      () =>
        expect(dispatcher.statuses()[0]).toMatchObject({
          ok: false,
          lastError: 'no answer within 1.5 s',
          lastFailedAt: expect.any(String),
        }),
      { timeout: 3_000, interval: 20 },
    );
    expect(JSON.stringify(warnings)).not.toContain('9f8e7d6c5b4a');
  });

  it('sendNow answers each channel’s status once every send is done', async () => {
    receiver.reply('/refuses', { status: 404, body: '{"ok":false,"description":"Not Found"}' });
    const dispatcher = createAlertDispatcher({
      channels: [
        channelFromUrl({ url: receiver.url('/refuses') }),
        channelFromUrl({ url: receiver.url('/accepts') }),
      ],
      log: { warn: () => undefined },
    });
    const results = await dispatcher.sendNow({ ...firing, summary: 'A test alert' });
    expect(results.map(({ ok, lastError }) => ({ ok, lastError }))).toEqual([
      { ok: false, lastError: 'the service answered 404 Not Found: Not Found' },
      { ok: true, lastError: null },
    ]);
  });
});
