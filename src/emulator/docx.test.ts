import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadPdfText } from '../pdf/text.js';
import { convertDocxToPdf, docxParagraphs, DocxUnreadableError, readDocxParagraphs } from './docx.js';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function documentXml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`;
}

describe('docxParagraphs', () => {
  it('joins the runs of each paragraph, with tabs, line breaks and XML entities decoded', () => {
    const xml = documentXml(
      '<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Hello </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">big </w:t></w:r><w:r><w:t>world</w:t></w:r></w:p>' +
        '<w:p/>' +
        '<w:p><w:r><w:t>A</w:t><w:tab/><w:t>B</w:t><w:br/><w:t>C &amp; D &lt;E&gt; &#233;&#x20AC;</w:t></w:r></w:p>',
    );
    expect(docxParagraphs(xml)).toEqual(['Hello big world', '', 'A\tB\nC & D <E> é€']);
  });

  it('reads paragraphs inside table cells in document order', () => {
    const xml = documentXml('<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell 1</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>cell 2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>');
    expect(docxParagraphs(xml)).toEqual(['cell 1', 'cell 2']);
  });
});

describe('readDocxParagraphs', () => {
  it('refuses bytes that are not a ZIP, or a ZIP without word/document.xml, with DocxUnreadableError', async () => {
    await expect(readDocxParagraphs(strToU8('not a zip'))).rejects.toBeInstanceOf(DocxUnreadableError);
    await expect(readDocxParagraphs(zipSync({ 'other.xml': strToU8('<x/>') }))).rejects.toThrow(/word\/document\.xml/);
  });

  it('refuses a word/document.xml that inflates past the limit, saying so, whatever size the ZIP claims for it', async () => {
    const xml = documentXml(`<w:p><w:r><w:t>${' '.repeat(2 * 1024 * 1024)}</w:t></w:r></w:p>`);
    const bomb = zipSync({ 'word/document.xml': strToU8(xml) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(readDocxParagraphs(bomb, 1024 * 1024)).rejects.toThrow(/word\/document\.xml inflates past 1048576 bytes/);
    // The same part with its declared sizes (local header and central directory) rewritten to 1 KiB: still refused.
    const lying = Buffer.from(bomb);
    const local = lying.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(1024, local + 22);
    lying.writeUInt32LE(1024, central + 24);
    await expect(readDocxParagraphs(lying, 1024 * 1024)).rejects.toThrow(/inflates past 1048576 bytes/);
    // Under the limit it reads as usual.
    expect(await readDocxParagraphs(bomb, 4 * 1024 * 1024)).toHaveLength(1);
  });
});

describe('convertDocxToPdf', () => {
  it('lays the text out as real PDF text, wrapping long paragraphs and flowing onto more pages', async () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    const paragraphs = [`First paragraph {{anchor}}`, long, ...Array.from({ length: 60 }, (_, index) => `Line ${index + 1}`), 'Last line ✓'];
    const docx = zipSync({ 'word/document.xml': strToU8(documentXml(paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join(''))) });
    const text = await loadPdfText(await convertDocxToPdf(docx));
    expect(text.pageCount).toBeGreaterThan(1);
    const lines = text.pageTexts.flatMap((page) => page.lines.map((line) => line.text));
    expect(lines[0]).toBe('First paragraph {{anchor}}');
    const wrapped = lines.filter((line) => line.startsWith('word'));
    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped.join(' ')).toBe(long);
    expect(lines.at(-1)).toBe('Last line ?');
  });
});
