import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderEnvelope, renderEnvelopeList } from './envelope-view.js';
import { displayWidth, fitWidths, renderFields, renderTable, truncateToWidth } from './table.js';

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

  it('without free text to cut, the row stops at the edge rather than wrapping', () => {
    const fixed = columns.map((column) => ({ ...column, freeText: false }));
    const lines = renderTable(rows, fixed, { ...plain, terminalWidth: 20 }).split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
    expect(lines[1]).toBe('e1  合同 契約書 📄 …');
  });

  it('off a terminal (no width) nothing is cut', () => {
    expect(renderTable(rows, columns, plain)).toContain('合同 契約書 📄 quarterly agreement');
  });

  it('keeps control characters visible while measuring them as they print', () => {
    const lines = renderTable([{ id: 'e3', title: 'a\u001b[2Jb', status: 'SENT' }, ...rows], columns, { ...plain, terminalWidth: 200 }).split('\n');
    expect(lines[1]).toMatch(/^e3 {2}a\\u001b\[2Jb +SENT$/);
    expect(displayWidth(lines[1]!.slice(0, lines[1]!.indexOf('SENT')))).toBe(displayWidth(lines[2]!.slice(0, lines[2]!.indexOf('SENT'))));
  });

  it('fitWidths gives way from the widest free-text column first, never below its header', () => {
    const fitted = fitWidths([2, 30, 20, 6], [{ header: 'ID' }, { header: 'TITLE', freeText: true }, { header: 'NAME', freeText: true }, { header: 'STATUS' }], 40);
    expect(fitted).toEqual([2, 13, 13, 6]);
    expect(fitWidths([2, 30, 6], [{ header: 'ID' }, { header: 'TITLE', freeText: true }, { header: 'STATUS' }], 12)).toEqual([2, 5, 1]);
  });
});
