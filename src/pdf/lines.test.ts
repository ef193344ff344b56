/**
 * The rules of reading a page's text for anchor search, each on a PDF drawn for it in Liberation Sans (shipped with
 * pdfjs-dist) with exactly known glyph advances: positions come from each glyph's own advance, character spacing and
 * horizontal scaling included; invisible characters neither break nor fake a match; text drawn twice counts once;
 * letter-spaced words read as words; right-to-left text is matched in logical order where it is drawn.
 */
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { liberationAdvance, liberationPdf, type LiberationGlyph, type LiberationLine } from '../../test/support/pdfs.js';
import { assemblePdf, streamObject } from '../../test/support/raw-pdf.js';
import { findAnchors, type AnchorMatch } from './anchors.js';
import { loadPdfText } from './text.js';

const SIZE = 12;
const LEFT = 72;
const BASELINE = 100;

/** Where the glyph at `index` starts: the advances before it, each with the character spacing, times the scaling. */
function startOf(glyphs: readonly (LiberationGlyph | number)[], index: number, options: { charSpacing?: number; hScale?: number } = {}): number {
  let x = 0;
  for (const glyph of glyphs.slice(0, index)) {
    x += typeof glyph === 'number' ? (-glyph / 1000) * SIZE : (liberationAdvance(glyph) / 1000) * SIZE + (options.charSpacing ?? 0);
  }
  return LEFT + x * (options.hScale ?? 1);
}

async function find(lines: LiberationLine[], text: string, options: { matchWholeWord?: boolean } = {}): Promise<AnchorMatch[]> {
  return findAnchors(await loadPdfText(await liberationPdf(lines)), [{ key: 'k', text, occurrence: 'all', ...options }]);
}

const line = (glyphs: (LiberationGlyph | number)[], state?: string): LiberationLine => ({ x: LEFT, y: BASELINE, size: SIZE, glyphs, ...(state ? { state } : {}) });

describe('positions from glyph advances', () => {
  it('a match in the middle of a run starts where its first glyph is drawn (font widths, not an even split)', async () => {
    // "Wi" is wide then narrow: an even split of the run would put "ill" about 4 pt off.
    const glyphs = [...'WWWiiiWill sign'];
    const [match] = await find([line(glyphs)], 'Will');
    expect(match!.x).toBeCloseTo(startOf(glyphs, 6), 2);
    expect(match!.width).toBeCloseTo(startOf(glyphs, 10) - startOf(glyphs, 6), 2);
  });

  it('character spacing (Tc) moves every following glyph; the letter-spaced word still matches as one word', async () => {
    const glyphs = [...'SIGNATURE here'];
    const [word] = await find([line(glyphs, '3 Tc')], 'signature', { matchWholeWord: true });
    expect(word!.x).toBeCloseTo(LEFT, 2);
    const [middle] = await find([line(glyphs, '3 Tc')], 'here');
    expect(middle!.x).toBeCloseTo(startOf(glyphs, 10, { charSpacing: 3 }), 2);
  });

  it('horizontal scaling (Tz) stretches advances and spacing alike', async () => {
    const glyphs = [...'Please sign here'];
    const [match] = await find([line(glyphs, '150 Tz 1 Tc')], 'here');
    expect(match!.x).toBeCloseTo(startOf(glyphs, 12, { charSpacing: 1, hScale: 1.5 }), 2);
  });

  it('TJ adjustments move the glyphs after them; a wide one is a word break', async () => {
    const glyphs: (LiberationGlyph | number)[] = [...'Sign', -1500, ...'here'];
    const [match] = await find([line(glyphs)], 'sign here');
    expect(match!.x).toBeCloseTo(LEFT, 2);
    const [here] = await find([line(glyphs)], 'here');
    expect(here!.x).toBeCloseTo(startOf(glyphs, 5), 2);
  });

  it('a gap of 0.13 em with no space glyph is a word break (OCR text, a thin space); tracking of 0.1 em is not', async () => {
    expect(await find([line([...'of', -130, ...'the'])], 'of the')).toHaveLength(1);
    expect(await find([line([...'wo', -100, ...'rd'])], 'word', { matchWholeWord: true })).toHaveLength(1);
  });
});

