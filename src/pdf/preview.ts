/**
 * Draws placed fields onto a copy of the PDF so a person can see where they landed before sending.
 */
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { PdfUnreadableError } from './errors.js';
import { displayedBoxToPdfRect, displayedPointToPdf, normaliseRotation, visibleBox, type PageFrame } from './geometry.js';
import type { FieldType, PlacedField } from './placement.js';

type PdfLib = typeof import('pdf-lib');

/** Red, green, blue from 0 to 1. */
const COLOUR_BY_TYPE: Record<FieldType, [number, number, number]> = {
  SIGNATURE: [0.1, 0.35, 0.85],
  INITIALS: [0.5, 0.2, 0.75],
  TEXT: [0.1, 0.55, 0.3],
  CHECKBOX_GROUP: [0.85, 0.45, 0.05],
  RADIO_GROUP: [0.05, 0.55, 0.6],
};

const LABEL_MAX_SIZE = 8;
const LABEL_MIN_SIZE = 4;
const LABEL_PADDING = 2;
/** Helvetica's ascent: the label's baseline sits this far (× size) below the top of its line. */
const LABEL_ASCENT = 0.718;

/** A copy of the PDF with each field drawn as a tinted rectangle labelled with its type and participant. */
export async function drawFieldPreview(pdfBytes: Uint8Array, placed: readonly PlacedField[]): Promise<Uint8Array> {
  // Loaded on first use so that commands without PDF work start fast.
  const pdfLib = await import('pdf-lib');
  const { PDFDocument, StandardFonts } = pdfLib;
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdfBytes);
  } catch (cause) {
    throw new PdfUnreadableError(`not a readable PDF: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const supported = new Set(font.getCharacterSet());
  const pages = doc.getPages();
  for (const field of placed) {
    const page = pages[field.page - 1];
    if (!page) throw new RangeError(`field ${field.id} is on page ${field.page}, but the PDF has ${pages.length} pages`);
    drawField(pdfLib, page, pageFrame(page), field, font, supported);
  }
  return doc.save();
}

/** The page's visible box and turn, read the way pdfjs reads them so the drawing matches the search. */
function pageFrame(page: PDFPage): PageFrame {
  return {
    view: visibleBox(page.getMediaBox(), page.node.CropBox() ? page.getCropBox() : undefined),
    rotate: normaliseRotation(page.getRotation().angle),
  };
}

function drawField(
  { degrees, rgb }: PdfLib,
  page: PDFPage,
  frame: PageFrame,
  field: PlacedField,
  font: PDFFont,
  supported: ReadonlySet<number>,
): void {
  const colour = rgb(...COLOUR_BY_TYPE[field.type]);
  page.drawRectangle({
    ...displayedBoxToPdfRect(frame, field),
    color: colour,
    opacity: 0.12,
    borderColor: colour,
    borderWidth: 1,
  });

  const size = Math.min(LABEL_MAX_SIZE, Math.max(LABEL_MIN_SIZE, field.height - 2 * LABEL_PADDING));
  const label = fitLabel(encodable(`${field.type} ${field.participantId}`, supported), font, size, field.width - 2 * LABEL_PADDING);
  const [x, y] = displayedPointToPdf(frame, field.x + LABEL_PADDING, field.y + LABEL_PADDING + LABEL_ASCENT * size);
  // Text turned with the page reads upright once the viewer turns the page back.
  page.drawText(label, { x, y, size, font, color: colour, rotate: degrees(frame.rotate) });
}

/** Helvetica covers WinAnsi only; anything else in an id would make pdf-lib throw. */
function encodable(text: string, supported: ReadonlySet<number>): string {
  return [...text].map((char) => (supported.has(char.codePointAt(0)!) ? char : '?')).join('');
}

function fitLabel(label: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(label, size) <= width) return label;
  let kept = label;
  while (kept.length > 1 && font.widthOfTextAtSize(`${kept}…`, size) > width) kept = kept.slice(0, -1);
  return `${kept}…`;
}
