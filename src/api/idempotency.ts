import { UsageError } from './errors.js';

/** Contract, "Limits": an Idempotency-Key is 8 to 255 printable ASCII characters (spaces excluded, see docs). */
export function isValidIdempotencyKey(key: string): boolean {
  return /^[\x21-\x7e]{8,255}$/.test(key);
}

export function assertIdempotencyKey(key: string): void {
  if (!isValidIdempotencyKey(key)) {
    throw new UsageError(
      'The Idempotency-Key must be 8 to 255 printable ASCII characters with no spaces.',
      'Omit --idempotency-key to let esign generate one.',
      'IDEMPOTENCY_KEY_INVALID',
    );
  }
}