describe('table cells spaced out with character spacing', () => {
  // pdfplumber--nics-background-checks-2015-11-rotated.pdf: a row's cells drawn in one TJ run with 4 em of character
  // spacing (Tc), each digit of a cell pulled back to its neighbour by a TJ adjustment, and the cells set apart by
  // the spacing alone. Here 2 em, so that the cells stay on one line (COLUMN_GAP_EM).
  const TC = 24;
  const back = (TC / SIZE) * 1000;
  const justified = (cell: string): (LiberationGlyph | number)[] => [...cell].flatMap((char, index) => (index === 0 ? [char] : [back, char]));
  const row = line([...justified('1,131'), ...justified('1,754')], `${TC} Tc`);

  it('the digits a TJ pulls back together read as one word', async () => {
    const [cell] = await find([row], '1,131', { matchWholeWord: true });
    expect(cell!.x).toBeCloseTo(LEFT, 2);
    expect(await find([row], '1,754', { matchWholeWord: true })).toHaveLength(1);
  });

  it('spacing wider than an em between two cells is a word break', async () => {
    expect(await find([row], '1,131 1,754')).toHaveLength(1);
    expect(await find([row], '1,1311,754')).toHaveLength(0);
  });
});

describe('characters that are not visible text', () => {
  const zwsp = { glyph: ' ', text: '\u200B', width: 0 };

  it('zero-width spaces between letters neither break the word nor count as spaces ("C h i n a" matches "China")', async () => {
    const glyphs = [...'C', zwsp, 'h', zwsp, 'i', zwsp, 'n', zwsp, 'a'];
    const [match] = await find([line(glyphs)], 'China', { matchWholeWord: true });
    expect(match).toMatchObject({ x: expect.closeTo(LEFT, 2) });
    const [ina] = await find([line(glyphs)], 'ina');
    expect(ina!.x).toBeCloseTo(startOf(glyphs, 4), 2);
  });

  it('a zero-width joiner with an advance, and a soft hyphen, leave the word whole', async () => {
    const glyphs = [...'co', { glyph: '-', text: '\u00AD' }, ...'operate', { glyph: ' ', text: '\u200D' }, ...'ly'];
    expect(await find([line(glyphs)], 'cooperately', { matchWholeWord: true })).toHaveLength(1);
  });

  it('a private-use code point drawn from the space code (a symbol font\'s space) is a space', async () => {
    const glyphs = [...'Signed', { glyph: ' ', text: '\uF020', code: 0x20 }, ...'by'];
    expect(await find([line(glyphs)], 'signed by')).toHaveLength(1);
    expect(await find([line(glyphs)], 'signedby')).toHaveLength(0);
  });
});

describe('columns on one baseline', () => {
  const advance = (text: string): number => ([...text].reduce((sum, glyph) => sum + liberationAdvance(glyph), 0) / 1000) * SIZE;

  it('text 3 em apart is in two columns: no phrase reads across the gutter', async () => {
    // pdf-lib--us_constitution.pdf: "...with themselves. And" ends a line of the left column, "Vice President, and
    // the Congress" starts the right column's on the same baseline.
    const left = 'with themselves. And';
    const columns = [line([...left]), { ...line([...'Vice President, and the']), x: LEFT + advance(left) + 3 * SIZE }];
    expect(await find(columns, 'And Vice President')).toHaveLength(0);
    expect(await find(columns, 'Vice President, and')).toHaveLength(1);
  });

  it('text 2 em apart (a label and its value, a loosely justified line) stays one line', async () => {
    expect(await find([line([...'Total:', -2000, ...'42'])], 'Total: 42')).toHaveLength(1);
  });
});

describe('spaces that show no gap', () => {
  // pdf-lib--us_constitution.pdf (InDesign): a ligature drawn with a TJ taking back part of its advance, then a space
  // glyph filling the rest: "offi ce" in the text, "office" on the page.
  const ligature = { glyph: 'f', text: 'fi', width: 600 };
  const glyphs: (LiberationGlyph | number)[] = [...'of', ligature, liberationAdvance(' '), ' ', ...'ce, civil'];

  it('a space drawn over the ink of the glyph before it is no word break', async () => {
    const [word] = await find([line(glyphs)], 'office,', { matchWholeWord: true });
    expect(word!.x).toBeCloseTo(LEFT, 2);
    expect(await find([line(glyphs)], 'offi ce')).toHaveLength(0);
  });

  it('a space with its own room still is', async () => {
    expect(await find([line(glyphs)], 'office, civil')).toHaveLength(1);
  });
});

