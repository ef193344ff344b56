import { parseDuration } from './duration.js';

/**
 * A point in time as support staff type it: a date (2026-01-31), a date-time (2026-01-31T12:00:00Z), or a duration
 * meaning that long ago (7d, 12h). Answers milliseconds since the epoch.
 */
export function parseInstant(text: string, nowMs: number = Date.now()): number {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    const at = Date.parse(trimmed);
    if (!Number.isNaN(at)) return at;
  } else {
    try {
      return nowMs - parseDuration(trimmed);
    } catch {
      // Reported below with both forms.
    }
  }
  throw new Error(`${JSON.stringify(text)} is not a date; write 2026-01-31, 2026-01-31T12:00:00Z, or a time ago such as 7d or 12h.`);
}
