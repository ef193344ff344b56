import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAddress, verifySignedAddress } from './signing.js';

function parts(url: string): { path: string; query: Record<string, string> } {
  const parsed = new URL(url);
  return { path: parsed.pathname, query: Object.fromEntries(parsed.searchParams) };
}

describe('signed addresses', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs origin + path with expires and signature, valid until it expires', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00.000Z') });
    const { url, expiresAt } = signAddress('http://127.0.0.1:1234', '/_files/documents/abc', 60_000);
    expect(url.startsWith('http://127.0.0.1:1234/_files/documents/abc?expires=')).toBe(true);
    expect(expiresAt).toBe('2026-01-01T00:01:00.000Z');
    const { path, query } = parts(url);
    expect(verifySignedAddress(path, query)).toBe('ok');
    vi.setSystemTime(new Date('2026-01-01T00:01:00.001Z'));
    expect(verifySignedAddress(path, query)).toBe('expired');
  });

  it('is invalid for another path, a changed expiry, a changed or missing signature', () => {
    const { path, query } = parts(signAddress('http://localhost', '/_files/documents/abc', 60_000).url);
    expect(verifySignedAddress('/_files/documents/abd', query)).toBe('invalid');
    expect(verifySignedAddress(path, { ...query, expires: String(Number(query.expires) + 1) })).toBe('invalid');
    const signature = query.signature!;
    expect(verifySignedAddress(path, { ...query, signature: `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}` })).toBe('invalid');
    expect(verifySignedAddress(path, { expires: query.expires })).toBe('invalid');
    expect(verifySignedAddress(path, { ...query, signature: 'short' })).toBe('invalid');
    expect(verifySignedAddress(path, { ...query, expires: 'soon' })).toBe('invalid');
  });

  it('covers the names of the headers it requires: an address whose list of headers is changed or dropped is invalid', () => {
    const { path, query } = parts(signAddress('http://localhost', '/_files/documents/abc', 60_000, ['x-emulator-meta-documentid']).url);
    expect(query.headers).toBe('x-emulator-meta-documentid');
    expect(verifySignedAddress(path, query)).toBe('ok');
    const { headers: _dropped, ...withoutHeaders } = query;
    expect(verifySignedAddress(path, withoutHeaders)).toBe('invalid');
    expect(verifySignedAddress(path, { ...query, headers: 'x-other' })).toBe('invalid');
  });

  it('an expired address with a changed expiry is invalid, not expired: only issued addresses are said to expire', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00.000Z') });
    const { path, query } = parts(signAddress('http://localhost', '/x', 1_000).url);
    vi.setSystemTime(new Date('2026-01-02T00:00:00.000Z'));
    expect(verifySignedAddress(path, query)).toBe('expired');
    expect(verifySignedAddress(path, { ...query, expires: String(Date.now() + 60_000) })).toBe('invalid');
  });
});
