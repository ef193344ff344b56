/*
 * Anchors in scripts the shared corpus of real PDFs lacks, and the spellings a reader sees as one word however a file
 * holds them (vowel signs drawn before their consonant, conjoining jamo, combining accents, Thai and Lao SARA AM):
 * drawn in a generated PDF (test/support/script-pdfs.ts), so that every place is known.
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
  // [script, line drawn, word typed, the word as drawn when files draw it otherwise]
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
    ['Greek', 'Υπογράψτε τη σύμβαση', 'σύμβαση'],
    ['Gujarati', 'કરાર પર સહી કરો', 'સહી'],
    ['Gurmukhi', 'ਇਕਰਾਰਨਾਮੇ ਤੇ ਦਸਤਖਤ ਕਰੋ', 'ਦਸਤਖਤ'],
    ['Oriya', 'ଚୁକ୍ତିରେ ଦସ୍ତଖତ କରନ୍ତୁ', 'ଦସ୍ତଖତ'],
    ['Telugu', 'ఒప్పందంపై సంతకం చేయండి', 'సంతకం'],
    ['Kannada', 'ಒಪ್ಪಂದಕ್ಕೆ ಸಹಿ ಮಾಡಿ', 'ಸಹಿ'],
    ['Malayalam', 'കരാറിൽ ഒപ്പിടുക', 'ഒപ്പിടുക'],
    ['Myanmar', 'စာချုပ်ကို လက်မှတ်ထိုးပါ', 'လက်မှတ်ထိုးပါ'],
    ['Tibetan', 'གན་རྒྱར་མིང་རྟགས་འགོད།', 'མིང་རྟགས'],
    // Vowel signs drawn before (left of) their consonant, the order of files that map each glyph to a character.
    // किरण (ray): I drawn left of KA.
    ['Devanagari, I first', 'x \u093F\u0915\u0930\u0923 y', 'किरण', '\u093F\u0915'],
    // स्थित (located): I drawn left of the conjunct STHA.
    ['Devanagari, I before a conjunct', 'x \u093F\u0938\u094D\u0925\u0924 y', 'स्थित', '\u093F\u0938'],
    // কোথায় (where): O drawn as E left of KA and AA right of it.
    ['Bengali, O around', 'x \u09C7\u0995\u09BE\u09A5\u09BE\u09AF\u09BC y', 'কোথায়', '\u09C7\u0995'],
    // கொண்டு (with): O drawn as E left of KA and AA right of it.
    ['Tamil, O around', 'x \u0BC6\u0B95\u0BBE\u0BA3\u0BCD\u0B9F\u0BC1 y', 'கொண்டு', '\u0BC6\u0B95'],
    ['Malayalam, O around', 'x \u0D46\u0D15\u0D3E\u0D23\u0D4D\u0D1F\u0D4D y', 'കൊണ്ട്', '\u0D46\u0D15'],
    // ကောင်း (good): E drawn left of KA.
    ['Myanmar, E first', 'x \u1031\u1000\u102C\u1004\u103A\u1038 y', 'ကောင်း', '\u1031\u1000'],
    ['Sinhala, O around', 'x \u0DD9\u0D9A\u0DCF\u0DB1\u0DCA y', 'කොන්', '\u0DD9\u0D9A'],
    // Composed forms spelt out. 서명 (signature) as conjoining jamo: SIOS + EO, MIEUM + YEO + final IEUNG.
    ['Hangul, jamo', '\u1109\u1165\u1106\u1167\u11BC \uD558\uC138\uC694', '서명 하세요', '\u1109'],
    ['Greek, accent as a mark, upper case', 'x \u03A5\u03C0\u03BF\u03B3\u03C1\u03B1\u03C6\u03B7\u0301 y', 'ΥΠΟΓΡΑΦΉ', '\u03A5'],
    ['Greek, final sigma, upper case', 'Υπογραφή σύμβασης', 'ΣΎΜΒΑΣΗΣ', 'σύμβασης'],
  ])('%s: a word is found where it is drawn, also as a whole word', async (_script, line, word, drawn = word) => {
    const index = [...line.slice(0, line.indexOf(drawn))].length;
    expect(await found(['Title', line], word)).toEqual([at(1, index)]);
    expect(await found(['Title', line], word, { matchWholeWord: true })).toEqual([at(1, index)]);
  });
});

describe('vowel signs drawn before their consonant', () => {
  it('each syllable of a word takes its own vowel sign, and text typed in order is read as it is', async () => {
    // कि कि (ki ki) drawn "िकिक"; and the same typed in order.
    expect(await found(['\u093F\u0915\u093F\u0915', '\u0915\u093F\u0915\u093F'], 'किकि')).toEqual([at(0, 0), at(1, 0)]);
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
