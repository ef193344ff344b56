/*
 * Waiting for the service: one polling loop (backoff ×1.5 up to a cap, a deadline, an interrupt signal, failed polls
 * that may be tried again) and the envelope wait built on it. The loop takes its clock and sleep from outside so it is
 * tested without waiting.
 */
import type { ApiClient } from '../api/client.js';
import { ApiError, ExitCode, NetworkError, WaitError } from '../core/errors.js';
import { abortableSleep, interruption } from '../core/interrupt.js';
import { holdYoungGeneration } from '../core/young-generation.js';
import { formatDuration } from '../input/duration.js';
import { envelopeIdOf, finalEnvelopeStatuses, type EnvelopeBody } from '../output/envelope-view.js';
import type { Output } from '../output/output.js';
import { visible } from '../output/sanitize.js';

export interface Backoff {
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Documents are processed in seconds: look often. */
export const documentBackoff: Backoff = { firstDelayMs: 250, maxDelayMs: 2_000 };
/** Quick for a send, gentle for a signature that takes days. */
export const envelopeBackoff: Backoff = { firstDelayMs: 1_000, maxDelayMs: 15_000 };

/** The pause after the `poll`-th check (from 1): the first delay, then ×1.5 each poll, at most the cap. */
export function pollDelayMs(poll: number, backoff: Backoff): number {
  return Math.min(backoff.maxDelayMs, Math.round(backoff.firstDelayMs * 1.5 ** (poll - 1)));
}

/**
 * An outage is checks failing one after the other with failures `pollAgainAfter` tolerates. A wait outlasts a blip,
 * says so once the outage has lasted `warnAfterMs`, and gives up once it has lasted `giveUpAfterMs`, instead of
 * staying silent until the wait's own timeout (30 minutes for a batch).
 */
export interface OutageLimits {
  warnAfterMs: number;
  giveUpAfterMs: number;
}

export const outageLimits: OutageLimits = { warnAfterMs: 30_000, giveUpAfterMs: 120_000 };

export interface PollOptions {
  timeoutMs: number;
  backoff?: Backoff;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Ends the wait at once, between checks or mid-sleep; the wait rejects with its reason. Without one, a Ctrl-C or
   * SIGTERM does (`interruption.signal`): no wait may hold a stopping command past its grace.
   */
  signal?: AbortSignal;
  /**
   * Answers true for a failed check worth repeating at the next poll (a flaky link whose retries all failed). Such a
   * failure is thrown only if the time runs out right after it; any other failure ends the wait at once.
   */
  pollAgainAfter?: (error: unknown) => boolean;
  /** Called once an outage has lasted `warnAfterMs` (once per outage): the last failure, since when, until when. */
  onOutage?: (error: unknown, outage: { sinceMs: number; giveUpAtMs: number }) => void;
  /** Default `outageLimits`. */
  outage?: OutageLimits;
}

/**
 * Calls `check` until it answers something other than undefined. Answers undefined when the time runs out; the last
 * check happens no later than the deadline.
 */
export async function pollUntil<T>(check: () => Promise<T | undefined>, options: PollOptions): Promise<T | undefined> {
  const now = options.now ?? Date.now;
  const signal = options.signal ?? interruption.signal;
  const sleep = options.sleep ?? ((ms: number) => abortableSleep(ms, signal));
  const backoff = options.backoff ?? documentBackoff;
  const deadline = now() + options.timeoutMs;
  const limits = options.outage ?? outageLimits;
  let outage: { since: number; warned: boolean } | undefined;
  for (let poll = 1; ; poll++) {
    signal.throwIfAborted();
    let failure: { error: unknown } | undefined;
    const checkedAt = now();
    try {
      const value = await check();
      if (value !== undefined) return value;
      outage = undefined;
    } catch (error) {
      if (signal.aborted || !options.pollAgainAfter?.(error)) throw error;
      failure = { error };
      outage ??= { since: checkedAt, warned: false };
      const lasted = now() - outage.since;
      if (lasted >= limits.giveUpAfterMs) throw gaveUp(error, lasted);
      if (!outage.warned && lasted >= limits.warnAfterMs) {
        outage.warned = true;
        options.onOutage?.(error, { sinceMs: outage.since, giveUpAtMs: outage.since + limits.giveUpAfterMs });
      }
    }
    const remaining = deadline - now();
    if (remaining <= 0) {
      if (failure) throw failure.error;
      return undefined;
    }
    holdYoungGeneration();
    await sleep(Math.min(pollDelayMs(poll, backoff), remaining));
  }
}

/** The last failure of an outage the wait gave up on, saying so (same code and exit code). */
function gaveUp(error: unknown, lastedMs: number): unknown {
  const message = `${(error as Error).message.replace(/\.?$/, '.')} Every check failed for ${formatDuration(lastedMs)}; esign stopped waiting.`;
  if (error instanceof NetworkError) return new NetworkError(message, error.code, error.hint);
  if (error instanceof ApiError) return new ApiError(error.status, error.apiCode, message, error.details, error.requestId, error.retryAfterSeconds);
  return error;
}

/** An `onOutage` that warns: what failed since when, and that the wait keeps trying until when. */
export function warnOnOutage(output: Pick<Output, 'warn'>, waitingFor: string): NonNullable<PollOptions['onOutage']> {
  const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { hour12: false });
  return (error, outage) =>
    output.warn(visible(`Waiting for ${waitingFor}: no answer from the service since ${time(outage.sinceMs)} (${(error as Error).message.replace(/\.$/, '')}); still trying until ${time(outage.giveUpAtMs)}, then giving up.`));
}

