/**
 * Pacing from the service's RateLimit headers (pins.md, "Rate limit"), so that a busy client (`batch run`) works at
 * the account's ceiling instead of running into it and retrying after 429s. Times are passed in, so every rule is
 * unit-tested without a clock or a server; the client waits what `wait` answers before each API request.
 *
 * The headers give the ceiling (RateLimit-Limit) and the seconds until it resets (RateLimit-Reset), not the window's
 * length: the longest reset seen stands for it. Whatever the service's window (fixed or sliding), no more than the
 * limit are then sent in any stretch of one window, which it cannot count as too many. A 429's Retry-After (or its
 * RateLimit-Reset) holds every request back until then, not only the one that was refused.
 */
import { parseRetryAfter } from './retry.js';

/** The share of a window added to it: answers arrive a little later than their requests were sent, and not evenly. */
const WINDOW_MARGIN = 0.05;

/** Requests remembered before a ceiling is known: more than a client sends before its first answer. */
const UNKNOWN_LIMIT_KEPT = 256;

export interface RateLimitHeaders {
  status: number;
  limit?: string;
  reset?: string;
  retryAfter?: string;
}

export class RatePacer {
  private limit = 0;
  private windowMs = 0;
  /** When each of the last `limit` requests was sent (or will be): a ring, oldest at `next`. */
  private sent: number[] = [];
  private next = 0;
  private heldUntilMs = 0;

  /**
   * How long to wait, from nowMs, before the next request may be sent: ask again after the wait (another request may
   * have gone meanwhile), and call `sent` when it goes. Counting sends, not reservations, keeps a busy event loop
   * (a PDF being read) from sending at once requests that were spread out in time.
   */
  wait(nowMs: number): number {
    let at = Math.max(nowMs, this.heldUntilMs);
    if (this.limit > 0 && this.sent.length === this.limit) {
      at = Math.max(at, this.sent[this.next]! + Math.ceil(this.windowMs * (1 + WINDOW_MARGIN)));
    }
    return at - nowMs;
  }

  /** Counts a request sent at nowMs. */
  send(nowMs: number): void {
    if (this.limit === 0) {
      // Before the first answer names the ceiling: kept (the latest few) to count against it once it does.
      this.sent.push(nowMs);
      if (this.sent.length > UNKNOWN_LIMIT_KEPT) this.sent.shift();
    } else {
      if (this.sent.length < this.limit) this.sent.push(nowMs);
      else this.sent[this.next] = nowMs;
      this.next = (this.next + 1) % this.limit;
    }
  }

  /** Learns the ceiling from an answer's headers; a 429 holds every request back until the service said. */
  observe(nowMs: number, headers: RateLimitHeaders): void {
    const limit = Number(headers.limit);
    const resetMs = parseRetryAfter(headers.reset, nowMs);
    if (Number.isSafeInteger(limit) && limit > 0 && resetMs !== undefined) {
      this.windowMs = Math.max(this.windowMs, resetMs);
      if (limit !== this.limit) {
        // The times kept so far are those of the most recent requests, newest last.
        const ordered = [...this.sent.slice(this.next), ...this.sent.slice(0, this.next)].slice(-limit);
        this.limit = limit;
        this.sent = ordered;
        this.next = ordered.length % limit;
      }
    }
    if (headers.status === 429) {
      const waitMs = parseRetryAfter(headers.retryAfter, nowMs) ?? resetMs;
      if (waitMs !== undefined) this.heldUntilMs = Math.max(this.heldUntilMs, nowMs + waitMs);
    }
  }
}
