/**
 * What `wager-keeper console-url` run on the server means for the operator: a URL with its token (the
 * port to forward to), no keeper running (exit 1, nothing on stdout), no wager-keeper on the PATH (exit
 * 127); and SSE blocks as the keeper's event stream writes them.
 */
import { describe, expect, it } from 'vitest';
import { consoleUrlOutcome, KeeperSetupError } from '../remote-console-url';
import { sseDataBlocks } from '../remote-events';

describe('console-url over SSH', () => {
  it('reads the port and token of the printed URL', () => {
    expect(consoleUrlOutcome(0, 'http://127.0.0.1:7300/console/#token=abc-DEF_1\n', '', 'deploy@h:22')).toEqual({ port: 7300, token: 'abc-DEF_1' });
  });

  it('says no keeper runs (exit 1, nothing printed) and how to start one', () => {
    expect(() => consoleUrlOutcome(1, '', 'no keeper with a console runs', 'deploy@h:22')).toThrow(KeeperSetupError);
    expect(() => consoleUrlOutcome(1, '', '', 'deploy@h:22')).toThrow(/no keeper runs on deploy@h:22: start it with `wager-keeper service install …`/);
  });

  it('says wager-keeper is not on the server’s PATH (exit 127)', () => {
    expect(() => consoleUrlOutcome(127, '', 'sh: 1: wager-keeper: not found', 'deploy@h:22')).toThrow(/wager-keeper is not on the PATH of deploy@h:22/);
  });

  it('refuses a URL without a token', () => {
    expect(() => consoleUrlOutcome(0, 'http://127.0.0.1:7300/console/\n', '', 'deploy@h:22')).toThrow(/carries no token/);
  });
});

describe('the event stream', () => {
  it('splits data blocks, skips comments (keep-alives) and keeps a partial block for the next chunk', () => {
    expect(sseDataBlocks('data: {"type":"earnings"}\n\n: keep-alive\n\ndata: {"type":"gua')).toEqual({ blocks: ['{"type":"earnings"}'], rest: 'data: {"type":"gua' });
  });
});
