/*
 * Sending: while documents are still processing the API answers 409 ENVELOPE_DOCUMENTS_NOT_READY, and the contract
 * says to repeat the same operation with the same Idempotency-Key. The client's retry loop does exactly that (one key
 * per logical call); this workflow bounds the wait and tells the person what is happening.
 */
import type { ApiClient } from '../api/client.js';
import { ApiError, UsageError } from '../core/errors.js';
import { notReadyCodes } from '../api/retry.js';
import type { Context } from '../cli/command.js';
import { formatDuration } from '../input/duration.js';
import type { EnvelopeBody } from '../output/envelope-view.js';
import { visible } from '../output/sanitize.js';
import { listAllDocuments, stuckDraftWayOut } from './upload.js';

export const defaultSendWaitMs = 120_000;

export interface SendResult {
  envelope: EnvelopeBody;
  idempotencyKey?: string;
  replayed: boolean;
}

/** Statuses that waiting never ends: the person has to act (confirm a conversion), or the draft cannot be repaired. */
const stuckStatuses: ReadonlySet<string> = new Set(['AWAITING_UPLOAD', 'FAILED', 'AWAITING_CONVERSION_CONFIRMATION']);

/**
 * The API answers "not ready" for a document nobody uploaded as well as for one being processed; only the second is
 * worth waiting for, so the first is caught before the send. A document without its bytes or whose processing failed
 * cannot be replaced or removed (the contract has no such operation), so the hint gives the one way out that works.
 */
async function assertNothingToDo(client: ApiClient, envelopeId: string): Promise<void> {
  const stuck = (await listAllDocuments(client, envelopeId)).filter((document) => stuckStatuses.has(document.status));
  if (stuck.length === 0) return;
  const lines = stuck.map((document) => `${document.fileName || document.documentId} (${document.documentId}) is ${document.status}`);
  const unrepairable = stuck.some((document) => document.status !== 'AWAITING_CONVERSION_CONFIRMATION');
  throw new UsageError(
    `Envelope ${envelopeId} cannot be sent: ${lines.join('; ')}. Nothing was sent.`,
    unrepairable
      ? stuckDraftWayOut(envelopeId)
      : `Confirm the converted PDF (esign documents confirm-conversion ${envelopeId} ${stuck[0]!.documentId}), then send again.`,
    'DOCUMENTS_NEED_ACTION',
    { documents: stuck.map((document) => ({ documentId: document.documentId, fileName: document.fileName, status: document.status })) },
  );
}

export async function sendEnvelope(ctx: Context, envelopeId: string, waitTimeoutMs: number = defaultSendWaitMs): Promise<SendResult> {
  const client = await ctx.client();
  await assertNothingToDo(client, envelopeId);
  const spinner = await ctx.output.spinner(`Sending envelope ${envelopeId}`);
  // The waits really slept between attempts, not the time since the start (which counts the requests too).
  let waitedMs = 0;
  let attempts = 1;
  try {
    const response = await client.call<EnvelopeBody>('sendEnvelope', {
      params: { envelopeId },
      body: {},
      retry: { waitTimeoutMs },
      onRetry: ({ reason, attempt, delayMs }) => {
        const text = reason.includes('document processing')
          ? `Documents still processing; sending again in ${formatDuration(delayMs)} with the same Idempotency-Key (attempt ${attempt + 1}; waited ${formatDuration(waitedMs)} so far, up to ${formatDuration(waitTimeoutMs)})`
          : `Retrying the send in ${formatDuration(delayMs)} (${reason}; attempt ${attempt + 1})`;
        spinner.update(text);
        // Without a spinner, one line says why the command is quiet for a while; the count comes once it is sent.
        if (!ctx.output.showsTransient && attempts === 1) ctx.output.info(visible(text));
        waitedMs += delayMs;
        attempts = attempt + 1;
      },
    });
    spinner.stop();
    if (attempts > 1) ctx.output.info(`Sent on attempt ${attempts}, after waiting ${formatDuration(waitedMs)} in all between attempts.`);
    return {
      envelope: response.body,
      ...(response.idempotencyKey ? { idempotencyKey: response.idempotencyKey } : {}),
      replayed: response.headers['idempotent-replayed'] === 'true',
    };
  } catch (error) {
    spinner.stop();
    if (error instanceof ApiError && error.status === 409 && notReadyCodes.has(error.code)) {
      error.hint = `The documents were still processing after ${formatDuration(waitTimeoutMs)}. Check them with \`esign envelopes get ${envelopeId}\`, then send again (or raise --wait-timeout).`;
    }
    throw error;
  }
}
