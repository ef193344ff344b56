import { describe, expect, it } from 'vitest';
import { keyShapedLines, keyShapedPaths, keyShapedText, parseKey } from './keys.js';

describe('key format (pins: <prefix>_(test|live)_<secret>)', () => {
  it('parses test and live keys', () => {
    expect(parseKey('ab_test_AAAAAAAAAAAAAAAA')).toEqual({ prefix: 'ab', mode: 'sandbox' });
    expect(parseKey('acme1234_live_0123456789abcdefXYZ')).toEqual({ prefix: 'acme1234', mode: 'production' });
  });

  it('rejects short secrets, long prefixes and other shapes', () => {
    for (const key of ['ab_test_short', 'abcdefghi_test_AAAAAAAAAAAAAAAA', 'AB_test_AAAAAAAAAAAAAAAA', 'ab_prod_AAAAAAAAAAAAAAAA', 'ab_test_AAAAAAAA-AAAAAAAA', ' ab_test_AAAAAAAAAAAAAAAA']) {
      expect(parseKey(key), key).toBeUndefined();
    }
  });

  it('finds key-shaped text inside longer text, by line, without returning it', () => {
    const text = 'profile: acme\n# old key: ab_test_AAAAAAAAAAAAAAAA1234\nurl: "x"\nnote: zz_live_BBBBBBBBBBBBBBBB and ab_test_CCCCCCCCCCCCCCCC\n';
    expect(keyShapedLines(text)).toEqual([2, 4]);
    expect(keyShapedLines('profile: acme\nab_test_short\n')).toEqual([]);
    expect(text.replace(keyShapedText, '[key]')).not.toMatch(/AAAA|BBBB|CCCC/);
  });

  it('finds the paths of key-shaped values and names in a document', () => {
    const document = { title: 'NDA ab_test_AAAAAAAAAAAAAAAA', list: ['x', { note: 'zz_live_BBBBBBBBBBBBBBBB' }], properties: { ab_test_CCCCCCCCCCCCCCCC: 1 }, n: 7, ok: 'ab_test_short' };
    expect(keyShapedPaths(document)).toEqual([['title'], ['list', 1, 'note'], ['properties', 'ab_test_CCCCCCCCCCCCCCCC']]);
    expect(keyShapedPaths('ab_test_AAAAAAAAAAAAAAAA')).toEqual([[]]);
    expect(keyShapedPaths(null)).toEqual([]);
  });
});
