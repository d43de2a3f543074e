/** The Keepers list and the fleet view as the operator reads them: state pills, the status line, the add form's check, the unreachable rule. */
import { describe, expect, it } from 'vitest';
import type { KeeperEntryView, KeeperFleetRow, KeepersView } from '@shared/contract/keepers';
import { bannerKeeperText, fleetFigures, fleetPhaseText, keeperStateText, keeperStateTone, retryText, serverInputError, shownConnection, shownKeeper } from '../keepers';

const NOW = 1_700_000_000_000;

const local: KeeperEntryView = {
  id: 'local', kind: 'local', label: 'This computer', server: null, state: 'connected', detail: null, hostKey: null, lastSeenMs: NOW, retryAtMs: null,
};
const server = (over: Partial<KeeperEntryView>): KeeperEntryView => ({
  id: 's1', kind: 'server', label: 'deploy@203.0.113.7:22', server: { user: 'deploy', host: '203.0.113.7', port: 22, keyFile: null },
  state: 'connected', detail: null, hostKey: null, lastSeenMs: NOW - 3_000, retryAtMs: null, ...over,
});
const view = (shown: string, ...servers: KeeperEntryView[]): KeepersView => ({ shown, keepers: [local, ...servers] });

const reachableRow: KeeperFleetRow = {
  id: 's1', label: 'deploy@203.0.113.7:22', state: 'connected', reachable: true, phase: 'running', paused: false, keeper: 'Kee9', cluster: 'devnet',
  lamports: '1234567890', runwayCranks: 246_913, runwayLow: false, queue: 12, cranksToday: 1, netTodayLamports: '-15000', activeAlerts: 0, lastSeenMs: NOW, error: null,
};

describe('a keeper state pill', () => {
  it('says when a dropped server is tried again, in whole seconds, then minutes', () => {
    expect(keeperStateText(server({ state: 'disconnected', retryAtMs: NOW + 4_200 }), NOW)).toBe('disconnected — retrying in 5 s');
    expect(keeperStateText(server({ state: 'failed', retryAtMs: NOW + 180_000 }), NOW)).toBe('failed — retrying in 3 min');
    expect(retryText(NOW - 1, NOW)).toBe('retrying now');
  });

  it('names the other states in words, without a countdown', () => {
    expect(keeperStateText(server({ state: 'host-key-unknown' }), NOW)).toBe('host key unknown');
    expect(keeperStateText(server({ state: 'host-key-changed' }), NOW)).toBe('host key changed');
    expect(keeperStateText(server({ state: 'connecting' }), NOW)).toBe('connecting');
    expect(keeperStateText(server({ state: 'disconnected', retryAtMs: null }), NOW)).toBe('disconnected');
  });

  it('colours a refused host key and a failure as errors, waiting states as warnings', () => {
    expect(keeperStateTone('connected')).toBe('ok');
    expect(keeperStateTone('host-key-unknown')).toBe('warn');
    expect(keeperStateTone('host-key-changed')).toBe('error');
    expect(keeperStateTone('failed')).toBe('error');
  });
});

describe('the shown keeper', () => {
  it('keeps the console connected while This computer is shown, whatever the servers do', () => {
    expect(shownConnection(view('local', server({ state: 'disconnected' })))).toBe('connected');
    expect(shownConnection({ shown: 'local', keepers: [local] })).toBe('connected');
  });

  it("follows a shown server's connection: connecting, connected, anything else disconnected", () => {
    expect(shownConnection(view('s1', server({ state: 'connecting' })))).toBe('connecting');
    expect(shownConnection(view('s1', server({ state: 'connected' })))).toBe('connected');
    for (const state of ['disconnected', 'host-key-unknown', 'host-key-changed', 'failed'] as const)
      expect(shownConnection(view('s1', server({ state })))).toBe('disconnected');
  });

  it('names it in the status line, and says whether a server is connected', () => {
    expect(shownKeeper(view('s1', server({})))?.label).toBe('deploy@203.0.113.7:22');
    expect(bannerKeeperText(local)).toEqual({ label: 'This computer', connection: null, tone: 'ok' });
    expect(bannerKeeperText(server({})).connection).toBe('connected');
    expect(bannerKeeperText(server({ state: 'disconnected' })).connection).toBe('disconnected — reconnecting');
    expect(bannerKeeperText(server({ state: 'host-key-changed' })).connection).toMatch(/^disconnected/);
  });
});

describe('adding a server', () => {
  it('takes user@host and user@host:port, and says what is wrong with anything else', () => {
    expect(serverInputError('deploy@203.0.113.7')).toBeNull();
    expect(serverInputError(' deploy@keeper.example.com:2222 ')).toBeNull();
    expect(serverInputError('203.0.113.7')).toMatch(/is not user@host or user@host:port/);
    expect(serverInputError('deploy@host:70000')).toMatch(/not a TCP port/);
    expect(serverInputError('  ')).toMatch(/user@host/);
  });
});

describe('a fleet row', () => {
  it('shows each figure with its unit', () => {
    expect(fleetFigures(reachableRow)).toEqual({
      balance: '1.234567890 SOL', runway: '246,913 cranks', runwayLow: false, queue: '12 wagers', cranksToday: '1 crank', netToday: '-0.000015 SOL', alerts: 'none',
    });
    expect(fleetPhaseText({ ...reachableRow, paused: true })).toBe('paused');
  });

  it('shows an unreachable keeper as unreachable with its reason, never as zero', () => {
    const row: KeeperFleetRow = { ...reachableRow, reachable: false, lamports: null, queue: null, runwayCranks: null, error: 'no answer within 4 s' };
    expect(fleetFigures(row)).toEqual({ unreachable: 'unreachable: no answer within 4 s' });
    expect(fleetFigures({ ...row, error: null })).toEqual({ unreachable: 'unreachable: it did not answer' });
  });

  it('says "not reported" for a figure a reachable keeper did not give', () => {
    const figures = fleetFigures({ ...reachableRow, lamports: null, activeAlerts: null });
    expect(figures).toMatchObject({ balance: 'not reported', alerts: 'not reported' });
  });
});
