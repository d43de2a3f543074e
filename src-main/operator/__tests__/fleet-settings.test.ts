/** Settings → Fleet as saved: the shard, the takeover delay and the member URLs are checked with a sentence naming what is wrong. */
import { describe, expect, it } from 'vitest';
import { validateSettingsChanges } from '../../runtime/console-settings';

describe('fleet settings', () => {
  it('saves a shard, a takeover delay and the members (trimmed, without trailing slashes, each once)', () => {
    expect(validateSettingsChanges({ shard: ' 1/3 ', shardTakeoverSlots: 30, fleetMembers: ['http://10.0.0.2:7300/', 'http://10.0.0.2:7300', ' https://k3.example/v1 '] })).toEqual({
      shard: '1/3',
      shardTakeoverSlots: 30,
      fleetMembers: ['http://10.0.0.2:7300', 'https://k3.example/v1'],
    });
    expect(validateSettingsChanges({ shard: '' })).toEqual({ shard: '' });
  });

  it('refuses a shard that is not I/N with I below N, a takeover that would not fit twice in the window, and a member that is not an http(s) URL', () => {
    expect(() => validateSettingsChanges({ shard: '3/3' })).toThrow(/I from 0 to 2/);
    expect(() => validateSettingsChanges({ shard: 'two' })).toThrow(/I\/N/);
    expect(() => validateSettingsChanges({ shardTakeoverSlots: 75 })).toThrow(/1 to 74/);
    expect(() => validateSettingsChanges({ fleetMembers: ['10.0.0.2:7300'] })).toThrow(/e\.g\. http:\/\/10\.0\.0\.2:7300/);
  });
});
