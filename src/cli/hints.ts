/*
 * Next steps for the service's refusals, named as esign commands: the service's own message may name an API path
 * (`PUT .../participants`), which is not something a person at this CLI can type.
 */
import type { ApiError } from '../core/errors.js';

const envelopePlaceholder = '<envelope>';

const nextSteps: Record<string, (envelopeId: string) => string> = {
  ENVELOPE_HAS_NO_PARTICIPANTS: (envelopeId) => `Add participants first: esign participants set ${envelopeId} --file participants.yaml`,
  ENVELOPE_HAS_NO_DOCUMENTS: (envelopeId) => `Upload a document first: esign documents upload ${envelopeId} contract.pdf`,
  FIELD_PARTICIPANT_UNKNOWN: (envelopeId) =>
    `Fields name participants by the ids \`esign participants list ${envelopeId}\` shows; add missing ones with esign participants set ${envelopeId} --file participants.yaml`,
};

/** The command to run next after this refusal, if esign knows one. */
export function commandHint(error: ApiError): string | undefined {
  const details = error.details as { envelopeId?: unknown } | undefined;
  const envelopeId = typeof details?.envelopeId === 'string' ? details.envelopeId : envelopePlaceholder;
  return nextSteps[error.apiCode]?.(envelopeId);
}
