import { describe, expect, it } from 'vitest';
import { bearerCredential } from './authorization.js';
import { ApiFailure } from './errors.js';

const key = 'em_test_AAAAAAAAAAAAAAAAAAAA';

function refusal(header: string | undefined): ApiFailure {
  try {
    bearerCredential(header, 'API key');
  } catch (error) {
    if (error instanceof ApiFailure) return error;
    throw error;
  }
  throw new Error(`${header} was accepted`);
}

describe('bearerCredential', () => {
  it('takes the scheme in any letter case, followed by one or more spaces', () => {
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`, ` Bearer ${key} `]) expect(bearerCredential(header, 'API key')).toBe(key);
  });

  it('calls a header that is absent or empty missing', () => {
    for (const header of [undefined, '', '   ']) expect(refusal(header)).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Missing API key: send Authorization: Bearer <API key>.' });
  });

  it('says the key is missing after a bare Bearer', () => {
    expect(refusal('Bearer')).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: expect.stringContaining('no API key after Bearer') });
  });

  it('refuses another scheme, a key without a scheme and extra parts with a message of their own that repeats nothing of the header', () => {
    for (const header of [`Basic ${key}`, key, `Bearer ${key} x`, `Bearer x ${key}`]) {
      const failure = refusal(header);
      expect(failure).toMatchObject({ status: 401, code: 'INVALID_AUTHORIZATION_HEADER' });
      expect(failure.message).not.toMatch(/missing/i);
      expect(failure.message).not.toContain('AAAA');
    }
    expect(refusal(`Bearer ${key} x`).message).toContain('2 values after Bearer');
  });
});
