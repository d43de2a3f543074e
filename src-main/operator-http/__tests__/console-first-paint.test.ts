import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAV } from '../../../src-renderer/src/nav';
import { FIRST_GLANCE_ELEMENT_ID, firstGlanceOf, withFirstPaint } from '../console-first-paint';
import type { StatusView } from '../../../src-shared/contract/status';

const INDEX_HTML = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'src-renderer', 'index.html'),
  'utf8',
);
const KEEPER = 'GqCimbsYFEof42NLGxCcUfw5JScZVDjjPWPc3ATudkwn';

const status = (rpcUrl: string): Pick<StatusView, 'keeper' | 'cluster'> => ({
  keeper: { address: KEEPER, keySource: 'localnet dev key', shard: '1/3' },
  cluster: {
    name: 'devnet',
    rpcUrl,
    wsUrl: rpcUrl.replace('https', 'wss'),
    genesisHash: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG',
    embedded: false,
    wagerKeeperLocalnet: false,
    deployment: null,
    noDeployment: null,
  },
});

const glanceBlock = (html: string) =>
  JSON.parse(
    new RegExp(`<script type="application/json" id="${FIRST_GLANCE_ELEMENT_ID}">(.*?)</script>`).exec(
      html,
    )![1]!,
  ) as unknown;

describe('the console page first paint', () => {
  it('shows the keeper and the cluster in the page itself, and hands the same to the app as data', () => {
    const html = withFirstPaint(INDEX_HTML, firstGlanceOf(status('https://rpc.example/?api-key=SECRET')));
    expect(html).toContain(`<code class="full-address">${KEEPER}</code>`);
    expect(html).toContain('<span class="badge cluster-devnet">devnet</span>');
    expect(glanceBlock(html)).toEqual({
      keeper: { address: KEEPER, shard: '1/3' },
      cluster: { name: 'devnet', embedded: false },
    });
    expect(html).not.toContain('<!--first-paint:');
  });

  it('never carries the RPC URL (it may hold an API key) or anything else the public API does not show', () => {
    const html = withFirstPaint(INDEX_HTML, firstGlanceOf(status('https://rpc.example/?api-key=SECRET')));
    expect(html).not.toContain('SECRET');
    expect(html).not.toContain('rpc.example');
    expect(html).not.toContain('dev key');
  });

  it('says the keeper is starting when none runs yet, and names no cluster before one is known', () => {
    const html = withFirstPaint(INDEX_HTML, { keeper: null, cluster: null });
    expect(html).toContain('<code class="full-address">starting…</code>');
    expect(html).toContain('<span class="badge cluster-none">no cluster</span>');
    expect(glanceBlock(html)).toEqual({ keeper: null, cluster: null });
  });

  it('cannot be broken out of: "<" is escaped in the data block and the text', () => {
    const html = withFirstPaint(
      '<head><!--first-paint:glance--></head><code><!--first-paint:keeper--></code>',
      {
        keeper: { address: '</script><script>alert(1)</script>', shard: null },
        cluster: null,
      },
    );
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;/script&gt;');
    expect((glanceBlock(html) as { keeper: { address: string } }).keeper.address).toBe(
      '</script><script>alert(1)</script>',
    );
  });

  it('lists the same screens, in the same order, as the app’s navigation', () => {
    const nav = /<nav aria-label="Main"[\s\S]*?<\/nav>/.exec(INDEX_HTML)![0];
    const labels = [...nav.matchAll(/<li><a>([^<]+)<\/a><\/li>/g)].map((match) => match[1]);
    expect(labels).toEqual(NAV.map((item) => item.label));
  });
});
