/**
 * The contract's closed value sets, defined once: the emulator validates with them, the CLI checks its input with them,
 * and the shell completions offer them.
 */
export const envelopeStatuses = ['DRAFT', 'SENT', 'COMPLETED', 'VOIDED', 'DECLINED', 'EXPIRED'] as const;
export type EnvelopeStatus = (typeof envelopeStatuses)[number];

export const deliveryMethods = ['EMAIL', 'SMS', 'WHATSAPP'] as const;
export type DeliveryMethod = (typeof deliveryMethods)[number];

export const participantRoles = ['SIGNER', 'APPROVER'] as const;
export type ParticipantRole = (typeof participantRoles)[number];

export const webhookEventTypes = ['ENVELOPE_SENT', 'ENVELOPE_COMPLETED', 'ENVELOPE_VOIDED', 'ENVELOPE_DECLINED'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** An anchor's `occurrence` is one of these words or N, the N-th match in the whole document (from 1). */
export const occurrenceWords = ['first', 'all'] as const;
export type Occurrence = (typeof occurrenceWords)[number] | number;

export const webhookDeliveryStatuses = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];
