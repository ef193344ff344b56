import { describe, expect, it } from 'vitest';
import { assertExtraHeader } from './request-headers.js';

describe('assertExtraHeader (esign api -H)', () => {
  it('refuses, in any case, each header that carries a credential, picks the host or route, frames the request or is set by esign', () => {
    const refused = [
      'Authorization', 'Proxy-Authorization', 'Cookie', 'x-account-id', 'Host', 'Forwarded', 'X-Forwarded-Host', 'X-Forwarded-Proto',
      'X-HTTP-Method-Override', 'X-Original-URL', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'TE',
      'Expect', 'Content-Type', 'Accept', 'Accept-Encoding', 'User-Agent', 'Idempotency-Key',
    ];
    for (const name of refused) {
      for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
        expect(() => assertExtraHeader(spelled, 'x'), spelled).toThrow(expect.objectContaining({ exitCode: 2, message: `-H ${spelled} is not accepted: esign sets or refuses this header itself.` }));
      }
    }
  });

  it('says what to do instead: the key from the profile, the host from the base URL, --idempotency-key', () => {
    expect(() => assertExtraHeader('Authorization', 'Bearer k')).toThrow(expect.objectContaining({ code: 'KEY_AS_ARGUMENT', hint: expect.stringContaining('ESIGN_API_KEY') }));
    expect(() => assertExtraHeader('Host', 'evil.example.com')).toThrow(expect.objectContaining({ code: 'HEADER_NOT_ALLOWED', hint: expect.stringContaining('origin it is bound to') }));
    expect(() => assertExtraHeader('Idempotency-Key', 'k-1')).toThrow(expect.objectContaining({ hint: expect.stringContaining('--idempotency-key') }));
    expect(() => assertExtraHeader('X-Account-Id', '1')).toThrow(expect.objectContaining({ hint: expect.stringContaining('never sends x-account-id') }));
  });

  it('refuses a name that is not a token and a value with a line break, a control character or a character past U+00FF', () => {
    expect(() => assertExtraHeader('X Trace', 'a')).toThrow(expect.objectContaining({ code: 'HEADER_INVALID', message: '-H "X Trace": not a valid header name.' }));
    expect(() => assertExtraHeader('X-Trace(1)', 'a')).toThrow(/not a valid header name/);
    for (const value of ['a\u0001', 'a\r\nX-Injected: 1', 'a\nb', 'a\u0000', 'a\u007f', '€']) {
      expect(() => assertExtraHeader('X-Trace', value), JSON.stringify(value)).toThrow(expect.objectContaining({ code: 'HEADER_INVALID', message: expect.stringMatching(/^-H X-Trace: the value .* holds a character a header cannot carry\.$/) }));
    }
  });

  it('accepts any other header with a printable value (a tab, Latin-1 and an empty value included)', () => {
    for (const [name, value] of [['X-Trace', 'abc: def'], ['X-Request-Id', 'a\tb'], ['X-Name', 'Zoë'], ['X-Empty', ''], ['Prefer', 'respond-async']]) {
      expect(() => assertExtraHeader(name!, value!)).not.toThrow();
    }
  });
});
