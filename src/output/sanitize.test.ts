import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalJson, visible } from './sanitize.js';

const controlOrOverride = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;

describe('visible (text from a server or a file)', () => {
  it('shows escape sequences, line breaks and bidi overrides instead of obeying them', () => {
    expect(visible('\u001b[2Jcleared')).toBe('\\u001b[2Jcleared');
    expect(visible('\u001b]0;pwned\u0007title')).toBe('\\u001b]0;pwned\\u0007title');
    expect(visible('ok\r✓ forged line\nsecond')).toBe('ok\\r✓ forged line\\nsecond');
    expect(visible('\u009b31mC1 CSI\ttab')).toBe('\\u009b31mC1 CSI\\ttab');
    expect(visible('invoice\u202eFDP.exe')).toBe('invoice\\u202eFDP.exe');
  });

  it('shows the invisible format characters (zero-width space and joiners, word joiner, BOM, soft hyphen, tags)', () => {
    expect(visible('e\u200bm\u200c_\u200dt\u2060e\ufeffs\u00adt')).toBe('e\\u200bm\\u200c_\\u200dt\\u2060e\\ufeffs\\u00adt');
    expect(visible('tag\u{e0041}')).toBe('tag\\udb40\\udc41');
    expect(terminalJson({ key: 'e\u200bm\u{e0041}' })).toBe('{"key":"e\\u200bm\\udb40\\udc41"}');
    expect(JSON.parse(terminalJson({ key: 'e\u200bm\u{e0041}' }))).toEqual({ key: 'e\u200bm\u{e0041}' });
  });

  it('property: the result holds no control character, C1 control, bidi control or line separator', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expect(visible(text)).not.toMatch(controlOrOverride);
      }),
    );
  });

  it('property: printable text passes unchanged, and showing it twice changes nothing more', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        if (!controlOrOverride.test(text)) expect(visible(text)).toBe(text);
        expect(visible(visible(text))).toBe(visible(text));
      }),
    );
  });
});

describe('terminalJson (--json output)', () => {
  it('property: the same value, valid JSON, with no raw control, C1, bidi control or separator', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 40 }), (value, text) => {
        const document = { value, text };
        const json = terminalJson(document, 2);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(document)));
        expect(json.replaceAll('\n', '')).not.toMatch(controlOrOverride);
      }),
    );
  });
});

