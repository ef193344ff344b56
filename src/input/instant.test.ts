import { describe, expect, it } from 'vitest';
import { parseInstant } from './instant.js';

describe('parseInstant', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('reads dates, date-times and durations ago', () => {
    expect(parseInstant('2026-01-31', now)).toBe(Date.parse('2026-01-31T00:00:00Z'));
    expect(parseInstant('2026-01-31T08:30:00+01:00', now)).toBe(Date.parse('2026-01-31T07:30:00Z'));
    expect(parseInstant('7d', now)).toBe(Date.parse('2026-03-03T12:00:00Z'));
  });
  it('refuses anything else with both forms as examples', () => {
    expect(() => parseInstant('yesterday', now)).toThrow(/2026-01-31.*7d/);
    expect(() => parseInstant('2026-13-45', now)).toThrow(/not a valid date/);
  });
  it('refuses a day that does not exist instead of rolling it into the next month', () => {
    expect(() => parseInstant('2030-02-30', now)).toThrow(/not a valid date: February 2030 has 28 days/);
    expect(() => parseInstant('2029-02-29T00:00:00Z', now)).toThrow(/not a valid date/);
  });
  it('refuses a time ago before the year 0000, and a too long one', () => {
    expect(() => parseInstant('99999999d', now)).toThrow(/outside 0000-01-01 to 9999-12-31/);
    expect(() => parseInstant('999999999d', now)).toThrow(/too long/);
  });
});
