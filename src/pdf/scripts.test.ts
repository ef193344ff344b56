/*
 * Anchors in scripts the shared corpus of real PDFs lacks, and the spellings of Thai and Lao that a reader sees as
 * one word: drawn in a generated PDF (test/support/script-pdfs.ts), so that every place is known.
 */
import { describe, expect, it } from 'vitest';
import { HELVETICA_ASCENT } from '../../test/support/pdfs.js';
import { SCRIPT_PDF_LAYOUT, characterX, scriptBaseline, unicodeTextPdf } from '../../test/support/script-pdfs.js';
import type { AnchorSearch } from './anchors.js';
import { searchPdf } from './text.js';

const top = (line: number): number => scriptBaseline(line) - HELVETICA_ASCENT * SCRIPT_PDF_LAYOUT.fontSize;

async function found(lines: readonly string[], text: string, options: Partial<AnchorSearch> = {}): Promise<{ x: number; y: number }[]> {
  const { matches } = await searchPdf(unicodeTextPdf(lines), [{ key: 'k', text, occurrence: 'all', ...options }]);
  return matches.map(({ x, y }) => ({ x, y }));
}

const at = (line: number, index: number) => ({ x: expect.closeTo(characterX(index), 2), y: expect.closeTo(top(line), 2) });

describe('anchors in scripts the corpus lacks', () => {
  it.each([
    ['Devanagari', 'अनुबंध पर हस्ताक्षर करें', 'हस्ताक्षर'],
    ['Bengali', 'চুক্তিতে স্বাক্ষর করুন', 'স্বাক্ষর'],
    ['Tamil', 'ஒப்பந்தத்தில் கையொப்பமிடுங்கள்', 'கையொப்பமிடுங்கள்'],
    ['Georgian', 'ხელშეკრულებას ხელი მოაწერეთ', 'ხელი'],
    ['Armenian', 'Ստորագրեք պայմանագիրը', 'պայմանագիրը'],
    ['Ethiopic', 'ውሉን ይፈርሙ', 'ይፈርሙ'],
    ['Khmer', 'សូម ចុះហត្ថលេខា', 'ចុះហត្ថលេខា'],
    ['Lao', 'ກະລຸນາ ເຊັນສັນຍາ', 'ເຊັນສັນຍາ'],
    ['Sinhala', 'ගිවිසුමට අත්සන් කරන්න', 'අත්සන්'],
  ])('%s: a word is found where it is drawn, also as a whole word', async (_script, line, word) => {
    const index = [...line.slice(0, line.indexOf(word))].length;
    expect(await found(['Title', line], word)).toEqual([at(1, index)]);
    expect(await found(['Title', line], word, { matchWholeWord: true })).toEqual([at(1, index)]);
  });
});

describe('Thai and Lao SARA AM, however it is drawn', () => {
  // น้ำ (water): NO NU, MAI THO, SARA AM; what files draw: SARA AM as NIKHAHIT + SARA AA, the NIKHAHIT before or
  // after the tone mark, or after the SARA AA.
  const THAI = ['\u0E19\u0E49\u0E33', '\u0E19\u0E49\u0E4D\u0E32', '\u0E19\u0E4D\u0E49\u0E32', '\u0E19\u0E49\u0E32\u0E4D'];
  // ນ້ຳ in Lao, the same four ways.
  const LAO = ['\u0E99\u0EC9\u0EB3', '\u0E99\u0EC9\u0ECD\u0EB2', '\u0E99\u0ECD\u0EC9\u0EB2', '\u0E99\u0EC9\u0EB2\u0ECD'];

  it.each([
    ['Thai', THAI],
    ['Lao', LAO],
  ])('%s: each spelling drawn is found by each spelling searched', async (_script, spellings) => {
    const lines = spellings.map((word) => `${word} ${word}`);
    for (const searched of spellings) {
      expect(await found(lines, searched)).toEqual(lines.flatMap((line, index) => [at(index, 0), at(index, [...line].indexOf(' ') + 1)]));
    }
  });

  it('Thai words around the vowel stay apart: NIKHAHIT of one word is not moved into the next', async () => {
    // ทำ (do) then น้ำ: the NIKHAHIT + SARA AA of ทำ has no tone mark to pass.
    expect(await found(['\u0E17\u0E4D\u0E32\u0E19\u0E4D\u0E49\u0E32'], '\u0E17\u0E33\u0E19\u0E49\u0E33')).toEqual([at(0, 0)]);
  });
});

describe('spaces drawn as private-use characters', () => {
  it("a symbol font's space (U+F020) and no-break space (U+F0A0) are spaces, whatever code draws them", async () => {
    const lines = ['Signed\uF020by:\uF0A0{{signature}}'];
    expect(await found(lines, 'Signed by: {{signature}}')).toEqual([at(0, 0)]);
    expect(await found(lines, 'by:', { matchWholeWord: true })).toEqual([at(0, 7)]);
  });

  it('other private-use characters stay what they are', async () => {
    expect(await found(['Box\uE001ticked'], 'Box\uE001ticked')).toEqual([at(0, 0)]);
    expect(await found(['Box\uE001ticked'], 'Box ticked')).toEqual([]);
  });
});
