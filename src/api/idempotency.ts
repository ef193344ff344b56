import { UsageError } from '../core/errors.js';

/** Contract, "Idempotency": the service answers a repeated Idempotency-Key with its first answer for 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Contract, "Limits": an Idempotency-Key is 8 to 255 printable ASCII characters, the space among them; only not at
 * either end, where HTTP trims it off the header's value, so that the key received is the key sent.
 */
export const idempotencyKeyPattern = /^[\x21-\x7e][\x20-\x7e]{6,253}[\x21-\x7e]$/;

export function isValidIdempotencyKey(key: string): boolean {
  return idempotencyKeyPattern.test(key);
}

export function assertIdempotencyKey(key: string): void {
  if (!isValidIdempotencyKey(key)) {
    throw new UsageError(
      'The Idempotency-Key must be 8 to 255 printable ASCII characters, with no space at either end.',
      'Omit --idempotency-key to let esign generate one.',
      'IDEMPOTENCY_KEY_INVALID',
    );
  }
}
