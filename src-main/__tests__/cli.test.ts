import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'bin', 'wager-keeper.js');
const run = (...args: string[]) => {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe('wager-keeper CLI', () => {
  it('runs the oracle demo and verifies its randomness offline; altered randomness fails verification', () => {
    const demo = run('oracle-demo');
    expect(demo.code, demo.stderr).toBe(0);
    const result = JSON.parse(demo.stdout) as { fulfilmentAuthority: string; seed: string; randomness: string; verifiedOffline: boolean };
    expect(result.verifiedOffline).toBe(true);

    const verify = (randomness: string) =>
      run('verify-randomness', '--authority', result.fulfilmentAuthority, '--seed', result.seed, '--randomness', randomness);
    const valid = verify(result.randomness);
    expect([valid.code, valid.stdout.trim()]).toEqual([0, '{"valid":true}']);
    const altered = (result.randomness.startsWith('0') ? '1' : '0') + result.randomness.slice(1);
    const invalid = verify(altered);
    expect([invalid.code, invalid.stdout.trim()]).toEqual([1, '{"valid":false}']);
  });

  it('explains bad input and unknown commands with a usage exit code', () => {
    const badSeed = run('verify-randomness', '--authority', '11111111111111111111111111111111', '--seed', 'zz', '--randomness', '00');
    expect(badSeed.code).toBe(2);
    expect(badSeed.stderr).toContain('--seed must be 32 bytes of hex');
    const unknown = run('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });
});
