import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWholeNumber } from './whole-number.js';

describe('parseWholeNumber', () => {
  it('reads plain decimal digits within the range (leading zeros and surrounding spaces are fine)', () => {
    expect(parseWholeNumber('20', 1, 100)).toBe(20);
    expect(parseWholeNumber('007', 1, 100)).toBe(7);
    expect(parseWholeNumber(' 0 ', 0)).toBe(0);
  });

  it.each(['1e2', '0x10', '0b11', '0o7', '+5', '-1', '12.0', '1_000', '', ' ', 'Infinity', '١٢'])('refuses %j, which Number() would read or that is no whole number', (text) => {
    expect(() => parseWholeNumber(text, 0)).toThrow('in plain digits (no sign, decimal point, exponent or 0x)');
  });

  it('says the range it wants', () => {
    expect(() => parseWholeNumber('101', 1, 100)).toThrow('expected a whole number from 1 to 100');
    expect(() => parseWholeNumber('0', 1)).toThrow('expected a whole number of 1 or more');
    expect(() => parseWholeNumber('9007199254740993', 0)).toThrow('of 0 or more');
  });

  it('accepts exactly the texts that are digits naming a number in the range', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), (text) => {
        const expected = /^\s*\d+\s*$/.test(text) && Number(text) <= 1000 ? Number(text) : undefined;
        let answered: number | undefined;
        try {
          answered = parseWholeNumber(text, 0, 1000);
        } catch {
          answered = undefined;
        }
        return answered === expected;
      }),
    );
  });
});
