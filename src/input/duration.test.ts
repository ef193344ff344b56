import { describe, expect, it } from 'vitest';
import { formatDuration, parseDeadline, parseDuration, parseTimeLimit } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h30m', 5_400_000],
    ['7d', 604_800_000],
    ['1.5h', 5_400_000],
    [' 2M ', 120_000],
  ])('reads %s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '10', 'm', '2 minutes', '-5m', '0s', '0.1ms'])('refuses %j with an example', (text) => {
    expect(() => parseDuration(text)).toThrow(/duration|zero/);
  });

  it('refuses a duration too long to count in whole milliseconds', () => {
    expect(() => parseDuration('999999999d')).toThrow(/too long/);
    expect(() => parseDuration(`${'9'.repeat(400)}d`)).toThrow(/too long/);
  });
});

describe('parseTimeLimit', () => {
  it('takes 1ms to 24d: past 2^31-1 ms Node fires a timer at once', () => {
    expect(parseTimeLimit('1ms')).toBe(1);
    expect(parseTimeLimit('24d')).toBe(24 * 86_400_000);
    for (const text of ['24d1ms', '25d', '99999999d', '4w']) expect(() => parseTimeLimit(text)).toThrow(/longer than 24d/);
    expect(() => parseTimeLimit('0s')).toThrow(/zero/);
  });
});

describe('formatDuration', () => {
  it.each([
    [800, '800ms'],
    [30_000, '30s'],
    [120_000, '2m'],
    [150_000, '2m30s'],
    [5_400_000, '1h30m'],
    [604_800_000, '7d'],
  ])('%i ms is %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('parseDeadline: "ISO 8601 date-time with milliseconds, UTC"', () => {
  const now = Date.parse('2026-09-10T08:00:00.000Z');

  it('turns a duration into now + duration, in UTC with milliseconds', () => {
    expect(parseDeadline('7d', now)).toBe('2026-09-17T08:00:00.000Z');
    expect(parseDeadline('12h', now)).toBe('2026-09-10T20:00:00.000Z');
  });

  it('normalises a zoned date-time to UTC', () => {
    expect(parseDeadline('2026-10-01T17:00:00+02:00', now)).toBe('2026-10-01T15:00:00.000Z');
  });

  it('reads a date-time without zone, and a bare date, as UTC', () => {
    expect(parseDeadline('2026-10-01T17:00', now)).toBe('2026-10-01T17:00:00.000Z');
    expect(parseDeadline('2026-10-01', now)).toBe('2026-10-01T00:00:00.000Z');
  });

  it('refuses a deadline in the past', () => {
    expect(() => parseDeadline('2026-09-01T00:00:00Z', now)).toThrow(/in the past/);
  });

  it('refuses what is neither', () => {
    expect(() => parseDeadline('next friday', now)).toThrow(/neither an ISO 8601 date-time .* nor a duration/);
    expect(() => parseDeadline('2026-13-45', now)).toThrow(/not a valid date/);
  });

  it('refuses a day that does not exist instead of rolling it into the next month', () => {
    expect(() => parseDeadline('2030-02-30', now)).toThrow(/not a valid date: February 2030 has 28 days/);
    expect(() => parseDeadline('2030-04-31T10:00:00Z', now)).toThrow(/not a valid date: April 2030 has 30 days/);
  });

  it('refuses a deadline past the last four-digit year, whether a duration or a date-time', () => {
    expect(() => parseDeadline('99999999d', now)).toThrow(/after 9999-12-31T23:59:59.999Z/);
    expect(() => parseDeadline('9999-12-31T23:00:00-05:00', now)).toThrow(/after 9999-12-31T23:59:59.999Z/);
    expect(parseDeadline('9999-12-31T23:59:59.999Z', now)).toBe('9999-12-31T23:59:59.999Z');
  });
});
