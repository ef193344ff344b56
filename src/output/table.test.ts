import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderEnvelope, renderEnvelopeList } from './envelope-view.js';
import { renderFields, renderTable } from './table.js';

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
