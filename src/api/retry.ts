/**
 * When to try a request again, and after how long: a pure function, so every rule is unit-tested without a clock or
 * a server. The client owns the loop; this file owns the decision.
 */
import { ProxyRefusedError, type NetworkError } from '../core/errors.js';

export interface RetryPolicy {
  /** Attempts in all for transient failures (429, 5xx, connection errors), the first included. */
  maxAttempts: number;
  /**
   * Attempts in all once one of them timed out: a host that stayed silent for a whole `--timeout` seldom answers the
   * next try, so it gets one more chance, not maxAttempts' worth of waiting.
   */
  maxAttemptsAfterTimeout: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's Retry-After is honoured up to this much. */
  maxRetryAfterMs: number;
  /** How long a "not ready yet" 409 is waited out, from the first attempt. */
  waitTimeoutMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  maxAttemptsAfterTimeout: 2,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  waitTimeoutMs: 120_000,
};

/** The status of a proxy's refusal to open the tunnel, as an attempt's outcome has it. */
export function proxyStatusOf(error: NetworkError): { proxyStatus?: number } {
  return error instanceof ProxyRefusedError ? { proxyStatus: error.proxyStatus } : {};
}

/** 409 codes that mean "the documents are still being processed": the same request succeeds later. */
export const notReadyCodes: ReadonlySet<string> = new Set(['ENVELOPE_DOCUMENTS_NOT_READY', 'DOCUMENT_NOT_READY']);

export type AttemptOutcome =
  | { kind: 'response'; status: number; code?: string; retryAfter?: string | null }
  | { kind: 'network'; timedOut?: boolean; proxyStatus?: number };

export interface RetryInput {
  outcome: AttemptOutcome;
  method: string;
  hasIdempotencyKey: boolean;
  /** 1 for the attempt that just failed. */
  attempt: number;
  /** Milliseconds since the first attempt started. */
  elapsedMs: number;
  /** In [0, 1): injected so tests are deterministic. */
  random: number;
  /** For HTTP-date Retry-After values. */
  nowMs: number;
}

export type RetryDecision = { retry: false; reason: string } | { retry: true; delayMs: number; reason: string };

const replayableMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Retry-After is either delta-seconds or an HTTP-date; anything else is ignored. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Full jitter (AWS architecture blog): spreads a crowd of clients instead of synchronising them. */
export function backoffDelay(attempt: number, random: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

export function decideRetry(input: RetryInput, policy: RetryPolicy = defaultRetryPolicy): RetryDecision {
  const { outcome, attempt } = input;
  // A POST without an Idempotency-Key may have been applied already: repeating it could create a duplicate.
  const safeToReplay = replayableMethods.has(input.method.toUpperCase()) || input.hasIdempotencyKey;

  if (outcome.kind === 'response' && outcome.status === 409 && outcome.code && notReadyCodes.has(outcome.code)) {
    const delayMs = Math.min(2_000, backoffDelay(attempt, input.random, policy));
    if (input.elapsedMs + delayMs > policy.waitTimeoutMs) {
      return { retry: false, reason: 'documents still not ready when the wait timeout ran out' };
    }
    return { retry: true, delayMs, reason: `${outcome.code}: waiting for document processing` };
  }

  if (attempt >= policy.maxAttempts) return { retry: false, reason: 'out of attempts' };

  if (outcome.kind === 'network') {
    // A proxy's refusal (407 for credentials, 403 for a host it does not allow) is the same on every attempt; its 5xx
    // (the host unreachable from it, itself overloaded) may pass.
    if (outcome.proxyStatus !== undefined && outcome.proxyStatus < 500) return { retry: false, reason: `the proxy answered ${outcome.proxyStatus}` };
    if (!safeToReplay) return { retry: false, reason: 'a POST without Idempotency-Key is never repeated' };
    if (outcome.timedOut && attempt >= policy.maxAttemptsAfterTimeout) return { retry: false, reason: `timed out on attempt ${attempt}` };
    return { retry: true, delayMs: backoffDelay(attempt, input.random, policy), reason: 'connection error' };
  }

  const { status } = outcome;
  if (status === 429 || status === 503) {
    // The server said when: the request was not processed, so even a plain POST may be repeated.
    const serverDelay = parseRetryAfter(outcome.retryAfter, input.nowMs);
    if (serverDelay !== undefined) {
      if (serverDelay > policy.maxRetryAfterMs) {
        return { retry: false, reason: `server asked to wait ${Math.ceil(serverDelay / 1000)} s, over the cap` };
      }
      return { retry: true, delayMs: serverDelay, reason: `${status} with Retry-After` };
    }
    if (status === 429 || safeToReplay) {
      return { retry: true, delayMs: backoffDelay(attempt, input.random, policy), reason: `${status}` };
    }
    return { retry: false, reason: 'a POST without Idempotency-Key is never repeated' };
  }
  if (status >= 500) {
    if (!safeToReplay) return { retry: false, reason: 'a POST without Idempotency-Key is never repeated' };
    return { retry: true, delayMs: backoffDelay(attempt, input.random, policy), reason: `${status}` };
  }
  return { retry: false, reason: `${status} is final` };
}
