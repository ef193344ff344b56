import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { parseBaseUrl } from './hosts.js';
import { assertKeyForMode, maskKey } from './keys.js';

describe('key masking and mode (pins: <prefix>_(test|live)_<secret>)', () => {
  it('masks a key as <prefix>_test_…last4, never showing the secret', () => {
    expect(maskKey('ab_test_SECRETSECRETwxyz')).toBe('ab_test_…wxyz');
    expect(maskKey('ab_test_SECRETSECRETwxyz')).not.toContain('SECRET');
  });
  it('refuses a key of the wrong kind for the mode, saying what to do', () => {
    expect(() => assertKeyForMode('ab_live_AAAAAAAAAAAAAAAA', 'sandbox', 'ESIGN_API_KEY')).toThrow(/live key.*sandbox mode/);
    expect(() => assertKeyForMode('ab_test_AAAAAAAAAAAAAAAA', 'production', 'ESIGN_API_KEY')).toThrow(UsageError);
    expect(assertKeyForMode('ab_test_AAAAAAAAAAAAAAAA', 'sandbox', 'x').mode).toBe('sandbox');
  });
  it('hints the mode switch that uses the key as it is, or the fix its source knows better', () => {
    const hint = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as UsageError).hint;
      }
      throw new Error('expected a refusal');
    };
    expect(hint(() => assertKeyForMode('ab_live_AAAAAAAAAAAAAAAA', 'sandbox', 'ESIGN_API_KEY'))).toContain('pass --live to use this live key');
    expect(hint(() => assertKeyForMode('ab_test_AAAAAAAAAAAAAAAA', 'production', 'ESIGN_API_KEY'))).toContain('Leave out --live to use this test key');
    expect(hint(() => assertKeyForMode('ab_live_AAAAAAAAAAAAAAAA', 'sandbox', 'stdin', 'Use the other flag.'))).toBe('Use the other flag.');
  });
  it('never puts the key itself in the refusal', () => {
    try {
      assertKeyForMode('ab_live_TOPSECRETTOPSECRET', 'sandbox', 'ESIGN_API_KEY');
    } catch (error) {
      expect(String((error as Error).message) + String((error as UsageError).hint)).not.toContain('TOPSECRET');
    }
  });
});

describe('base URL rules', () => {
  it('refuses plain http unless the host is loopback as written', () => {
    for (const raw of ['http://api.example.com', 'http://evil.localhost:8787', 'http://127.1:8787', 'http://[::ffff:127.0.0.1]:8787']) {
      expect(() => parseBaseUrl(raw, 'test'), raw).toThrow(/plain http/);
    }
    expect(parseBaseUrl('http://localhost:8787', 'test').host).toBe('localhost:8787');
    expect(parseBaseUrl('http://127.0.0.1:8787/', 'test').origin).toBe('http://127.0.0.1:8787');
    expect(parseBaseUrl('https://api.example.com/prefix/', 'test').pathname).toBe('/prefix');
  });
  it('refuses credentials, queries and fragments in a base URL', () => {
    expect(() => parseBaseUrl('https://user:pw@api.example.com', 't')).toThrow(UsageError);
    expect(() => parseBaseUrl('https://api.example.com/?key=1', 't')).toThrow(UsageError);
    expect(() => parseBaseUrl('ftp://api.example.com', 't')).toThrow(UsageError);
    expect(() => parseBaseUrl('not a url', 't')).toThrow(UsageError);
  });
});
