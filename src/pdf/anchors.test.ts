import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  GAP_WIDTH,
  GAP_WORDS,
  HELVETICA_ASCENT,
  LIGATURE_LINES,
  NDA_LINES,
  REPEATED_WORD,
  SIDEWAYS_WORD_AT_USER,
  SPLIT_PIECES,
  TEXT_LAYOUT,
  UPRIGHT_WORD_AT,
  advanceWidth,
  baselineOfLine,
  cropBoxPdf,
  ligaturePdf,
  manyOccurrencesPdf,
  manyPagesPdf,
  ndaPdf,
  rotatedPdf,
  simplePdf,
  splitItemsPdf,
} from '../../test/support/pdfs.js';
import { describeInvalidAnchorOptions, describeInvalidSearches, findAnchors, type AnchorSearch } from './anchors.js';
import { loadPdfText, searchPdf } from './text.js';
import type { PdfText } from './page-text.js';

/** Found text starts at its font's ascent above the baseline. */
const ASCENT = HELVETICA_ASCENT * TEXT_LAYOUT.fontSize;
const topOfLine = (lineIndex: number): number => baselineOfLine(lineIndex) - ASCENT;
const SIGNATURE_LINES = NDA_LINES.flatMap((line, index) => (line === '{{signature}}' ? [index] : []));

let helvetica: { widthOf: (text: string) => number };
beforeAll(async () => {
  const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  helvetica = { widthOf: (text) => advanceWidth(font, text, TEXT_LAYOUT.fontSize) };
});

function search(text: string, options: Partial<AnchorSearch> = {}): AnchorSearch {
  return { key: 'k', text, occurrence: 'all', ...options };
}

async function textOf(lines: string[]): Promise<PdfText> {
  return loadPdfText(await simplePdf({ pages: [lines] }));
}

describe('findAnchors: occurrence', () => {
  let nda: PdfText;
  beforeAll(async () => {
    nda = await loadPdfText(await ndaPdf());
  });

  it('occurrence all: one match per occurrence, top-left of the found text in displayed page coordinates', () => {
    const matches = findAnchors(nda, [search('{{signature}}')]);
    expect(matches).toHaveLength(2);
    matches.forEach((match, index) => {
      expect(match).toMatchObject({ key: 'k', page: 1, x: TEXT_LAYOUT.left });
      expect(match.y).toBeCloseTo(topOfLine(SIGNATURE_LINES[index]!), 6);
      expect(match.width).toBeCloseTo(helvetica.widthOf('{{signature}}'), 6);
    });
  });

  it('occurrence first: only the first in the document', () => {
    const matches = findAnchors(nda, [search('{{signature}}', { occurrence: 'first' })]);
    expect(matches).toHaveLength(1);
    expect(matches[0]!.y).toBeCloseTo(topOfLine(SIGNATURE_LINES[0]!), 6);
  });

  it('occurrence N: the N-th in the whole document, none when there are fewer', () => {
    const second = findAnchors(nda, [search('{{signature}}', { occurrence: 2 })]);
    expect(second).toHaveLength(1);
    expect(second[0]!.y).toBeCloseTo(topOfLine(SIGNATURE_LINES[1]!), 6);
    expect(findAnchors(nda, [search('{{signature}}', { occurrence: 3 })])).toEqual([]);
  });

  it('occurrence N: counted across pages in page order', async () => {
    // Five per line, thirty lines per page: occurrence 151 opens page 2.
    const text = await loadPdfText(await manyOccurrencesPdf(250));
    expect(findAnchors(text, [search(REPEATED_WORD)])).toHaveLength(250);
    const [match] = findAnchors(text, [search(REPEATED_WORD, { occurrence: 151 })]);
    expect(match).toMatchObject({ page: 2, x: TEXT_LAYOUT.left });
    expect(match!.y).toBeCloseTo(topOfLine(0), 6);
  });

  it('a key with no occurrence is simply absent from the matches', () => {
    const matches = findAnchors(nda, [search('nowhere to be found', { key: 'missing' }), search('MUTUAL', { key: 'title' })]);
    expect(matches.map((match) => match.key)).toEqual(['title']);
  });
});

