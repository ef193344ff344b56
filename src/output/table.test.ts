import { Chalk } from 'chalk';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it, vi } from 'vitest';
import { renderEnvelope, renderEnvelopeList } from './envelope-view.js';
import { ONE_COLUMN_EACH, displayWidth, fitLayout, renderFields, renderTable, shortIds, truncateToWidth, wrapToWidth } from './table.js';

const colours = new Chalk({ level: 1 });
const hostileTitle = 'Q3\u001b[2J\u001b]0;pwned\u0007\r✓ Envelope voided\nforged';

describe('tables and fields show server text with its control characters visible', () => {
  it('keeps a hostile cell on its own line, aligned, and keeps our own colours', () => {
    const table = renderTable(
      [{ name: hostileTitle, status: 'SENT' }, { name: 'plain', status: 'DRAFT' }],
      [
        { header: 'NAME', value: (row) => row.name },
        { header: 'STATUS', value: (row) => row.status, colour: (text) => colours.cyan(text) },
      ],
    );
    const lines = table.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(`Q3\\u001b[2J\\u001b]0;pwned\\u0007\\r✓ Envelope voided\\nforged  ${colours.cyan('SENT')}`);
    expect(lines[2]!.indexOf('\u001b[36m')).toBe(lines[1]!.indexOf('\u001b[36m'));
  });

  it('renders name: value lines, colouring only the value', () => {
    expect(renderFields([['Title', 'a\u009b2Jb'], ['Status', 'SENT', (text) => colours.green(text)]])).toBe(`Title:  a\\u009b2Jb\nStatus: ${colours.green('SENT')}`);
  });

  it('an envelope with escapes in its title, message and status stays within its lines', () => {
    const envelope = { id: 'e1', title: hostileTitle, message: 'x\u001b]8;;https://evil.example\u0007link', status: 'SENT\u001b[0m\n' };
    for (const text of [renderEnvelope(envelope, colours, Date.now()), renderEnvelopeList([envelope], colours, Date.now())]) {
      const withoutOurColours = text.replace(/\u001b\[\d+m/g, '');
      expect(withoutOurColours).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(text).not.toContain('\u001b[2J');
      expect(text).toContain('Q3\\u001b[2J');
    }
  });
});

describe('tables measure display width and fit the terminal', () => {
  const rows = [
    { id: 'e1', title: '合同 契約書 📄 quarterly agreement', status: 'SENT' },
    { id: 'e2', title: 'Plain title', status: 'DRAFT' },
  ];
  const columns = [
    { header: 'ID', value: (row: (typeof rows)[number]) => row.id },
    { header: 'TITLE', value: (row: (typeof rows)[number]) => row.title, freeText: true },
    { header: 'STATUS', value: (row: (typeof rows)[number]) => row.status },
  ];
  const plain = { bold: (text: string) => text };

  it('counts East Asian wide characters and emoji as two columns, so the next column lines up on screen', () => {
    expect(displayWidth('合同')).toBe(4);
    expect(displayWidth('📄')).toBe(2);
    const lines = renderTable(rows, columns).split('\n');
    const statusColumn = (line: string) => displayWidth(line.slice(0, line.search(/STATUS|SENT|DRAFT/)));
    expect(lines.map(statusColumn)).toEqual([40, 40, 40]);
  });

  it('cuts the widest free-text column with an ellipsis to fit, whole characters only, and no row is wider', () => {
    const lines = renderTable(rows, columns, { ...plain, terminalWidth: 30 }).split('\n');
    expect(lines).toEqual(['ID  TITLE               STATUS', 'e1  合同 契約書 📄 qu…  SENT', 'e2  Plain title         DRAFT']);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(30);
  });

  it('a wide character never splits: the cut lands before it', () => {
    expect(truncateToWidth('合同契約', 4)).toBe('合…');
    expect(truncateToWidth('ab📄cd', 4)).toBe('ab…');
    expect(truncateToWidth('short', 10)).toBe('short');
  });

  it('where even cut free text does not fit, each row is a record: no value is cut off at the edge', () => {
    const fixed = columns.map((column) => ({ ...column, freeText: false }));
    const lines = renderTable(rows, fixed, { ...plain, terminalWidth: 20 }).split('\n');
    expect(lines).toEqual(['ID:     e1', 'Title:  合同 契約書', '        📄 quarterly', '        agreement', 'Status: SENT', '', 'ID:     e2', 'Title:  Plain title', 'Status: DRAFT']);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
  });

  it('off a terminal (no width) nothing is cut', () => {
    expect(renderTable(rows, columns, plain)).toContain('合同 契約書 📄 quarterly agreement');
  });

  it('keeps control characters visible while measuring them as they print', () => {
    const lines = renderTable([{ id: 'e3', title: 'a\u001b[2Jb', status: 'SENT' }, ...rows], columns, { ...plain, terminalWidth: 200 }).split('\n');
    expect(lines[1]).toMatch(/^e3 {2}a\\u001b\[2Jb +SENT$/);
    expect(displayWidth(lines[1]!.slice(0, lines[1]!.indexOf('SENT')))).toBe(displayWidth(lines[2]!.slice(0, lines[2]!.indexOf('SENT'))));
  });

  it('fitLayout: free text gives way to a comfortable width, then droppable columns go (lowest first), then free text down to 10', () => {
    const shape = [{ header: 'ID' }, { header: 'TITLE', freeText: true }, { header: 'CREATED', dropOrder: 1 }, { header: 'STATUS' }];
    expect(fitLayout([8, 30, 10, 6], shape, 80)).toEqual({ kind: 'table', kept: [0, 1, 2, 3], widths: [8, 30, 10, 6] });
    expect(fitLayout([8, 30, 10, 6], shape, 56)).toEqual({ kind: 'table', kept: [0, 1, 2, 3], widths: [8, 26, 10, 6] });
    expect(fitLayout([8, 30, 10, 6], shape, 50)).toEqual({ kind: 'table', kept: [0, 1, 2, 3], widths: [8, 20, 10, 6] });
    expect(fitLayout([8, 30, 10, 6], shape, 48)).toEqual({ kind: 'table', kept: [0, 1, 3], widths: [8, 30, 6] });
    expect(fitLayout([8, 30, 10, 6], shape, 40)).toEqual({ kind: 'table', kept: [0, 1, 3], widths: [8, 22, 6] });
    expect(fitLayout([8, 30, 10, 6], shape, 25)).toEqual({ kind: 'records' });
    expect(fitLayout([8, 30, 10, 6], shape, 59, { whole: true })).toEqual({ kind: 'records' });
  });
});

describe('tables for people at 80 and 50 columns', () => {
  const envelopes = [
    { id: '3f6c1a2b-1111-4222-8333-444455556666', status: 'SENT', title: 'Mutual Non-Disclosure Agreement with Acme Corporation', created: '2026-03-10' },
    { id: '3f6c1a2b-9999-4222-8333-444455556666', status: 'COMPLETED', title: 'Order form', created: '2026-03-11' },
    { id: '7d2e0000-1111-4222-8333-444455556666', status: 'DRAFT', title: 'Lease', created: '2026-03-12' },
  ];
  type Row = (typeof envelopes)[number];
  const columns = [
    { header: 'ID', value: (row: Row) => row.id, id: true },
    { header: 'STATUS', value: (row: Row) => row.status },
    { header: 'TITLE', value: (row: Row) => row.title, freeText: true },
    { header: 'CREATED', value: (row: Row) => row.created, dropOrder: 1 },
  ];

  it('shortIds: the first 8 characters, more where two ids share them', () => {
    expect(shortIds(envelopes.map((row) => row.id))).toEqual(['3f6c1a2b-1', '3f6c1a2b-9', '7d2e0000']);
    expect(shortIds(['e1', 'e2'])).toEqual(['e1', 'e2']);
  });

  it('on a terminal ids are short, and a column left out is named on stderr with --wide', () => {
    const left: string[][] = [];
    const style = { bold: (text: string) => text, terminalWidth: 50, columnsLeftOut: (headers: readonly string[]) => left.push([...headers]) };
    const lines = renderTable(envelopes, columns, style).split('\n');
    expect(lines[1]).toMatch(/^3f6c1a2b-1  SENT +Mutual Non-Disclosure Agre…$/);
    expect(lines[3]).toMatch(/^7d2e0000 +DRAFT +Lease$/);
    expect(left).toEqual([['CREATED']]);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    expect(renderTable(envelopes, columns, { ...style, terminalWidth: 80 })).toContain('3f6c1a2b-1  SENT       Mutual Non-Disclosure Agreement with Acme Co…  2026-03-10');
    expect(renderTable(envelopes, columns)).toContain(envelopes[0]!.id);
  });

  it('a wrapping column continues on the lines below, the other columns blank there', () => {
    const wrapping = columns.map((column) => (column.header === 'TITLE' ? { ...column, wrap: true } : column));
    const lines = renderTable(envelopes.slice(0, 1), wrapping, { bold: (text: string) => text, terminalWidth: 50 }).split('\n');
    expect(lines).toEqual([
      'ID        STATUS  TITLE                 CREATED',
      '3f6c1a2b  SENT    Mutual                2026-03-10',
      '                  Non-Disclosure',
      '                  Agreement with Acme',
      '                  Corporation',
    ]);
  });

  it('wrapToWidth breaks at spaces, inside a word only when it must', () => {
    expect(wrapToWidth('void reason: wrong customer address', 14)).toEqual(['void reason:', 'wrong customer', 'address']);
    expect(wrapToWidth('jonathan.appleseed@globex.example', 12)).toEqual(['jonathan.app', 'leseed@globe', 'x.example']);
  });

  it('name: value lines wrap long values under themselves on a terminal', () => {
    expect(renderFields([['Title', 'A title long enough to wrap'], ['Status', 'SENT']], 20)).toBe('Title:  A title long\n        enough to\n        wrap\nStatus: SENT');
  });
});

describe('display width', () => {
  it('of text of ASCII and other characters, escapes included, is what string-width counts (ASCII without loading it)', () => {
    const ascii = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
    const character = fc.oneof(
      { arbitrary: ascii(0x20, 0x7e), weight: 20 },
      { arbitrary: fc.oneof(ascii(0, 0x1f), fc.constant('\u007f')), weight: 1 },
      { arbitrary: fc.constantFrom('é', '漢', '👍🏽', '\u0301', '\u200b', '\u00ad', '\u0483', '…', '×', '✓', '✅', '→'), weight: 1 },
    );
    fc.assert(fc.property(fc.array(character).map((characters) => characters.join('')), (text) => displayWidth(text) === stringWidth(text)));
  });
});

describe('text of one-column characters is measured, cut and wrapped without string-width or a segmenter', () => {
  it('every character ONE_COLUMN_EACH takes is one column wide and stands alone, as string-width and Intl.Segmenter say', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const taken: string[] = [];
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const character = String.fromCharCode(code);
      if (!ONE_COLUMN_EACH.test(character)) continue;
      taken.push(character);
      const between = `a${character}a`;
      if (stringWidth(character) !== 1 || stringWidth(between) !== 3 || [...segmenter.segment(between)].length !== 3) wrong.push(code.toString(16));
    }
    expect(wrong).toEqual([]);
    // What esign itself prints in tables is among them; a soft hyphen, a combining mark and an emoji are not.
    expect(['…', '×', '·', '→', '’', 'é', '✓', '✗', '€'].every((character) => taken.includes(character))).toBe(true);
    expect(['\u00ad', '\u0301', '\u0483', '✅', '漢', '\u200b'].some((character) => taken.includes(character))).toBe(false);
  });

  it('segments none of it (string-width segments every text it measures; a segmenter costs some 9 ms to make)', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      expect(truncateToWidth('Ünïcödé × 150 → signed ✓ “quoted”', 12)).toBe('Ünïcödé × 1…');
      expect(wrapToWidth('Signé · 150×30 → page 2 of the agreement', 16)).toEqual(['Signé · 150×30 →', 'page 2 of the', 'agreement']);
      expect(displayWidth('Δόξα — Слава …')).toBe(14);
      expect(segment).not.toHaveBeenCalled();
      // Other text still is: a wide character cut whole.
      expect(truncateToWidth('漢字漢字', 5)).toBe('漢字…');
      expect(segment).toHaveBeenCalled();
    } finally {
      segment.mockRestore();
    }
  });
});
