import { earliestDateMs, latestDateMs, looksLikeIsoDate, parseIsoDate } from './date-time.js';
import { looksLikeDuration, parseDuration } from './duration.js';

/**
 * A point in time as support staff type it: a date (2026-01-31), a date-time (2026-01-31T12:00:00Z), or a duration
 * meaning that long ago (7d, 12h). Answers milliseconds since the epoch, within the four-digit years.
 */
export function parseInstant(text: string, nowMs: number = Date.now()): number {
  const trimmed = text.trim();
  let at: number;
  if (looksLikeIsoDate(trimmed)) {
    at = parseIsoDate(trimmed);
  } else if (looksLikeDuration(trimmed)) {
    at = nowMs - parseDuration(trimmed);
  } else {
    throw new Error(`${JSON.stringify(text)} is not a date; write 2026-01-31, 2026-01-31T12:00:00Z, or a time ago such as 7d or 12h.`);
  }
  if (at < earliestDateMs || at > latestDateMs) {
    throw new Error(`${JSON.stringify(text)} is outside 0000-01-01 to 9999-12-31, the dates an ISO 8601 date-time (four-digit year) can name.`);
  }
  return at;
}
