// A date (2026-10-01) or a date-time with an optional zone; without a zone the date-time is read as UTC.
const isoPattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Whether the text has the shape of an ISO 8601 date or date-time (its numbers may still name no real day). */
export function looksLikeIsoDate(text: string): boolean {
  return isoPattern.test(text.trim());
}

/**
 * Milliseconds since the epoch of an ISO 8601 date or date-time (see `looksLikeIsoDate`). Throws "not a valid date"
 * for a day or time that does not exist: `Date.parse` would roll 2030-02-30 over into March instead of refusing it.
 */
export function parseIsoDate(text: string): number {
  const trimmed = text.trim();
  const match = isoPattern.exec(trimmed);
  if (!match) throw new Error(`${JSON.stringify(text)} is not a valid date; write 2026-01-31 or 2026-01-31T12:00:00Z.`);
  const [, year, month, day, hours = '00', minutes = '00', seconds = '00', zone] = match;
  const monthIndex = Number(month) - 1;
  if (monthIndex < 0 || monthIndex > 11) throw new Error(`${JSON.stringify(text)} is not a valid date: months go from 01 to 12.`);
  // Day 0 of the next month is its last day (setUTCFullYear, unlike Date.UTC, keeps the years 0000 to 0099).
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(Number(year), monthIndex + 1, 0);
  const days = lastDay.getUTCDate();
  if (Number(day) < 1 || Number(day) > days) {
    throw new Error(`${JSON.stringify(text)} is not a valid date: ${monthNames[monthIndex]} ${year} has ${days} days.`);
  }
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) {
    throw new Error(`${JSON.stringify(text)} is not a valid date: the time of day goes from 00:00:00 to 23:59:59.`);
  }
  const zoned = zone !== undefined || !/[T ]/i.test(trimmed) ? trimmed : `${trimmed}Z`;
  const at = Date.parse(zoned.replace(' ', 'T'));
  if (Number.isNaN(at)) throw new Error(`${JSON.stringify(text)} is not a valid date: its zone offset goes from -23:59 to +23:59.`);
  return at;
}

/** The first and last instants an ISO 8601 date-time with a four-digit year names, as the contract writes them. */
export const earliestDateMs = Date.parse('0000-01-01T00:00:00.000Z');
export const latestDateMs = Date.parse('9999-12-31T23:59:59.999Z');
