/** Stall thresholds and wording, latency figures and the faucet's countdown. */
import { describe, expect, it } from 'vitest';
import { countdown, latencySummary, oracleStallLevel, stallMessage } from '../oracle';

describe('oracle stall thresholds', () => {
  it('warns past 20 slots and is critical from 60 (the guardian pause target)', () => {
    expect(oracleStallLevel({ waiting: 1, oldestWaitSlots: 20 })).toBe('none');
    expect(oracleStallLevel({ waiting: 1, oldestWaitSlots: 21 })).toBe('warning');
    expect(oracleStallLevel({ waiting: 3, oldestWaitSlots: 59 })).toBe('warning');
    expect(oracleStallLevel({ waiting: 3, oldestWaitSlots: 60 })).toBe('critical');
    expect(oracleStallLevel({ waiting: 0, oldestWaitSlots: null })).toBe('none');
    expect(oracleStallLevel(undefined)).toBe('none');
  });

  it('says what a stall means for wagers in flight and what to do', () => {
    const { title, detail } = stallMessage({ waiting: 2, oldestWaitSlots: 70 }, 'critical', true);
    expect(title).toBe('Oracle stalled: a randomness request has waited 70 slots (critical from 60)');
    expect(detail).toMatch(/2 wagers wait for randomness; the oldest expires in about 80 slots \(open \+ 150\)/);
    expect(detail).toMatch(/forfeits its stake to the pool; the keeper still earns the expire fee/);
    expect(detail).toMatch(/guardian should pause new wagers/);
    expect(detail).toMatch(/resume the oracle from the Oracle screen/);
    expect(stallMessage({ waiting: 1, oldestWaitSlots: 25 }, 'warning', false).detail).toMatch(/clears by itself/);
  });

  it('says who pauses new wagers: already paused, the automatic guardian, this console, or the guardian named', () => {
    const hint = { paused: false, pausedByGuardian: false, automatic: false, pauseAfterSlots: 60, holdsKey: false, guardian: 'Guard1an111111111111111111111111111111111111' };
    const critical = (changes: Partial<typeof hint>) => stallMessage({ waiting: 1, oldestWaitSlots: 65 }, 'critical', true, { ...hint, ...changes }).detail;
    expect(critical({ paused: true, pausedByGuardian: true })).toMatch(/The guardian paused new wagers; it resumes them once the oracle fulfils again/);
    expect(critical({ paused: true })).toMatch(/New wagers are paused\./);
    expect(critical({ automatic: true, pauseAfterSlots: 50 })).toMatch(/The guardian pauses new wagers by itself once a request has waited 50 slots/);
    expect(critical({ holdsKey: true })).toMatch(/Pause new wagers from the Oracle screen: this console holds the guardian key/);
    expect(critical({})).toMatch(/The deployment's guardian \(Guard1an1{36}\) should pause new wagers now: only that key can/);
    expect(stallMessage({ waiting: 1, oldestWaitSlots: 25 }, 'warning', true, { ...hint, holdsKey: true }).detail).not.toMatch(/pause/i);
  });
});

describe('latency and countdowns', () => {
  it('gives the median and p95 of fulfilment latencies in slots', () => {
    const history = [1, 1, 2, 2, 2, 3, 3, 4, 9, 40].map((slots, i) => ({ wager: `w${i}`, requestedSlot: 0, fulfilledSlot: slots, slots, at: '' }));
    expect(latencySummary(history)).toEqual({ count: 10, medianSlots: 3, p95Slots: 40 });
    expect(latencySummary([])).toEqual({ count: 0, medianSlots: null, p95Slots: null });
  });

  it('counts down to retryAt', () => {
    expect(countdown(10_000 + 245_000, 10_000)).toBe('in 4 min 05 s');
    expect(countdown(10_000 + 9_100, 10_000)).toBe('in 10 s');
    expect(countdown(10_000, 10_000)).toBe('now');
  });
});
