import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { cropBoxPdf, ndaPdf, rotatedPdf } from '../../test/support/pdfs.js';
import { findAnchors } from './anchors.js';
import { PdfUnreadableError } from './errors.js';
import type { PlacedField } from './placement.js';
import { drawFieldPreview } from './preview.js';
import { loadPdfText } from './text.js';
import type { Box } from './page-text.js';

function signatureAt(box: Box, participantId = 'alice'): PlacedField {
  return { id: '00000000-0000-4000-8000-000000000001', participantId, type: 'SIGNATURE', page: 1, ...box };
}

function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

describe('drawFieldPreview', () => {
  const cases = [
    ['rotation 0', () => rotatedPdf(0)],
    ['rotation 90', () => rotatedPdf(90)],
    ['rotation 180', () => rotatedPdf(180)],
    ['rotation 270', () => rotatedPdf(270)],
    ['CropBox offset', () => cropBoxPdf(0)],
    ['CropBox offset and rotation 90', () => cropBoxPdf(90)],
    ['CropBox offset and rotation 270', () => cropBoxPdf(270)],
  ] as const;

  it.each(cases)('%s: the label (type and participant) reads upright inside the field box as displayed', async (_, makePdf) => {
    const field = signatureAt({ x: 120, y: 260, width: 150, height: 40 });
    const preview = await loadPdfText(await drawFieldPreview(await makePdf(), [field]));
    const [label] = findAnchors(preview, [{ key: 'label', text: 'SIGNATURE alice', occurrence: 'all' }]);
    expect(label).toBeDefined();
    expect(inside(label!, field)).toBe(true);
    const labelLine = preview.pageTexts[0]!.lines.find((line) => line.text.includes('SIGNATURE'));
    expect(labelLine!.direction).toBe('right');
    // The page's own text is still there.
    expect(findAnchors(preview, [{ key: 'word', text: 'UPRIGHT', occurrence: 'all' }])).toHaveLength(1);
  });

  it('draws every field on its own page and keeps the page count', async () => {
    const original = await ndaPdf();
    const fields = [signatureAt({ x: 72, y: 200, width: 150, height: 40 }, 'alice'), { ...signatureAt({ x: 300, y: 200, width: 60, height: 20 }, 'bob'), type: 'INITIALS' as const }];
    const preview = await drawFieldPreview(original, fields);
    expect((await PDFDocument.load(preview)).getPageCount()).toBe(1);
    const text = await loadPdfText(preview);
    expect(findAnchors(text, [{ key: 'a', text: 'SIGNATURE alice', occurrence: 'all' }])).toHaveLength(1);
    expect(findAnchors(text, [{ key: 'b', text: 'INITIALS', occurrence: 'all' }])).toHaveLength(1);
  });

  it('replaces characters Helvetica cannot draw in the label', async () => {
    const text = await loadPdfText(await drawFieldPreview(await ndaPdf(), [signatureAt({ x: 72, y: 200, width: 200, height: 40 }, 'Zoë 張')]));
    expect(findAnchors(text, [{ key: 'label', text: 'SIGNATURE Zoë ?', occurrence: 'all' }])).toHaveLength(1);
  });

  it('shortens a label that does not fit its box', async () => {
    const field = signatureAt({ x: 72, y: 200, width: 60, height: 20 }, 'a-rather-long-participant-id');
    const text = await loadPdfText(await drawFieldPreview(await ndaPdf(), [field]));
    const labelLine = text.pageTexts[0]!.lines.find((line) => line.text.startsWith('SIGN'));
    expect(labelLine!.text.endsWith('…')).toBe(true);
    const [label] = findAnchors(text, [{ key: 'label', text: labelLine!.text, occurrence: 'first' }]);
    expect(label!.x + label!.width).toBeLessThanOrEqual(field.x + field.width);
  });

  it('refuses bytes that are not a PDF with PdfUnreadableError', async () => {
    await expect(drawFieldPreview(new TextEncoder().encode('not a pdf'), [])).rejects.toBeInstanceOf(PdfUnreadableError);
  });
});
