/**
 * A relative deadline (`deadline: 7d` in a spec) counts from the envelope's creation as the service records it
 * (`createdAt`), not from the clock of whichever machine runs esign. The request that creates the envelope carries no
 * deadline, so a retry on a fresh runner sends it byte for byte under the same Idempotency-Key and the service answers
 * the first envelope; the deadline is then set with the settings PATCH, which gives the same value on every run.
 */
import type { ApiClient } from '../api/client.js';
import type { EnvelopeBody } from '../output/envelope-view.js';
import { envelopeIdOf } from '../output/envelope-view.js';

/** Settings can change while the envelope is a draft or sent (contract); an ended envelope keeps what it had. */
const EDITABLE = new Set(['DRAFT', 'SENT']);

/** `createdAt + afterMs`, as the contract writes a deadline; an answer without `createdAt` counts from now. */
export function deadlineAfterCreation(createdAt: string | null | undefined, afterMs: number): string {
  const created = createdAt ? Date.parse(createdAt) : NaN;
  return new Date((Number.isNaN(created) ? Date.now() : created) + afterMs).toISOString();
}

/**
 * Sets the deadline `afterMs` after the envelope's creation unless it is set already (a run before this one did) or
 * the envelope has ended; answers the envelope as it is now.
 */
export async function settleRelativeDeadline(client: ApiClient, envelope: EnvelopeBody, afterMs: number, signal?: AbortSignal): Promise<EnvelopeBody> {
  const deadline = deadlineAfterCreation(envelope.createdAt, afterMs);
  const current = envelope.deadline ? new Date(envelope.deadline).toISOString() : undefined;
  if (current === deadline || !EDITABLE.has(envelope.status ?? 'DRAFT')) return envelope;
  const { body } = await client.call<EnvelopeBody>('updateEnvelopeSettings', { params: { envelopeId: envelopeIdOf(envelope) }, body: { deadline }, ...(signal ? { signal } : {}) });
  return body;
}
