/** The Settings forms: cluster presets and URL checks, and the options form's inline validation. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_THRESHOLDS } from '@shared/alert-types';
import type { ConsoleSettings } from '@shared/contract/settings';
import { clusterChoiceOf, clusterFromForm, optionsFormOf, parseOptionsForm, splitOrigins } from '../settings-form';

const saved: ConsoleSettings = {
  cluster: { kind: 'embedded' },
  priorityFeeMicroLamports: 0,
  maxInFlight: 128,
  demoEnabled: true,
  demoIntervalMs: 5_000,
  demoOnTestNetworks: false,
  deploymentFiles: [],
  apiPort: 7_300,
  apiHost: '127.0.0.1',
  corsOrigins: [],
  paused: false,
  guardianAutomatic: false,
  guardianPauseAfterSlots: 60,
  guardianResumeAfterSlots: 20,
  shard: '',
  shardTakeoverSlots: 20,
  fleetMembers: [],
  alertThresholds: DEFAULT_ALERT_THRESHOLDS,
  alertDesktopNotifications: true,
  heartbeatConfigured: false,
  heartbeatLabel: '',
  heartbeatEverySeconds: 30,
  sweep: { destination: '', keepLamports: null, automatic: false, thresholdLamports: '100000000', everySeconds: 86_400 },
};

describe('cluster choice', () => {
  it('recognises the presets from the saved RPC URL', () => {
    expect(clusterChoiceOf({ kind: 'embedded' })).toBe('embedded');
    expect(clusterChoiceOf({ kind: 'rpc', rpcUrl: 'https://api.devnet.solana.com', wsUrl: null })).toBe('devnet');
    expect(clusterChoiceOf({ kind: 'rpc', rpcUrl: 'https://api.mainnet-beta.solana.com', wsUrl: null })).toBe('mainnet-beta');
    expect(clusterChoiceOf({ kind: 'rpc', rpcUrl: 'http://127.0.0.1:8899', wsUrl: null })).toBe('custom');
  });

  it('builds the cluster to save, or says what is wrong with each URL', () => {
    expect(clusterFromForm('embedded', 'ignored', '')).toEqual({ cluster: { kind: 'embedded' }, errors: {} });
    expect(clusterFromForm('custom', ' http://127.0.0.1:8899 ', '').cluster).toEqual({ kind: 'rpc', rpcUrl: 'http://127.0.0.1:8899', wsUrl: null });
    expect(clusterFromForm('custom', 'http://127.0.0.1:8899', 'ws://127.0.0.1:8900').cluster).toEqual({
      kind: 'rpc',
      rpcUrl: 'http://127.0.0.1:8899',
      wsUrl: 'ws://127.0.0.1:8900',
    });
    const bad = clusterFromForm('custom', '127.0.0.1:8899', 'http://127.0.0.1:8900');
    expect(bad.cluster).toBeNull();
    expect(bad.errors.rpcUrl).toMatch(/must start with http:\/\/ or https:\/\//);
    expect(bad.errors.wsUrl).toMatch(/must start with ws:\/\/ or wss:\/\//);
    expect(clusterFromForm('custom', '  ', '').errors.rpcUrl).toMatch(/Enter the RPC URL/);
  });
});

describe('options form', () => {
  it('saves only what changed, converting seconds to milliseconds and splitting origins', () => {
    const form = { ...optionsFormOf(saved), maxInFlight: '64', demoIntervalSeconds: '2.5', corsOrigins: 'https://a.example, https://b.example\nhttp://c.example:8080' };
    expect(parseOptionsForm(form, saved)).toEqual({
      changes: { maxInFlight: 64, demoIntervalMs: 2_500, corsOrigins: ['https://a.example', 'https://b.example', 'http://c.example:8080'] },
      errors: {},
    });
    expect(parseOptionsForm(optionsFormOf(saved), saved)).toEqual({ changes: {}, errors: {} });
  });

  it('gives an inline error per field that is not a number, out of range or malformed', () => {
    const form = { ...optionsFormOf(saved), priorityFeeMicroLamports: 'abc', maxInFlight: '0', demoIntervalSeconds: '0.1', apiPort: '70000', apiHost: ' ', corsOrigins: 'https://ok.example/path' };
    const { changes, errors } = parseOptionsForm(form, saved);
    expect(changes).toEqual({});
    expect(errors).toEqual({
      priorityFeeMicroLamports: '"abc" is neither auto nor a whole number: enter auto (follow the market) or micro-lamports per compute unit (0: no priority fee)',
      maxInFlight: 'Must be from 1 to 4,096',
      demoIntervalSeconds: 'Must be from 0.5 to 3,600 s',
      apiPort: 'Must be from 0 to 65,535',
      apiHost: 'Enter an address of this machine, like 127.0.0.1',
      corsOrigins: '"https://ok.example/path" is not an origin: write the scheme and host only, like https://app.example.com',
    });
  });

  it('takes auto for the priority fee, and a number turns auto off (issue 27)', () => {
    expect(parseOptionsForm({ ...optionsFormOf(saved), priorityFeeMicroLamports: ' Auto ' }, saved).changes).toEqual({ priorityFeeAuto: true });
    const auto = { ...saved, priorityFeeAuto: true };
    expect(optionsFormOf(auto).priorityFeeMicroLamports).toBe('auto');
    expect(parseOptionsForm(optionsFormOf(auto), auto).changes).toEqual({});
    expect(parseOptionsForm({ ...optionsFormOf(auto), priorityFeeMicroLamports: String(saved.priorityFeeMicroLamports) }, auto).changes).toEqual({
      priorityFeeMicroLamports: saved.priorityFeeMicroLamports,
      priorityFeeAuto: false,
    });
  });

  it('never sends or checks a field set by a command-line flag', () => {
    const form = { ...optionsFormOf(saved), apiPort: 'not a port', maxInFlight: '256' };
    expect(parseOptionsForm(form, saved, ['apiPort'])).toEqual({ changes: { maxInFlight: 256 }, errors: {} });
  });

  it('splits origins on commas, spaces and new lines', () => {
    expect(splitOrigins('https://a.example,\n https://b.example  ')).toEqual(['https://a.example', 'https://b.example']);
    expect(splitOrigins('')).toEqual([]);
  });
});
