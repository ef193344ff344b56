import { describe, expect, it } from 'vitest';
import { isShortId } from './envelope-id.js';

describe('short envelope ids', () => {
  it('looks up 8 or more id characters that are not a whole id, as git resolves short hashes', () => {
    expect(isShortId('3f6c1a2b')).toBe(true);
    expect(isShortId('3f6c1a2b-9d')).toBe(true);
    expect(isShortId('3f6c1a2')).toBe(false);
    expect(isShortId('3f6c1a2b-9d4e-4f00-8a11-0123456789ab')).toBe(false);
    expect(isShortId('not-an-id')).toBe(false);
  });
});