describe('text drawn more than once', () => {
  it('a word drawn again over itself (fake bold, a repeated stamp) gives one match', async () => {
    const glyphs = [...'APPROVED'];
    const lines = [line(glyphs), { ...line(glyphs), x: LEFT + 0.3 }, { ...line(glyphs), x: LEFT + 0.15, y: BASELINE + 0.2 }];
    const matches = await find(lines, 'approved');
    expect(matches).toHaveLength(1);
    expect(matches[0]!.x).toBeCloseTo(LEFT, 2);
  });

  it('each glyph drawn twice in a row gives the word once', async () => {
    const glyphs: (LiberationGlyph | number)[] = [...'Sign'].flatMap((char) => [char, liberationAdvance(char), char]);
    expect(await find([line(glyphs)], 'sign', { matchWholeWord: true })).toHaveLength(1);
  });

  it('the same word on two lines is two matches', async () => {
    expect(await find([line([...'Sign']), { ...line([...'Sign']), y: BASELINE + 20 }], 'sign')).toHaveLength(2);
  });
});

describe('right-to-left text', () => {
  // Hebrew is drawn in visual order: the glyphs of "שלום עולם" from left to right are "םלוע םולש".
  const logical = 'שלום עולם';
  const visual = [...logical].reverse();

  it('is matched in logical order, including phrases of several words', async () => {
    expect(await find([line(visual)], logical)).toHaveLength(1);
    expect(await find([line(visual)], 'םלוע םולש')).toHaveLength(0);
  });

  it("a match's box is where its glyphs are drawn: the first word read is on the right", async () => {
    const [first] = await find([line(visual)], 'שלום', { matchWholeWord: true });
    // Visually "שלום" is the last four glyphs, after "םלוע ".
    expect(first!.x).toBeCloseTo(startOf(visual, 5), 2);
    expect(first!.x + first!.width).toBeCloseTo(startOf(visual, 9), 2);
    const [second] = await find([line(visual)], 'עולם');
    expect(second!.x).toBeCloseTo(LEFT, 2);
  });

  it('numbers inside right-to-left text keep their order', async () => {
    // Logical "סעיף 15 לחוק": drawn "קוחל 15 ףיעס".
    const drawn = [...'קוחל', ' ', '1', '5', ' ', ...'ףיעס'];
    expect(await find([line(drawn)], 'סעיף 15 לחוק')).toHaveLength(1);
  });

  it('brackets are read as the characters their glyphs are mapped to (Word maps a mirrored glyph to what it stands for)', async () => {
    // Logical "סעיף 15(ב)(4) לחוק": the reader sees "(4)(ב)15" left to right; the glyph "(" on the left is its ")".
    const mirrored = (glyph: string): LiberationGlyph => ({ glyph, text: glyph === '(' ? ')' : '(' });
    const drawn = [...'קוחל', ' ', mirrored('('), '4', mirrored(')'), mirrored('('), 'ב', mirrored(')'), '1', '5', ' ', ...'ףיעס'];
    expect(await find([line(drawn)], 'סעיף 15(ב)(4) לחוק')).toHaveLength(1);
  });

  it('points drawn after the letter they sit on, moved back over it, stay with that letter', async () => {
    // Logical "שָׁלוֹם" (SHIN, SHIN DOT, QAMATS, LAMED, VAV, HOLAM, FINAL MEM), drawn left to right, each point a
    // zero-width glyph drawn after its letter and moved back over it.
    const point = (text: string): LiberationGlyph => ({ glyph: '.', text, width: 0 });
    const over = (letter: string, ...points: string[]): (LiberationGlyph | number)[] => {
      const back = liberationAdvance(letter) / 2;
      return [letter, back, ...points.map(point), -back];
    };
    const drawn = ['ם', ...over('ו', '\u05B9'), 'ל', ...over('ש', '\u05C1', '\u05B8'), ' ', ...'אבג'];
    const [match] = await find([line(drawn)], '\u05D2\u05D1\u05D0 \u05E9\u05C1\u05B8\u05DC\u05D5\u05B9\u05DD');
    expect(match!.x).toBeCloseTo(LEFT, 2);
    expect(await find([line(drawn)], '\u05E9\u05C1\u05B8\u05DC\u05D5\u05B9\u05DD', { matchWholeWord: true })).toHaveLength(1);
    // As HarfBuzz orders them: the whole line reversed, each point drawn before its letter, where that letter starts.
    const harfBuzz = ['ם', point('\u05B9'), 'ו', 'ל', point('\u05B8'), point('\u05C1'), 'ש'];
    expect(await find([line(harfBuzz)], '\u05E9\u05C1\u05B8\u05DC\u05D5\u05B9\u05DD', { matchWholeWord: true })).toHaveLength(1);
  });

  it('a mark drawn on its own, raised over a letter, goes with that letter', async () => {
    // Logical "عقَد البيع" drawn left to right as "عيبلا دقع" (each letter an "o" mapped to it), then the FATHA of QAF
    // drawn by itself 6 pt higher, over the QAF.
    const letters = (text: string): LiberationGlyph[] => [...text].map((char) => ({ glyph: 'o', text: char }));
    const drawn = [...letters('عيبلا'), ' ', ...letters('دقع')];
    const qaf = startOf(drawn, 7);
    const fatha = { x: qaf + 2, y: BASELINE - 6, size: SIZE, glyphs: [{ glyph: '.', text: '\u064E', width: 0 }] };
    const [match] = await find([line(drawn), fatha], '\u0639\u0642\u064E\u062F \u0627\u0644\u0628\u064A\u0639');
    expect(match!.x).toBeCloseTo(LEFT, 2);
  });

  it('a space drawn on its own over a glyph of the line is no word break', async () => {
    // "שלום" drawn as "לש" on the right first, then a space, then "םו" under that space (as Word draws some lines).
    const first = [...'םו'];
    const [match] = await find([{ ...line([...'לש']), x: startOf(first, 2) }, { ...line([' ']), x: LEFT + 0.5 }, line(first)], 'שלום', { matchWholeWord: true });
    expect(match!.x).toBeCloseTo(LEFT, 2);
  });

  it('glyphs drawn one by one from right to left (logical order, each placed left of the last) read the same', async () => {
    const glyphs: (LiberationGlyph | number)[] = [];
    for (const char of logical) glyphs.push(char, liberationAdvance(char) * 2);
    const [match] = await find([{ ...line(glyphs), x: 300 }], logical);
    expect(match).toBeDefined();
  });
});