describe('findAnchors: text comparison', () => {
  it('caseSensitive false by default: case is folded on both sides', async () => {
    const text = await textOf(['MUTUAL AGREEMENT', 'Straße 5']);
    expect(findAnchors(text, [search('mutual agreement')])).toHaveLength(1);
    expect(findAnchors(text, [search('STRASSE 5')])).toHaveLength(1);
  });

  it('caseSensitive true: case must match exactly', async () => {
    const text = await textOf(['MUTUAL AGREEMENT']);
    expect(findAnchors(text, [search('mutual', { caseSensitive: true })])).toEqual([]);
    expect(findAnchors(text, [search('MUTUAL', { caseSensitive: true })])).toHaveLength(1);
  });

  it('matchWholeWord: no letter or digit stuck before or after', async () => {
    const text = await textOf(['sign here', 'signature', 'cosign', 'sign2', '(sign)', 'signé', 'sign.']);
    const matches = findAnchors(text, [search('sign', { matchWholeWord: true })]);
    expect(matches.map((match) => match.y)).toEqual([topOfLine(0), topOfLine(4), topOfLine(6)].map((y) => expect.closeTo(y, 6)));
    expect(findAnchors(text, [search('sign')])).toHaveLength(7);
  });

  it('matchWholeWord: a needle starting with punctuation still needs no letter stuck before it', async () => {
    const text = await textOf(['x{{signature}}', '{{signature}}']);
    expect(findAnchors(text, [search('{{signature}}', { matchWholeWord: true })])).toHaveLength(1);
  });

  it('repeated spaces count as one, in the needle and in the page text', async () => {
    const text = await textOf(['Signed by:', 'Signed     by:']);
    expect(findAnchors(text, [search('Signed    by:')])).toHaveLength(2);
    expect(findAnchors(text, [search('Signed by:')])).toHaveLength(2);
  });

  it('offset: points added to the top-left of the found text, x right, y down, negatives allowed', async () => {
    const nda = await loadPdfText(await ndaPdf());
    const [plain] = findAnchors(nda, [search('{{signature}}', { occurrence: 'first' })]);
    const [moved] = findAnchors(nda, [search('{{signature}}', { occurrence: 'first', offset: { x: 10, y: -25 } })]);
    expect(moved).toEqual({ ...plain, x: plain!.x + 10, y: plain!.y - 25 });
  });

  it('ligatures: U+FB01 in the page matches "fi", and the box covers the ligature as one character', async () => {
    const text = await loadPdfText(await ligaturePdf());
    expect(text.pageTexts[0]!.lines[0]!.text).toBe(LIGATURE_LINES[0]);
    expect(findAnchors(text, [search('confidential')])).toHaveLength(1);
    const [target] = findAnchors(text, [search('target')]);
    // Eight ligature glyphs of 0.5 em and a space come before the word.
    const trueX = TEXT_LAYOUT.left + 8 * 0.5 * TEXT_LAYOUT.fontSize + helvetica.widthOf(' ');
    // Counting the normalised "fi" as two characters would put it about 9 points further right.
    expect(Math.abs(target!.x - trueX)).toBeLessThan(4);
  });
});

describe('findAnchors: text drawn in several pieces', () => {
  let text: PdfText;
  beforeAll(async () => {
    text = await loadPdfText(await splitItemsPdf());
  });

  it('text spanning several items of one line is found, its box from the first to the last matched character', () => {
    const [match] = findAnchors(text, [search('{{signature}}')]);
    // Each character sits where its own glyph advance puts it, also in the middle of a piece.
    const drawnX = TEXT_LAYOUT.left + helvetica.widthOf('Please sign here: ');
    expect(match!.x).toBeCloseTo(drawnX, 4);
    const drawnEnd = TEXT_LAYOUT.left + helvetica.widthOf(SPLIT_PIECES.slice(0, 3).join(''));
    expect(match!.x + match!.width).toBeCloseTo(drawnEnd, 4);
    expect(match!.y).toBeCloseTo(topOfLine(0), 6);
  });

  it('a visible gap between items reads as a space, edge-to-edge items as none', () => {
    const [gap] = findAnchors(text, [search('signed by:')]);
    expect(gap).toMatchObject({ x: TEXT_LAYOUT.left, width: expect.closeTo(helvetica.widthOf('Signed') + GAP_WIDTH + helvetica.widthOf(GAP_WORDS[1]), 4) });
    expect(findAnchors(text, [search('signedby:')])).toEqual([]);
    expect(findAnchors(text, [search('sign here: {{signature}} today')])).toHaveLength(1);
  });
});

