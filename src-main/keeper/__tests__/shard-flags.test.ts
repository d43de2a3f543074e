/**
 * `--shard I/N` as a person types it: a wrong value is a usage error (exit 2) that says what is expected,
 * before anything starts; and the hash that splits the wagers is the documented one (docs/keeper.md, Fleets).
 */
import { generateKeyPairSigner } from '@solana/kit';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getAddressEncoder } from '@solana/kit';
import { shardOf } from '../shard';

const bin = fileURLToPath(new URL('../../../bin/wager-keeper.js', import.meta.url));
const cli = (...args: string[]) => {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stderr: result.stderr };
};

describe('--shard I/N', () => {
  it.each([
    ['keeper', ['--rpc', 'http://127.0.0.1:9', '--shard', '3/3'], /--shard I\/N needs I from 0 to 2/],
    ['keeper', ['--rpc', 'http://127.0.0.1:9', '--shard', '0/0'], /N >= 1/],
    ['keeper', ['--rpc', 'http://127.0.0.1:9', '--shard', 'two'], /--shard must be I\/N/],
    ['keeper', ['--rpc', 'http://127.0.0.1:9', '--shard-takeover-slots', '10'], /--shard-takeover-slots goes with --shard/],
    ['serve', ['--shard', '1/2', '--shard-takeover-slots', '80'], /must be below 75/],
    ['serve', ['--shard', '-1/2'], /--shard/],
  ])('%s %j is a usage error, exit 2', (command, args, message) => {
    const { code, stderr } = cli(command, ...args);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });

  it('a wager goes to the shard given by the first 4 bytes of SHA-256 of its address, mod N, and the shards split the wagers about evenly', async () => {
    const counts = [0, 0, 0];
    for (let i = 0; i < 300; i++) {
      const { address } = await generateKeyPairSigner();
      const digest = createHash('sha256').update(getAddressEncoder().encode(address) as Uint8Array).digest();
      expect(shardOf(address, 3)).toBe(digest.readUInt32BE(0) % 3);
      counts[shardOf(address, 3)]! += 1;
    }
    for (const count of counts) expect(count).toBeGreaterThan(60);
  });
});