describe('text drawn into room left by spacing', () => {
  it('an exponent drawn after its base, where character spacing moved the pen on, is read right after the base', async () => {
    // "z⁵ i" as some math layouts draw it: "z" and "i" in one run, 30 pt of character spacing apart, then the "5".
    const exponent = { x: LEFT + (liberationAdvance('z') / 1000) * SIZE, y: BASELINE - 4, size: 7, glyphs: ['5'] };
    const lines = [line(['z', 'i'], '30 Tc'), exponent];
    const [base] = await find(lines, 'z5', { matchWholeWord: true });
    expect(base!.x).toBeCloseTo(LEFT, 2);
    const [after] = await find(lines, 'z5 i');
    expect(after!.x).toBeCloseTo(LEFT, 2);
  });
});

describe('text of annotation appearances', () => {
  it('a filled form field is document text: its value is found where the field shows it', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const field = doc.getForm().createTextField('signer');
    field.setText('Jane Q. Signer');
    field.addToPage(page, { x: 100, y: 600, width: 200, height: 24, font: await doc.embedFont(StandardFonts.Helvetica) });
    const text = await loadPdfText(await doc.save());
    const [match] = findAnchors(text, [{ key: 'k', text: 'Jane Q. Signer', occurrence: 'all' }]);
    expect(match).toBeDefined();
    expect(match!.x).toBeGreaterThanOrEqual(100);
    expect(match!.x).toBeLessThan(110);
    expect(match!.y).toBeGreaterThan(792 - 624);
    expect(match!.y + match!.height).toBeLessThanOrEqual(792 - 600 + 1);
  });
});

describe('skewed lines (scanned pages with OCR text)', () => {
  /**
   * Each word drawn on its own, each a little lower than the one before it, as OCR places words on a skewed scan: over
   * a line the drift (3 pt a word) passes the line spacing (14 pt).
   */
  function skewedPage(lines: string[][]): LiberationLine[] {
    return lines.flatMap((words, lineIndex) => {
      let x = LEFT;
      return words.map((word, wordIndex) => {
        const drawn = { x, y: BASELINE + lineIndex * 14 + wordIndex * 3, size: SIZE, glyphs: [...word] };
        x += ([...`${word} `].reduce((sum, glyph) => sum + liberationAdvance(glyph), 0) / 1000) * SIZE;
        return drawn;
      });
    });
  }
  const PAGE = [
    ['Please', 'sign', 'this', 'agreement', 'before', 'Friday', 'noon'],
    ['Thank', 'you', 'for', 'your', 'kind', 'attention', 'here'],
  ];

  it('each line reads as the words drawn along it, not mixed with the line below', async () => {
    const text = await loadPdfText(await liberationPdf(skewedPage(PAGE)));
    expect(text.pageTexts[0]!.lines.map((read) => read.text)).toEqual(PAGE.map((words) => words.join(' ')));
    const [found] = await find(skewedPage(PAGE), 'agreement before Friday');
    expect(found!.x).toBeCloseTo(skewedPage(PAGE)[3]!.x, 2);
  });
});

