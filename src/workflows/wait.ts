/*
 * Polls an envelope until it reaches a status. The decision (reached, ended elsewhere, keep waiting) and the backoff
 * are pure functions; the loop takes its clock and sleep from outside so it is tested without waiting.
 */
import type { ApiClient } from '../api/client.js';
import { ExitCode, WaitError } from '../api/errors.js';
import { interruption } from '../cli/interrupt.js';
import { formatDuration } from '../input/duration.js';
import { envelopeIdOf, finalEnvelopeStatuses, type EnvelopeBody } from '../output/envelope-view.js';

export const waitTargets = ['SENT', 'COMPLETED', 'VOIDED'] as const;
export type WaitTarget = (typeof waitTargets)[number];

export type WaitVerdict = 'reached' | 'ended-elsewhere' | 'pending';

/** A completed envelope was sent on its way there: waiting for SENT is satisfied by COMPLETED too. */
export function judgeStatus(target: WaitTarget, status: string | undefined): WaitVerdict {
  if (status === target || (target === 'SENT' && status === 'COMPLETED')) return 'reached';
  if (status !== undefined && finalEnvelopeStatuses.has(status)) return 'ended-elsewhere';
  return 'pending';
}

/** 1 s, then ×1.5 each poll, at most 15 s: quick for a send, gentle for a signature that takes days. */
export function pollDelayMs(poll: number): number {
  return Math.min(15_000, Math.round(1_000 * 1.5 ** (poll - 1)));
}

export interface WaitOptions {
  until: WaitTarget;
  timeoutMs: number;
  /** After every read, e.g. to update a spinner. */
  onStatus?: (status: string | undefined, elapsedMs: number) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => interruption.sleep(ms);

export async function waitForEnvelope(client: Pick<ApiClient, 'call'>, envelopeId: string, options: WaitOptions): Promise<EnvelopeBody> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const started = now();
  const deadline = started + options.timeoutMs;
  for (let poll = 1; ; poll++) {
    const { body: envelope } = await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId } });
    options.onStatus?.(envelope.status, now() - started);
    const verdict = judgeStatus(options.until, envelope.status);
    if (verdict === 'reached') return envelope;
    if (verdict === 'ended-elsewhere') {
      throw new WaitError(
        `Envelope ${envelopeIdOf(envelope)} ended ${envelope.status}${envelope.cancellationReason ? ` (${envelope.cancellationReason})` : ''}; it will never be ${options.until}.`,
        ExitCode.conflict,
        'ENVELOPE_ENDED_OTHERWISE',
        { envelopeId, status: envelope.status, until: options.until, ...(envelope.cancellationReason ? { cancellationReason: envelope.cancellationReason } : {}) },
      );
    }
    const remaining = deadline - now();
    if (remaining <= 0) {
      const error = new WaitError(
        `Envelope ${envelopeId} is still ${envelope.status ?? 'in an unknown state'} after ${formatDuration(options.timeoutMs)}; it did not become ${options.until}.`,
        ExitCode.network,
        'WAIT_TIMEOUT',
        { envelopeId, status: envelope.status, until: options.until, waitedMs: now() - started },
      );
      error.hint = `Wait longer with --wait-timeout, e.g. \`esign envelopes wait ${envelopeId} --until ${options.until} --wait-timeout 1h\`.`;
      throw error;
    }
    await sleep(Math.min(pollDelayMs(poll), remaining));
  }
}
