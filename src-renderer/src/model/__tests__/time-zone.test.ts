/// <reference types="node" />
import { afterAll, describe, expect, it, vi } from 'vitest';

/** The module in a fixed zone (it keeps one zone-name formatter, made at load, as a page does). */
async function inZone(tz: string) {
  process.env.TZ = tz;
  vi.resetModules();
  return import('../time-zone');
}

// 2026-11-27 14:03:05 UTC (winter: Berlin is UTC+1, New York UTC-5); and a summer instant for daylight saving.
const WINTER_MS = Date.UTC(2026, 10, 27, 14, 3, 5);
const SUMMER_ISO = '2026-07-01T23:30:00Z';

describe('time zone formatting', () => {
  const savedTz = process.env.TZ;
  afterAll(() => {
    process.env.TZ = savedTz;
  });

  it('writes UTC from milliseconds, ISO text and SQLite text alike', async () => {
    const { formatUtc } = await inZone('Europe/Berlin');
    expect(formatUtc(WINTER_MS)).toBe('2026-11-27 14:03:05 UTC');
    expect(formatUtc('2026-11-27T14:03:05.000Z')).toBe('2026-11-27 14:03:05 UTC');
    expect(formatUtc('2026-11-27 14:03:05')).toBe('2026-11-27 14:03:05 UTC');
  });

  it('writes local time with the zone, following daylight saving and the date line', async () => {
    const { formatLocal } = await inZone('Europe/Berlin');
    expect(formatLocal(WINTER_MS)).toBe('2026-11-27 15:03:05 GMT+1');
    expect(formatLocal(SUMMER_ISO)).toBe('2026-07-02 01:30:00 GMT+2');
    const newYork = await inZone('America/New_York');
    expect(newYork.formatLocal(WINTER_MS)).toBe('2026-11-27 09:03:05 EST');
  });

  it('shows the chosen zone and the other one for the hover', async () => {
    const { formatClock, formatOtherTime, formatTime } = await inZone('Europe/Berlin');
    expect(formatTime(WINTER_MS, 'utc')).toBe('2026-11-27 14:03:05 UTC');
    expect(formatOtherTime(WINTER_MS, 'utc')).toBe('2026-11-27 15:03:05 GMT+1');
    expect(formatTime(WINTER_MS, 'local')).toBe('2026-11-27 15:03:05 GMT+1');
    expect(formatOtherTime(WINTER_MS, 'local')).toBe('2026-11-27 14:03:05 UTC');
    expect(formatClock(WINTER_MS, 'utc')).toBe('14:03:05 UTC');
  });

  it("writes a log line's milliseconds, and chart ticks in the chosen zone", async () => {
    const { formatAxisTick, formatLocal, formatUtc, zoneLabel } = await inZone('Europe/Berlin');
    expect(formatUtc(WINTER_MS + 250, { milliseconds: true })).toBe('2026-11-27 14:03:05.250 UTC');
    expect(formatLocal(WINTER_MS + 7, { milliseconds: true })).toBe('2026-11-27 15:03:05.007 GMT+1');
    expect(formatAxisTick(WINTER_MS, 'utc', 3_600_000)).toBe('14:03');
    expect(formatAxisTick(WINTER_MS, 'local', 3_600_000)).toBe('15:03');
    const lateEvening = Date.UTC(2026, 10, 27, 23, 30);
    expect(formatAxisTick(lateEvening, 'utc', 7 * 86_400_000)).toBe('Nov 27');
    expect(formatAxisTick(lateEvening, 'local', 7 * 86_400_000)).toBe('Nov 28');
    expect(zoneLabel('utc', WINTER_MS)).toBe('UTC');
    expect(zoneLabel('local', WINTER_MS)).toBe('GMT+1');
  });

  it('keeps a text that is not a time as it is, and reads an unknown saved choice as local', async () => {
    const { formatUtc, parseTimeZoneChoice } = await inZone('Europe/Berlin');
    expect(formatUtc('not a time')).toBe('not a time');
    expect(parseTimeZoneChoice('utc')).toBe('utc');
    expect(parseTimeZoneChoice('Mars')).toBe('local');
  });
});