describe('letter-spaced words inside a line of other text, on turned pages', () => {
  // Longer than the spaced-out words: most of the line's letters are not apart.
  const LEAD = 'Both parties agree to these terms and sign:';
  const SPACED = ['SIGNATURE', 'HERE'];

  /**
   * A 600×800 page turned by `rotate`, with LEAD and a space in plain text, then SPACED drawn letter by letter `letterGap` em apart
   * (words 0.6 em further), reading upright once the page is turned, on the line at 200 pt from the top.
   */
  async function spacedPage(rotate: 0 | 90 | 180 | 270, letterGap: number): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([600, 800]);
    page.setRotation(degrees(rotate));
    // The user-space point shown at (x, y) on the turned page.
    const user = (x: number, y: number): [number, number] =>
      rotate === 90 ? [y, x] : rotate === 180 ? [600 - x, y] : rotate === 270 ? [600 - y, 800 - x] : [x, 800 - y];
    const draw = (text: string, x: number): void => {
      const [ux, uy] = user(x, 200);
      page.drawText(text, { x: ux, y: uy, size: SIZE, font, rotate: degrees(rotate) });
    };
    draw(`${LEAD} `, LEFT);
    let x = LEFT + font.widthOfTextAtSize(`${LEAD} `, SIZE);
    for (const word of SPACED) {
      for (const char of word) {
        draw(char, x);
        x += font.widthOfTextAtSize(char, SIZE) + letterGap * SIZE;
      }
      x += 0.6 * SIZE;
    }
    return doc.save();
  }

  it('single digits of table cells (2 em apart) and the terms of a formula (0.7 em) stay apart', async () => {
    const cells = line([...'Total', -2000, '0', -2000, '0', -2000, '1', -2000, '0']);
    expect(await find([cells], 'Total 0 0 1 0')).toHaveLength(1);
    const formula = line([...'where', -700, 'x', -700, '=', -700, 'a', -700, '+', -700, 'b']);
    expect(await find([formula], 'where x = a + b')).toHaveLength(1);
  });

  for (const rotate of [0, 90, 180, 270] as const) {
    it(`reads as words, not letters, on a page turned ${rotate}°`, async () => {
      for (const letterGap of [0.15, 0.4]) {
        const text = await loadPdfText(await spacedPage(rotate, letterGap));
        expect(text.pageTexts[0]!.lines.map((read) => read.text.trim())).toEqual([`${LEAD} ${SPACED.join(' ')}`]);
      }
    });
  }
});

describe('optional content (layers)', () => {
  /**
   * A letter page drawing "Visible text" in the page content, "DRAFT COPY" inside a layer that is off (BDC /OC), and
   * "Print footer" in a form XObject whose own /OC layer is off: viewers, and poppler, show only the first.
   */
  function layeredPdf(): Uint8Array {
    const content = Buffer.from(
      [
        'BT /F1 12 Tf 72 700 Td (Visible text) Tj ET',
        '/OC /Hidden BDC BT /F1 12 Tf 72 680 Td (DRAFT COPY) Tj ET EMC',
        '/OC /Shown BDC BT /F1 12 Tf 72 660 Td (Layer on) Tj ET EMC',
        '/Footer Do',
      ].join('\n'),
    );
    const footer = Buffer.from('BT /F1 12 Tf 72 40 Td (Print footer) Tj ET');
    return assemblePdf([
      Buffer.from('<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [5 0 R 6 0 R] /D << /ON [6 0 R] /OFF [5 0 R] >> >> >>'),
      Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      Buffer.from(
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> /Properties << /Hidden 5 0 R /Shown 6 0 R >> /XObject << /Footer 8 0 R >> >> >>',
      ),
      streamObject(content),
      Buffer.from('<< /Type /OCG /Name (Draft) >>'),
      Buffer.from('<< /Type /OCG /Name (Notes) >>'),
      Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
      streamObject(footer, '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /OC 5 0 R /Resources << /Font << /F1 7 0 R >> >>'),
    ]);
  }

  it('text in a layer that is off is no text: not found, whether marked in the content or on a form XObject', async () => {
    const text = await loadPdfText(layeredPdf());
    expect(text.pageTexts[0]!.lines.map((read) => read.text.trim())).toEqual(['Visible text', 'Layer on']);
  });
});
