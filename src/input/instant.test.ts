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
    expect(() => parseInstant('2026-13-45', now)).toThrow(/not a date/);
  });
});
