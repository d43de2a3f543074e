/**
 * scrubSecrets and scrubValue, format by format (issue 33, item 12): each secret is gone from the text, and
 * what support needs beside it (hosts, field names, signatures, addresses) is still there.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, logRing } from '../../logging';
import { maskUrl } from '../../../src-shared/mask-url';
import { scrubSecrets, scrubValue } from '../../../src-shared/secret-scrub';

const KEY = 'Zq9SecretPlanted7Vx';
const keypair = Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256);

describe('scrubSecrets', () => {
  it.each([
    ['JSON x-api-key', `{"x-api-key":"${KEY}","host":"rpc.example.com"}`, '{"x-api-key":"***"'],
    ['JSON authorization Bearer', `{"authorization":"Bearer ${KEY}"}`, '{"authorization":"Bearer ***"}'],
    ['JSON Authorization, spaced', `{ "Authorization" : "Basic ${KEY}" }`, '"Authorization" : "Basic ***"'],
    ['JSON inside a JSON string (escaped)', JSON.stringify({ msg: `headers {"x-api-key":"${KEY}"}` }), '\\"x-api-key\\":\\"***\\"'],
    ['header text', `request failed; Authorization: Bearer ${KEY} sent`, 'Authorization: Bearer *** sent'],
    ['x-api-key header text', `x-api-key: ${KEY}`, 'x-api-key: ***'],
    ['JSON password', `{"user":"ops","password":"${KEY}"}`, '"password":"***"'],
    ['env SOMETHING_KEY=', `HELIUS_API_KEY=${KEY} node keeper`, 'HELIUS_API_KEY=*** node'],
    ['env _SECRET=', `WEBHOOK_SECRET=${KEY}`, 'WEBHOOK_SECRET=***'],
    ['env _TOKEN=', `export TELEGRAM_BOT_TOKEN=${KEY};`, 'TELEGRAM_BOT_TOKEN=***'],
    ['env _PASSWORD=', `DB_PASSWORD=${KEY}`, 'DB_PASSWORD=***'],
    ['env lowercase key=', `solana_key=${KEY}`, 'solana_key=***'],
    ['query api-key', `https://rpc.example.com/?api-key=${KEY}`, 'https://rpc.example.com/?api-key=***'],
    ['user:password', `http://ops:${KEY}@rpc.example.com:8899/`, 'http://rpc.example.com:8899/'],
    ['path token', `https://solana-mainnet.core.chainstack.com/${KEY}`, 'https://solana-mainnet.core.chainstack.com/***'],
    ['host label token', `https://abc123secretlongtoken.rpc-provider.com/`, 'https://***.rpc-provider.com/'],
    ['ws host label token', `wss://abc123secretlongtoken.rpc-provider.com/`, 'wss://***.rpc-provider.com/'],
  ])('%s', (_kind, text, masked) => {
    const clean = scrubSecrets(text);
    expect(clean).toContain(masked);
    expect(clean).not.toContain(KEY);
    expect(clean).not.toContain('abc123secretlongtoken');
  });

  it('masks 64- and 32-number byte arrays, one-line or pretty-printed, and a Uint8Array written by JSON.stringify', () => {
    const secret32 = keypair.slice(0, 32);
    for (const text of [
      JSON.stringify(keypair),
      JSON.stringify(keypair, null, 2),
      JSON.stringify({ key: secret32 }),
      JSON.stringify({ bytes: Uint8Array.from(keypair) }),
      JSON.stringify({ bytes: Uint8Array.from(secret32) }),
    ]) {
      const clean = scrubSecrets(text);
      expect(clean, text.slice(0, 40)).toContain('*** keypair bytes ***');
      expect(clean).not.toContain(secret32.slice(0, 8).join(','));
      expect(clean.replace(/\s/g, '')).not.toContain(secret32.slice(0, 8).join(','));
    }
    // Other lengths are data (a short list, a 33- or 65-number array), and numbers past 255 are not bytes.
    expect(scrubSecrets('[1,2,3]')).toBe('[1,2,3]');
    for (const data of [[...keypair, 1], [...secret32, 1], [...secret32.slice(1), 300]]) expect(scrubSecrets(JSON.stringify(data))).toBe(JSON.stringify(data));
  });

  it('masks a hex key after a secret name; leaves a hash without one', () => {
    const hex = 'ab'.repeat(32);
    expect(scrubSecrets(`{"secretKey":"${hex}"}`)).toBe('{"secretKey":"***"}');
    expect(scrubSecrets(`{"blockhash":"${hex}"}`)).toBe(`{"blockhash":"${hex}"}`);
  });

  it('masks a base58 key after a keypair, secret or private name; leaves a bare signature', () => {
    const base58 = '4wBqpZM9xaSheZzJSMawUHDgZ7miWfSsxmfVF5jJpYP2XF3dfz2Ak6EvQg2LE3qEZ9HhMRMiXPYk5TKm7z4s7KQX';
    expect(scrubSecrets(`{"keypair":"${base58}"}`)).toBe('{"keypair":"***"}');
    expect(scrubSecrets(`privateKey=${base58}`)).not.toContain(base58);
    expect(scrubSecrets(`signature ${base58} landed`)).toBe(`signature ${base58} landed`);
  });

  it('keeps an Explorer link working, masking only a key in the custom RPC it names', () => {
    const signature = '4wBqpZM9xaSheZzJSMawUHDgZ7miWfSsxmfVF5jJpYP2XF3dfz2Ak6EvQg2LE3qEZ9HhMRMiXPYk5TKm7z4s7KQX';
    for (const link of [
      `https://explorer.solana.com/tx/${signature}?cluster=devnet`,
      `https://explorer.solana.com/tx/${signature}?cluster=custom&customUrl=${encodeURIComponent('http://127.0.0.1:8899')}`,
    ])
      expect(scrubSecrets(`open ${link} to see it`)).toBe(`open ${link} to see it`);
    const keyed = scrubSecrets(`https://explorer.solana.com/tx/${signature}?cluster=custom&customUrl=${encodeURIComponent(`https://rpc.example.com/${KEY}?api-key=${KEY}`)}`);
    expect(keyed).not.toContain(KEY);
    expect(keyed).toContain(`https://explorer.solana.com/tx/${signature}?cluster=custom&customUrl=`);
    expect(new URL(keyed).searchParams.get('customUrl')).toBe('https://rpc.example.com/***?api-key=***');
  });

  it('leaves ordinary endpoints, addresses and words exactly as they were', () => {
    for (const text of [
      'https://api.mainnet-beta.solana.com',
      'https://devnet.helius-rpc.com',
      'http://127.0.0.1:8899',
      'the keeper 7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2 has 0.5 SOL; monkey business',
      'https://solana-mainnet.g.alchemy.com/v2',
    ])
      expect(scrubSecrets(text)).toBe(text);
  });
});

describe('maskUrl', () => {
  it('drops user and password, masks query values, token path segments and token-like host labels', () => {
    expect(maskUrl(`https://user:${KEY}@abc123secretlongtoken.rpc-provider.com/v2/${KEY}?api-key=${KEY}&cluster=devnet`)).toBe(
      'https://***.rpc-provider.com/v2/***?api-key=***&cluster=***',
    );
    expect(maskUrl('https://4f9c2d1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f.mainnet.rpcpool.com/')).toBe('https://***.mainnet.rpcpool.com/');
    expect(maskUrl('https://api.mainnet-beta.solana.com/')).toBe('https://api.mainnet-beta.solana.com/');
    expect(maskUrl('https://devnet.helius-rpc.com/?api-key=x')).toBe('https://devnet.helius-rpc.com/?api-key=***');
  });
});

describe('scrubValue', () => {
  it('scrubs every string at any depth and masks credential-named fields whole; the shape stays', () => {
    const value = {
      rpcError: `https://rpc.example.com/${KEY}?api-key=${KEY}: fetch failed`,
      nested: { deeper: [{ password: 'hunter2hunter2', authorization: `Bearer ${KEY}`, note: `HELIUS_API_KEY=${KEY}` }] },
      lamports: '5000',
      lastTick: 12,
      ok: true,
      none: null,
    };
    const clean = scrubValue(value);
    expect(JSON.stringify(clean)).not.toContain(KEY);
    expect(JSON.stringify(clean)).not.toContain('hunter2');
    expect(clean).toEqual({
      rpcError: 'https://rpc.example.com/***?api-key=***: fetch failed',
      nested: { deeper: [{ password: '***', authorization: '***', note: 'HELIUS_API_KEY=***' }] },
      lamports: '5000',
      lastTick: 12,
      ok: true,
      none: null,
    });
  });
});

describe('log lines', () => {
  it('mask a keypair nested deeper than the redact paths, as bytes or as a Uint8Array', () => {
    const log = createLogger('scrub-test');
    log.warn({ a: { b: { c: { keypair, secretKey: Uint8Array.from(keypair) } } } }, 'deep');
    log.warn({ request: { headers: { 'x-api-key': KEY, Authorization: `Bearer ${KEY}` } } }, 'headers');
    const lines = logRing.text().split('\n').filter((line) => line.includes('scrub-test')).join('\n');
    expect(lines).toContain('deep');
    expect(lines).not.toContain(keypair.slice(0, 8).join(','));
    expect(lines).not.toContain(`"0":${keypair[0]},"1":${keypair[1]}`);
    expect(lines).not.toContain(KEY);
  });
});
