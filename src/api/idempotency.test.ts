import { describe, expect, it } from 'vitest';
import { isValidIdempotencyKey } from './idempotency.js';

describe('isValidIdempotencyKey ("8 to 255 printable ASCII characters")', () => {
  it('takes 8 to 255 printable ASCII characters, a space among them', () => {
    expect(isValidIdempotencyKey('a'.repeat(8))).toBe(true);
    expect(isValidIdempotencyKey('a'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('abcd efgh')).toBe(true);
    expect(isValidIdempotencyKey('~!@#$%^&*()_+{}|:"<>?')).toBe(true);
  });

  it('refuses fewer than 8 or more than 255, a space at either end (HTTP trims it), and anything beyond printable ASCII', () => {
    for (const key of ['a'.repeat(7), 'a'.repeat(256), ' abcdefgh', 'abcdefgh ', 'abcdéfgh', 'abcd\tefgh', 'abcd\u007fefgh']) {
      expect(isValidIdempotencyKey(key), JSON.stringify(key)).toBe(false);
    }
  });
});
