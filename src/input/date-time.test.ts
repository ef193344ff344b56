import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latestDateMs, parseIsoDate } from './date-time.js';

describe('parseIsoDate', () => {
  it('reads dates, date-times without a zone (UTC) and with one', () => {
    expect(parseIsoDate('2028-02-29')).toBe(Date.parse('2028-02-29T00:00:00Z'));
    expect(parseIsoDate('2030-01-31T10:00')).toBe(Date.parse('2030-01-31T10:00:00Z'));
    expect(parseIsoDate('2030-01-31 10:00:00+02:00')).toBe(Date.parse('2030-01-31T08:00:00Z'));
    expect(parseIsoDate('9999-12-31T23:59:59.999Z')).toBe(latestDateMs);
  });

  it.each([
    ['2030-02-30', /February 2030 has 28 days/],
    ['2030-02-31T10:00:00Z', /February 2030 has 28 days/],
    ['2030-04-31', /April 2030 has 30 days/],
    ['2029-02-29T00:00:00Z', /February 2029 has 28 days/],
    ['2030-01-00', /January 2030 has 31 days/],
    ['2030-13-01', /months go from 01 to 12/],
    ['2030-01-01T25:00', /00:00:00 to 23:59:59/],
    ['2030-01-01T10:60:00Z', /00:00:00 to 23:59:59/],
    ['2030-01-01T10:00+25:00', /zone offset/],
  ])('refuses %s, a day or time that does not exist', (text, reason) => {
    expect(() => parseIsoDate(text)).toThrow(/not a valid date/);
    expect(() => parseIsoDate(text)).toThrow(reason);
  });

  it('answers the day it was given, never a rolled-over one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (year, month, day) => {
        const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        let at: number;
        try {
          at = parseIsoDate(text);
        } catch {
          // Refused: then the day really is past the end of its month.
          const last = new Date(0);
          last.setUTCFullYear(year, month, 0);
          return day > last.getUTCDate();
        }
        return new Date(at).toISOString().slice(0, 10) === text;
      }),
    );
  });
});
