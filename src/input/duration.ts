/** Durations people type (`90s`, `2m`, `1h30m`, `7d`) and deadlines given as a date-time or as a duration from now. */
const unitMs: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const durationPattern = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
const partPattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;

/** Milliseconds; throws with an example when the text is not a duration (a bare number is refused: which unit?). */
export function parseDuration(text: string): number {
  const compact = text.trim().toLowerCase();
  if (!durationPattern.test(compact)) {
    throw new Error(`${JSON.stringify(text)} is not a duration; write a number with a unit, e.g. 30s, 2m, 12h, 7d or 1h30m.`);
  }
  let total = 0;
  for (const [, amount, unit] of compact.matchAll(partPattern)) total += Number(amount) * unitMs[unit!]!;
  if (total <= 0) throw new Error(`${JSON.stringify(text)} is zero; give a positive duration.`);
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  return `${Math.round(hours / 24)}d`;
}

// A date (2026-10-01) or a date-time with an optional zone; without a zone the date-time is read as UTC.
const isoPattern = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The contract's deadline format: an ISO 8601 date-time with milliseconds, in UTC. A deadline in the past is refused
 * here, before anything is sent.
 */
export function parseDeadline(text: string, nowMs: number = Date.now()): string {
  const trimmed = text.trim();
  let at: number;
  if (isoPattern.test(trimmed)) {
    const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) || !/[T ]/i.test(trimmed) ? trimmed : `${trimmed}Z`;
    at = Date.parse(zoned.replace(' ', 'T'));
    if (Number.isNaN(at)) throw new Error(`${JSON.stringify(text)} is not a valid date-time.`);
  } else {
    try {
      at = nowMs + parseDuration(trimmed);
    } catch {
      throw new Error(`${JSON.stringify(text)} is neither an ISO 8601 date-time (2026-10-01T17:00:00Z) nor a duration from now (7d, 12h, 30m).`);
    }
  }
  if (at <= nowMs) throw new Error(`${JSON.stringify(text)} is in the past (${new Date(at).toISOString()}); a deadline must be in the future.`);
  return new Date(at).toISOString();
}
