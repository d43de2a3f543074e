/** The alert engine's state machine with an injected clock (debounce, once, reminder, resolved, mute, escalation), and the history file across a restart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConditionReading } from '../alert-conditions';
import { createAlertEngine } from '../alert-engine';
import { alertHistoryPath, openAlertHistory } from '../alert-history';
import { ALERT_NAMES, DEFAULT_ALERT_THRESHOLDS, type AlertMessage, type AlertName } from '../../../src-shared/alert-types';

const quiet = Object.fromEntries(ALERT_NAMES.map((name) => [name, { holds: false, severity: 'warning', summary: '' }])) as Record<AlertName, ConditionReading>;
const holding = (alert: AlertName, severity: 'warning' | 'critical' = 'critical', summary = `${alert} holds`) => ({ ...quiet, [alert]: { holds: true, severity, summary } });

function engineWithClock() {
  let now = 1_000_000;
  const delivered: AlertMessage[] = [];
  const recorded: { message: AlertMessage; muted: boolean }[] = [];
  const engine = createAlertEngine({
    clock: () => now,
    thresholds: () => ({ ...DEFAULT_ALERT_THRESHOLDS, debounceSeconds: 10, reminderMinutes: 60 }),
    identity: () => ({ keeper: 'Keeper111', cluster: 'localnet' }),
    deliver: (message) => delivered.push(message),
    record: (message, muted) => recorded.push({ message, muted }),
  });
  return { engine, delivered, recorded, advance: (ms: number) => (now += ms) };
}

describe('alert engine', () => {
  it('fires once after the debounce, not again while it holds, reminds after the interval, resolves once', () => {
    const { engine, delivered, advance } = engineWithClock();
    engine.evaluate(holding('oracle-stalled'));
    advance(9_000);
    engine.evaluate(holding('oracle-stalled'));
    expect(delivered).toEqual([]); // still inside the debounce
    advance(1_000);
    engine.evaluate(holding('oracle-stalled'));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ alert: 'oracle-stalled', state: 'firing', severity: 'critical', keeper: 'Keeper111', cluster: 'localnet' });
    expect(delivered[0]).not.toHaveProperty('reminder');
    for (let second = 0; second < 120; second++) {
      advance(1_000);
      engine.evaluate(holding('oracle-stalled'));
    }
    expect(delivered).toHaveLength(1); // no repeat while it holds
    expect(engine.active()).toMatchObject([{ alert: 'oracle-stalled', severity: 'critical', mutedUntil: null }]);
    advance(60 * 60_000);
    engine.evaluate(holding('oracle-stalled'));
    expect(delivered).toHaveLength(2);
    expect(delivered[1]).toMatchObject({ state: 'firing', reminder: true });
    engine.evaluate(quiet);
    engine.evaluate(quiet);
    expect(delivered.map((message) => message.state)).toEqual(['firing', 'firing', 'resolved']);
    // The resolution says it cleared and how long it lasted, not the firing's advice.
    expect(delivered[2]!.summary).toMatch(/^The oracle fulfils again: .* It had fired since \d\d:\d\d UTC \(62 min\)\.$/);
    expect(engine.active()).toEqual([]);
  });

  it('a condition that clears within the debounce never fires', () => {
    const { engine, delivered, advance } = engineWithClock();
    engine.evaluate(holding('rpc-failing'));
    advance(5_000);
    engine.evaluate(quiet);
    advance(6_000);
    engine.evaluate(holding('rpc-failing'));
    expect(delivered).toEqual([]);
  });

  it('a rise from warning to critical fires again; a fall does not', () => {
    const { engine, delivered, advance } = engineWithClock();
    engine.evaluate(holding('balance-low', 'warning'));
    advance(10_000);
    engine.evaluate(holding('balance-low', 'warning'));
    advance(1_000);
    engine.evaluate(holding('balance-low', 'critical'));
    advance(1_000);
    engine.evaluate(holding('balance-low', 'warning'));
    expect(delivered.map((message) => [message.state, message.severity])).toEqual([
      ['firing', 'warning'],
      ['firing', 'critical'],
    ]);
  });

  it('a muted alert is recorded but not delivered, and delivered again once unmuted', () => {
    const { engine, delivered, recorded, advance } = engineWithClock();
    engine.mute('fleet-member-silent', 1_000_000 + 30 * 60_000);
    engine.evaluate(holding('fleet-member-silent', 'warning'));
    advance(10_000);
    engine.evaluate(holding('fleet-member-silent', 'warning'));
    expect(delivered).toEqual([]);
    expect(recorded).toMatchObject([{ message: { alert: 'fleet-member-silent', state: 'firing' }, muted: true }]);
    expect(engine.active()[0]?.mutedUntil).toBe(1_000_000 + 30 * 60_000);
    engine.mute('fleet-member-silent', null);
    engine.evaluate(quiet);
    expect(delivered).toMatchObject([{ alert: 'fleet-member-silent', state: 'resolved' }]);
  });
});

describe('alert history', () => {
  const directory = mkdtempSync(join(tmpdir(), 'alert-history-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps firings, resolutions and mutes across a restart, newest first', () => {
    const path = alertHistoryPath(directory);
    const message: AlertMessage = { alert: 'loop-stalled', state: 'firing', severity: 'critical', summary: 'stalled for 61 s', keeper: null, cluster: 'devnet', at: '2026-01-01T00:00:00.000Z' };
    const first = openAlertHistory(path);
    first.record(message, false);
    first.record({ ...message, state: 'resolved', at: '2026-01-01T00:05:00.000Z' }, true);
    first.setMute('loop-stalled', 5_000);
    first.close();

    const reopened = openAlertHistory(path);
    expect(reopened.recent(200)).toMatchObject([
      { id: 2, alert: 'loop-stalled', state: 'resolved', muted: true, reminder: false },
      { id: 1, alert: 'loop-stalled', state: 'firing', severity: 'critical', summary: 'stalled for 61 s', muted: false },
    ]);
    expect(reopened.mutes()).toEqual({ 'loop-stalled': 5_000 });
    reopened.close();
  });
});
