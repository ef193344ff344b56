import { latestDateMs, looksLikeIsoDate, parseIsoDate } from './date-time.js';
import { longestTimeLimitMs } from './time-limit.js';

/** Durations people type (`90s`, `2m`, `1h30m`, `7d`) and deadlines given as a date-time or as a duration from now. */
const unitMs: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const durationPattern = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
const partPattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;

/** Whether the text has the shape of a duration (its number may still be zero or too large). */
export function looksLikeDuration(text: string): boolean {
  return durationPattern.test(text.trim().toLowerCase());
}

/**
 * Milliseconds, at least 1; throws with an example when the text is not a duration (a bare number is refused: which
 * unit?), and when it is too long to count in milliseconds exactly.
 */
export function parseDuration(text: string): number {
  const compact = text.trim().toLowerCase();
  if (!looksLikeDuration(compact)) {
    throw new Error(`${JSON.stringify(text)} is not a duration; write a number with a unit, e.g. 30s, 2m, 12h, 7d or 1h30m.`);
  }
  let total = 0;
  for (const [, amount, unit] of compact.matchAll(partPattern)) total += Number(amount) * unitMs[unit!]!;
  const ms = Math.round(total);
  if (ms < 1) throw new Error(`${JSON.stringify(text)} is zero; give a positive duration (1ms or more).`);
  if (!Number.isSafeInteger(ms)) throw new Error(`${JSON.stringify(text)} is too long to count; give a shorter duration (days, not millennia).`);
  return ms;
}

/** A time limit (`--wait-timeout`): a duration from 1ms to 24d. */
export function parseTimeLimit(text: string): number {
  const ms = parseDuration(text);
  if (ms > longestTimeLimitMs) throw new Error(`${JSON.stringify(text)} is longer than 24d, the longest time limit esign keeps; give 24d or less.`);
  return ms;
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

/**
 * The contract's deadline format: an ISO 8601 date-time with milliseconds, in UTC. A deadline in the past, or past the
 * last four-digit year, is refused here, before anything is sent.
 */
export function parseDeadline(text: string, nowMs: number = Date.now()): string {
  const trimmed = text.trim();
  let at: number;
  if (looksLikeIsoDate(trimmed)) {
    at = parseIsoDate(trimmed);
  } else if (looksLikeDuration(trimmed)) {
    at = nowMs + parseDuration(trimmed);
  } else {
    throw new Error(`${JSON.stringify(text)} is neither an ISO 8601 date-time (2026-10-01T17:00:00Z) nor a duration from now (7d, 12h, 30m).`);
  }
  if (at <= nowMs) throw new Error(`${JSON.stringify(text)} is in the past (${new Date(at).toISOString()}); a deadline must be in the future.`);
  if (at > latestDateMs) {
    throw new Error(`${JSON.stringify(text)} is after 9999-12-31T23:59:59.999Z, the latest deadline an ISO 8601 date-time (four-digit year) can carry; give an earlier one.`);
  }
  return new Date(at).toISOString();
}

/**
 * A spec's `deadline:`: a date-time is sent as it is; a duration (`7d`) counts from the envelope's creation as the
 * service records it (`createdAt`), so that every run of the same spec, on any runner, at any time, sends the same
 * request under the same Idempotency-Key and sets the same deadline. Checked as parseDeadline checks it.
 */
export type SpecDeadline = { at: string } | { afterMs: number };

export function parseSpecDeadline(text: string, nowMs: number = Date.now()): SpecDeadline {
  const at = parseDeadline(text, nowMs);
  return looksLikeDuration(text.trim()) ? { afterMs: parseDuration(text) } : { at };
}
