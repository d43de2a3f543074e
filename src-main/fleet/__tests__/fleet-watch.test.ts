/**
 * The fleet panel's source over real HTTP: two members' public APIs (createPublicApi + listenPublicApi on
 * port 0) whose KeeperService answers a health record this test sets (the KeeperService interface is the
 * boundary: a member is another machine's keeper). The clock is injected for "stopped answering".
 */
import { describe, expect, it } from 'vitest';
import type { HealthRecord, KeeperService } from '../../keeper/keeper-service';
import { createPublicApi, listenPublicApi } from '../../api/public-api';
import { createFleetWatch, fleetHealthUrl } from '../fleet-watch';
import { openHeadlessSettings } from '../../runtime/console-settings';
import { createFleetService } from '../../operator/fleet-service';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function member(health: HealthRecord & { shard?: string }) {
  const keeper: KeeperService = {
    submitWager: async () => ({ kind: 'accountNotFound' }),
    lookupWager: async () => ({ state: 'unknown', updatedAt: new Date(0).toISOString() }),
    health: async () => health,
  };
  return listenPublicApi(createPublicApi({ keeper, allowedOrigins: [] }), { port: 0 });
}

describe('the fleet watch', () => {
  it("lists each member's key, balance, last pass, queue and shard, and marks one that stopped answering", async () => {
    const a = await member({ keeper: 'KeeperA', lamports: '2500000000', lastTick: 1_000, queue: 4, shard: '0/2' });
    const b = await member({ keeper: 'KeeperB', lamports: '900000000', lastTick: 2_000, queue: 1, shard: '1/2' });
    let clock = 100_000;
    const watch = createFleetWatch({ urls: [a.url, `${b.url}/v1/`], intervalMs: 3_600_000, staleAfterMs: 15_000, now: () => clock });
    try {
      await watch.pollNow();
      expect(watch.members().map(({ keeper, lamports, lastTick, queue, shard, error, stale }) => ({ keeper, lamports, lastTick, queue, shard, error, stale }))).toEqual([
        { keeper: 'KeeperA', lamports: '2500000000', lastTick: 1_000, queue: 4, shard: '0/2', error: null, stale: false },
        { keeper: 'KeeperB', lamports: '900000000', lastTick: 2_000, queue: 1, shard: '1/2', error: null, stale: false },
      ]);

      await b.close();
      clock += 5_000;
      await watch.pollNow();
      const [, down] = watch.members();
      expect(down!.error).toMatch(/unreachable/);
      expect(down!.stale).toBe(false); // one missed poll is not yet a stopped member
      expect(down!.keeper).toBe('KeeperB'); // the last known figures stay, with their age

      clock += 15_000;
      await watch.pollNow();
      expect(watch.members().map((m) => m.stale)).toEqual([false, true]);
    } finally {
      watch.stop();
      await a.close();
    }
  });

  it('takes a member as its API base with or without /v1, and refuses what is not an http(s) URL with a sentence', () => {
    expect(fleetHealthUrl('http://10.0.0.2:7300')).toBe('http://10.0.0.2:7300/v1/health');
    expect(fleetHealthUrl('http://10.0.0.2:7300/v1/')).toBe('http://10.0.0.2:7300/v1/health');
    expect(fleetHealthUrl('https://keeper.example/api/')).toBe('https://keeper.example/api/v1/health');
    expect(() => fleetHealthUrl('10.0.0.2:7300')).toThrow(/e.g. http:\/\/10.0.0.2:7300/);
    expect(() => fleetHealthUrl('ftp://10.0.0.2/')).toThrow(/http\(s\) URL/);
    expect(() => fleetHealthUrl('not a url')).toThrow(/not a URL/);
  });

  it("hands the keeper its peers' keys as their health answers them, once each change", async () => {
    const a = await member({ keeper: 'KeeperA', lamports: '1', lastTick: 1, queue: 0, shard: '0/2' });
    const settings = openHeadlessSettings(mkdtempSync(join(tmpdir(), 'wk-fleet-peers-')));
    settings.set({ fleetMembers: [a.url] });
    const told: string[][] = [];
    const fleet = createFleetService({ settings }, { peersChanged: (keys) => told.push(keys) });
    try {
      fleet.membersChanged();
      await expect.poll(() => told, { timeout: 10_000 }).toEqual([['KeeperA']]);
      expect(fleet.peers()).toEqual(['KeeperA']);
    } finally {
      fleet.stop();
      await a.close();
    }
  });
});
