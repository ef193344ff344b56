import { describe, expect, it } from 'vitest';
import { UsageError } from '../api/errors.js';
import { isLoopbackHost, parseBaseUrl } from './hosts.js';
import { assertKeyForMode, maskKey, parseKey } from './keys.js';

describe('key format (pins: <prefix>_(test|live)_<secret>)', () => {
  it('parses test and live keys', () => {
    expect(parseKey('ab_test_AAAAAAAAAAAAAAAA')).toEqual({ prefix: 'ab', mode: 'sandbox' });
    expect(parseKey('acme1234_live_0123456789abcdefXYZ')).toEqual({ prefix: 'acme1234', mode: 'production' });
  });
  it('rejects short secrets, long prefixes and other shapes', () => {
    for (const key of ['ab_test_short', 'abcdefghi_test_AAAAAAAAAAAAAAAA', 'AB_test_AAAAAAAAAAAAAAAA', 'ab_prod_AAAAAAAAAAAAAAAA', 'ab_test_AAAAAAAA-AAAAAAAA']) {
      expect(parseKey(key), key).toBeUndefined();
    }
  });
  it('masks a key as <prefix>_test_…last4, never showing the secret', () => {
    expect(maskKey('ab_test_SECRETSECRETwxyz')).toBe('ab_test_…wxyz');
    expect(maskKey('ab_test_SECRETSECRETwxyz')).not.toContain('SECRET');
  });
  it('refuses a key of the wrong kind for the mode, saying what to do', () => {
    expect(() => assertKeyForMode('ab_live_AAAAAAAAAAAAAAAA', 'sandbox', 'ESIGN_API_KEY')).toThrow(/live key.*sandbox mode/);
    expect(() => assertKeyForMode('ab_test_AAAAAAAAAAAAAAAA', 'production', 'ESIGN_API_KEY')).toThrow(UsageError);
    expect(assertKeyForMode('ab_test_AAAAAAAAAAAAAAAA', 'sandbox', 'x').mode).toBe('sandbox');
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
  it('knows loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.5.6.7', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });
  it('refuses plain http unless the host is loopback', () => {
    expect(() => parseBaseUrl('http://api.example.com', 'test')).toThrow(/plain http/);
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
