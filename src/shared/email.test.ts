import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, isEmailAddress } from './email.js';

describe('isEmailAddress (WHATWG valid e-mail address)', () => {
  it.each(['ada@example.com', '?x%y@ae.example', "o'brien+tag@mail.example.org", 'a@localhost', 'x.y!#$&*/=^_`{|}~-@a-b.example'])('accepts %s', (address) => {
    expect(isEmailAddress(address)).toBe(true);
  });

  it.each(['ada', 'ada@', '@example.com', 'ada@@example.com', 'a b@example.com', 'ada@-example.com', 'ada@example-.com', 'ada@exa_mple.com', 'ada@example..com', '"q"@example.com', 'ada@[127.0.0.1]', 'adà@example.com'])(
    'refuses %s',
    (address) => {
      expect(isEmailAddress(address)).toBe(false);
    },
  );

  it('refuses a domain label over 63 characters and an address over the length limit', () => {
    expect(isEmailAddress(`a@${'b'.repeat(63)}.example`)).toBe(true);
    expect(isEmailAddress(`a@${'b'.repeat(64)}.example`)).toBe(false);
    expect(isEmailAddress(`${'a'.repeat(EMAIL_MAX_LENGTH - 10)}@x.example`)).toBe(true);
    expect(isEmailAddress(`${'a'.repeat(EMAIL_MAX_LENGTH - 9)}@x.example`)).toBe(false);
  });
});