describe('findAnchors: page geometry', () => {
  it.each([0, 90, 180, 270] as const)('rotation %i applied: text reading upright is found at its displayed top-left', async (rotate) => {
    const text = await loadPdfText(await rotatedPdf(rotate));
    const [match] = findAnchors(text, [search('upright')]);
    expect(match!.x).toBeCloseTo(UPRIGHT_WORD_AT.x, 6);
    expect(match!.y).toBeCloseTo(UPRIGHT_WORD_AT.y - ASCENT, 6);
    expect(match!.width).toBeCloseTo(helvetica.widthOf('UPRIGHT'), 6);
  });

  it('rotation 90 applied: unturned text reads downwards and its box stands upright', async () => {
    // On a 600×800 page turned 90°, user (ux, uy) shows at (uy, ux); the glyphs' ascent points right.
    const text = await loadPdfText(await rotatedPdf(90));
    const [match] = findAnchors(text, [search('sideways')]);
    const descent = 0.207 * TEXT_LAYOUT.fontSize;
    expect(match!.x).toBeCloseTo(SIDEWAYS_WORD_AT_USER.y - descent, 6);
    expect(match!.y).toBeCloseTo(SIDEWAYS_WORD_AT_USER.x, 6);
    expect(match!.height).toBeCloseTo(helvetica.widthOf('SIDEWAYS'), 6);
  });

  it('rotation 270 applied: unturned text reads upwards, found from its displayed top-left', async () => {
    // Turned 270° on 600×800, user (ux, uy) shows at (800 − uy, 600 − ux).
    const text = await loadPdfText(await rotatedPdf(270));
    const [match] = findAnchors(text, [search('sideways')]);
    expect(match!.x).toBeCloseTo(800 - SIDEWAYS_WORD_AT_USER.y - ASCENT, 6);
    expect(match!.y).toBeCloseTo(600 - SIDEWAYS_WORD_AT_USER.x - helvetica.widthOf('SIDEWAYS'), 6);
  });

  it.each([0, 90, 180, 270] as const)('relative to the visible page box: CropBox offset removed (rotation %i)', async (rotate) => {
    const text = await loadPdfText(await cropBoxPdf(rotate));
    const [match] = findAnchors(text, [search('upright')]);
    expect(match!.x).toBeCloseTo(UPRIGHT_WORD_AT.x, 6);
    expect(match!.y).toBeCloseTo(UPRIGHT_WORD_AT.y - ASCENT, 6);
  });

  it('pages beyond 500 were not searched', async () => {
    const text = await loadPdfText(await manyPagesPdf(501, (page) => (page === 501 ? 'LASTPAGE marker' : `filler ${page}`)));
    expect(text.truncated).toBe(true);
    expect(findAnchors(text, [search('LASTPAGE')])).toEqual([]);
    expect(findAnchors(text, [search('filler 500')])).toMatchObject([{ page: 500 }]);
  });
});

describe('searchPdf: each page searched as it is read, the same answer as loadPdfText and findAnchors', () => {
  it('every occurrence rule, several searches, counted across pages in page order', async () => {
    // Five per line, thirty lines per page: occurrence 151 opens page 2, and 250 ends on page 2.
    const bytes = await manyOccurrencesPdf(250);
    const searches = [
      search(REPEATED_WORD, { key: 'all' }),
      search(REPEATED_WORD, { key: 'first', occurrence: 'first' }),
      search(REPEATED_WORD, { key: 'n', occurrence: 151, offset: { x: 2, y: -3 } }),
      search(REPEATED_WORD, { key: 'past the last', occurrence: 251 }),
      search(REPEATED_WORD.toLowerCase(), { key: 'case', caseSensitive: true }),
    ];
    const found = await searchPdf(bytes, searches);
    const text = await loadPdfText(bytes);
    expect(found.matches).toEqual(findAnchors(text, searches));
    expect(found.matches.filter((match) => match.key === 'all')).toHaveLength(250);
    expect(found.matches.filter((match) => match.key !== 'all').map(({ key, page }) => [key, page])).toEqual([
      ['first', 1],
      ['n', 2],
    ]);
    expect({ ...found, matches: undefined }).toEqual({ ...text, pageTexts: undefined, matches: undefined });
  });

  it('pages, page count, the 500-page limit and whether there is text, as loadPdfText says', async () => {
    const found = await searchPdf(await manyPagesPdf(501, (page) => `filler ${page}`), [search('filler 50')]);
    expect(found).toMatchObject({ pageCount: 501, truncated: true, hasText: true });
    expect(found.pages).toHaveLength(501);
    // "filler 50" starts "filler 500" too; page 501 is past the limit.
    expect(found.matches.map((match) => match.page)).toEqual([50, 500]);
  });
});

describe('anchor option rules', () => {
  it('text: 1 to 200 characters', () => {
    expect(describeInvalidAnchorOptions({ text: '' })).toMatch(/1 to 200/);
    expect(describeInvalidAnchorOptions({ text: 'x'.repeat(201) })).toMatch(/1 to 200/);
    expect(describeInvalidAnchorOptions({ text: 'x'.repeat(200) })).toBeUndefined();
  });

  it('occurrence: first, all, or an integer N from 1', () => {
    for (const occurrence of ['first', 'all', 1, 7]) expect(describeInvalidAnchorOptions({ text: 'a', occurrence })).toBeUndefined();
    for (const occurrence of ['last', 0, -1, 1.5]) expect(describeInvalidAnchorOptions({ text: 'a', occurrence })).toMatch(/occurrence/);
  });

  it('offset: {x, y} with finite numbers', () => {
    expect(describeInvalidAnchorOptions({ text: 'a', offset: { x: -3, y: 4 } })).toBeUndefined();
    expect(describeInvalidAnchorOptions({ text: 'a', offset: { x: 1 } })).toMatch(/offset/);
  });

  it('anchors:find key: up to 100 characters, unique in the call', () => {
    expect(describeInvalidSearches([{ key: 'a', text: 'x' }, { key: 'b', text: 'y' }])).toEqual([]);
    expect(describeInvalidSearches([{ key: 'a', text: 'x' }, { key: 'a', text: 'y' }])).toEqual([expect.stringMatching(/used twice/)]);
    expect(describeInvalidSearches([{ key: 'k'.repeat(101), text: 'x' }])).toEqual([expect.stringMatching(/1 to 100/)]);
  });
});