/**
 * A failed check worth repeating at the next poll: the link or the service failed (the client's own retries spent),
 * not the request; the service's failures are the statuses the exit codes call unavailable (429, 5xx). A wait of
 * minutes should outlast a blip of seconds.
 */
export function isTransientFailure(error: unknown): error is NetworkError | ApiError {
  return error instanceof NetworkError || (error instanceof ApiError && error.exitCode === ExitCode.unavailable);
}

export const waitTargets = ['SENT', 'COMPLETED', 'VOIDED'] as const;
export type WaitTarget = (typeof waitTargets)[number];

export type WaitVerdict = 'reached' | 'ended-elsewhere' | 'pending';

/** A completed envelope was sent on its way there: waiting for SENT is satisfied by COMPLETED too. */
export function judgeStatus(target: WaitTarget, status: string | null | undefined): WaitVerdict {
  if (status === target || (target === 'SENT' && status === 'COMPLETED')) return 'reached';
  if (typeof status === 'string' && finalEnvelopeStatuses.has(status)) return 'ended-elsewhere';
  return 'pending';
}

export interface WaitOptions extends Omit<PollOptions, 'backoff'> {
  until: WaitTarget;
  /** After every read, e.g. to update a spinner. */
  onStatus?: (status: string | null | undefined, elapsedMs: number) => void;
}

/** Polls an envelope until it reaches a status; exit 5 if it ended in another final state, 7 at the timeout. */
export async function waitForEnvelope(client: Pick<ApiClient, 'call'>, envelopeId: string, options: WaitOptions): Promise<EnvelopeBody> {
  const now = options.now ?? Date.now;
  const started = now();
  let latest: EnvelopeBody | undefined;
  const reached = await pollUntil(
    async () => {
      const { body: envelope } = await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId }, ...(options.signal ? { signal: options.signal } : {}) });
      latest = envelope;
      options.onStatus?.(envelope.status, now() - started);
      const verdict = judgeStatus(options.until, envelope.status);
      if (verdict === 'ended-elsewhere') {
        throw new WaitError(
          `Envelope ${envelopeIdOf(envelope)} ended ${envelope.status}${envelope.cancellationReason ? ` (${envelope.cancellationReason})` : ''}; it will never be ${options.until}.`,
          ExitCode.conflict,
          'ENVELOPE_ENDED_OTHERWISE',
          { envelopeId, status: envelope.status, until: options.until, ...(envelope.cancellationReason ? { cancellationReason: envelope.cancellationReason } : {}) },
        );
      }
      return verdict === 'reached' ? envelope : undefined;
    },
    { pollAgainAfter: isTransientFailure, ...options, now, backoff: envelopeBackoff },
  );
  if (reached) return reached;
  const status = latest?.status;
  const error = new WaitError(
    `Envelope ${envelopeId} is still ${status ?? 'in an unknown state'} after ${formatDuration(options.timeoutMs)}; it did not become ${options.until}.`,
    ExitCode.network,
    'WAIT_TIMEOUT',
    { envelopeId, status, until: options.until, waitedMs: now() - started },
  );
  error.hint = `Wait longer with --wait-timeout, e.g. \`esign envelopes wait ${envelopeId} --until ${options.until} --wait-timeout 1h\`.`;
  throw error;
}
