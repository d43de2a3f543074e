/**
 * known_hosts as ssh reads it, on files ssh-keygen made (fixtures/): plain names, `[host]:port`, a comma
 * list with a wildcard and a negation, hashed entries (`ssh-keygen -H`), `@revoked` (refused whatever host
 * presents the key) and `@cert-authority` (skipped); fingerprints as `ssh-keygen -lf` prints them; and the
 * app's own file, which an accepted key is appended to while the user's file is never written.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, parseKnownHosts, preferredHostKeyAlgorithms, verifyHostKey } from '../known-hosts';
import { hostKeyAlgorithms } from '../ssh-tunnel';
import { knownHostsFiles } from '../known-hosts-files';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);
const keyOf = (pubFile: string) => Buffer.from(readFileSync(fixture(pubFile), 'utf8').split(' ')[1]!, 'base64');
const k1 = keyOf('k1.pub');
const k2 = keyOf('k2.pub');
const plain = parseKnownHosts(readFileSync(fixture('plain_known_hosts'), 'utf8'), 'plain');
const hashed = parseKnownHosts(readFileSync(fixture('hashed_known_hosts'), 'utf8'), 'hashed');

describe('known_hosts', () => {
  it('prints fingerprints as ssh-keygen -lf does', () => {
    expect(fingerprintOf(k1)).toBe('SHA256:zfZ3iJrNUDw/7fJp58eunO4JXBDkur96BwmVdXeiqu0');
    expect(fingerprintOf(k2)).toBe('SHA256:JRIJHm1oEjyz6iCsCRG9b90kYQ6Ml7bv51h9TSKzDNE');
  });

  it('skips comments, malformed and @cert-authority lines', () => {
    expect(plain.map((line) => line.marker)).toEqual([null, null, null, 'revoked']);
  });

  it('matches plain names on port 22 and [host]:port elsewhere', () => {
    expect(verifyHostKey(plain, 'deploy.example.com', 22, k1)).toEqual({ kind: 'known' });
    expect(verifyHostKey(plain, 'DEPLOY.example.com', 22, k1)).toEqual({ kind: 'known' });
    expect(verifyHostKey(plain, 'deploy.example.com', 2222, k1)).toEqual({ kind: 'unknown' });
    expect(verifyHostKey(plain, '203.0.113.7', 2222, k1)).toEqual({ kind: 'known' });
    expect(verifyHostKey(plain, '203.0.113.7', 22, k1)).toEqual({ kind: 'unknown' });
  });

  it('matches wildcards, and a negation wins', () => {
    expect(verifyHostKey(plain, 'a.fleet.example.com', 22, k1)).toEqual({ kind: 'known' });
    expect(verifyHostKey(plain, 'bad.fleet.example.com', 22, k1)).toEqual({ kind: 'unknown' });
  });

  it('matches hashed entries (HMAC-SHA1 of the looked-up name)', () => {
    expect(verifyHostKey(hashed, 'deploy.example.com', 22, k1)).toEqual({ kind: 'known' });
    expect(verifyHostKey(hashed, '203.0.113.7', 2222, k1)).toEqual({ kind: 'known' });
    expect(verifyHostKey(hashed, 'other.example.com', 22, k1)).toEqual({ kind: 'unknown' });
  });

  it('says changed, with the known fingerprint, when a known host presents another key of the same type', () => {
    const other = parseKnownHosts(`deploy.example.com ssh-ed25519 ${k2.toString('base64')}\n`, 'other');
    expect(verifyHostKey(other, 'deploy.example.com', 22, k1)).toEqual({ kind: 'changed', knownFingerprint: fingerprintOf(k2), file: 'other' });
    expect(verifyHostKey(hashed, 'deploy.example.com', 22, k2)).toMatchObject({ kind: 'changed', knownFingerprint: fingerprintOf(k1) });
  });

  it('refuses a @revoked key whatever host presents it', () => {
    expect(verifyHostKey(plain, 'deploy.example.com', 22, k2)).toEqual({ kind: 'revoked', file: 'plain' });
  });

  it('asks a server for the key types known for it first, as ssh does', () => {
    const rsa = parseKnownHosts('old.example.com ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7\n', 'rsa');
    expect(preferredHostKeyAlgorithms(rsa, 'old.example.com', 22)).toEqual(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa']);
    expect(hostKeyAlgorithms(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa']).slice(0, 4)).toEqual(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa', 'ssh-ed25519']);
    expect(hostKeyAlgorithms(['sk-ssh-ed25519@openssh.com'])[0]).toBe('ssh-ed25519');
  });

  it('appends an accepted key to the app’s own file (0600), never to the user’s, and forgets it on removal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wk-known-hosts-'));
    const user = join(dir, 'user_known_hosts');
    writeFileSync(user, '# the user’s own\n');
    const files = knownHostsFiles(join(dir, 'app', 'known_hosts'), user);
    expect(await files.verify('127.0.0.1', 2200, k1)).toEqual({ kind: 'unknown' });
    await Promise.all([files.accept('127.0.0.1', 2200, k1), files.accept('127.0.0.2', 22, k2)]);
    expect(await files.verify('127.0.0.1', 2200, k1)).toEqual({ kind: 'known' });
    expect(await files.verify('127.0.0.2', 22, k2)).toEqual({ kind: 'known' });
    expect(readFileSync(user, 'utf8')).toBe('# the user’s own\n');
    expect(statSync(files.paths.app).mode & 0o777).toBe(0o600);
    await files.forget('127.0.0.1', 2200);
    expect(await files.verify('127.0.0.1', 2200, k1)).toEqual({ kind: 'unknown' });
    expect(await files.verify('127.0.0.2', 22, k2)).toEqual({ kind: 'known' });
  });
});
