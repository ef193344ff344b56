/**
 * The emulator's `.docx` conversion: the paragraphs of `word/document.xml`, as plain text, laid out on Letter pages
 * in Helvetica. Enough for a preview a person can check and, because the text is real text, for anchor search; not a
 * faithful rendering (no styles, tables become one paragraph per cell, images are dropped).
 */

export class DocxUnreadableError extends Error {
  override readonly name = 'DocxUnreadableError';
}

const PAGE = { width: 612, height: 792, margin: 72 } as const;
const FONT_SIZE = 11;
const LINE_HEIGHT = 15;
/** Blank space after a paragraph, in lines. */
const PARAGRAPH_GAP = 0.5;

const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return entities[name] ?? whole;
  });
}

/** The text of each `<w:p>` in document order: runs' `<w:t>` joined, `<w:tab/>` as a tab, `<w:br/>` as a line break. */
export function docxParagraphs(documentXml: string): string[] {
  const paragraphs: string[] = [];
  const body = /<w:body\b[^>]*>([\s\S]*)<\/w:body>/.exec(documentXml)?.[1] ?? documentXml;
  for (const match of body.matchAll(/<w:p\b[^>]*?(?:\/>|>([\s\S]*?)<\/w:p>)/g)) {
    const inner = match[1] ?? '';
    let text = '';
    for (const token of inner.matchAll(/<w:t\b[^>]*?(?:\/>|>([\s\S]*?)<\/w:t>)|<w:(tab|br|cr)\b[^>]*\/>/g)) {
      if (token[2] === 'tab') text += '\t';
      else if (token[2]) text += '\n';
      else text += decodeXmlText(token[1] ?? '');
    }
    paragraphs.push(text);
  }
  return paragraphs;
}

/**
 * How large `word/document.xml` may be once inflated. A real contract's text is well under 1 MiB; a part that inflates
 * past this is a ZIP bomb (deflate inflates up to about 1,000 times), refused before it costs the memory.
 */
export const DOCX_PART_LIMIT = 64 * 1024 * 1024;

/** Compressed bytes handed to the inflater at a time: each inflates to at most about 1,000 times as much. */
const INFLATE_STEP = 16 * 1024;

function partTooLarge(name: string, limit: number): DocxUnreadableError {
  return new DocxUnreadableError(`the .docx part ${name} inflates past ${limit} bytes, the limit for a converted document (a ZIP bomb, or too large to convert)`);
}

/**
 * The bytes of `word/document.xml`, inflated a little at a time and counted, so that a part which lies about its size
 * (or tells it) is refused once it passes `limit`, never inflated whole.
 */
async function inflateDocumentXml(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const { unzipSync, Unzip, UnzipInflate } = await import('fflate');
  const name = 'word/document.xml';
  let declaredSize: number | undefined;
  try {
    // The central directory: is this a ZIP, does it hold the part, and what size does it claim? Nothing is inflated.
    unzipSync(bytes, {
      filter: (file) => {
        if (file.name === name) declaredSize = file.originalSize;
        return false;
      },
    });
  } catch (cause) {
    throw new DocxUnreadableError(`not a .docx (ZIP) file: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (declaredSize === undefined) throw new DocxUnreadableError(`the .docx has no ${name}`);
  if (declaredSize > limit) throw partTooLarge(name, limit);
  const chunks: Uint8Array[] = [];
  let inflated = 0;
  let failure: Error | undefined;
  let done = false;
  const unzip = new Unzip((file) => {
    if (file.name !== name || done) return;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = new DocxUnreadableError(`the .docx part ${name} cannot be inflated: ${error.message}`);
        return;
      }
      inflated += chunk.length;
      if (inflated > limit) {
        failure = partTooLarge(name, limit);
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) done = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.length && !failure && !done; offset += INFLATE_STEP) {
      unzip.push(bytes.subarray(offset, offset + INFLATE_STEP), offset + INFLATE_STEP >= bytes.length);
    }
  } catch (cause) {
    failure ??= new DocxUnreadableError(`the .docx part ${name} cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (failure) throw failure;
  if (!done) throw new DocxUnreadableError(`the .docx part ${name} ends early`);
  const whole = new Uint8Array(inflated);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

/** Reads `word/document.xml` out of the package; DocxUnreadableError when the bytes are not a Word document. */
export async function readDocxParagraphs(bytes: Uint8Array, partLimit = DOCX_PART_LIMIT): Promise<string[]> {
  const { strFromU8 } = await import('fflate');
  return docxParagraphs(strFromU8(await inflateDocumentXml(bytes, partLimit)));
}

/** A PDF with the paragraphs' text, wrapped to the page width and flowing over as many pages as it needs. */
export async function convertDocxToPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const paragraphs = await readDocxParagraphs(bytes);
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setProducer('esign emulator (docx preview)');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const supported = new Set(font.getCharacterSet());
  // Helvetica covers WinAnsi only; anything else would make pdf-lib throw.
  const encodable = (text: string): string => [...text].map((char) => (supported.has(char.codePointAt(0)!) ? char : '?')).join('');
  const usableWidth = PAGE.width - 2 * PAGE.margin;
  const fits = (text: string): boolean => font.widthOfTextAtSize(text, FONT_SIZE) <= usableWidth;

  let page = doc.addPage([PAGE.width, PAGE.height]);
  let baseline = PAGE.margin + FONT_SIZE;
  const newLine = (lines = 1): void => {
    baseline += LINE_HEIGHT * lines;
    if (baseline > PAGE.height - PAGE.margin) {
      page = doc.addPage([PAGE.width, PAGE.height]);
      baseline = PAGE.margin + FONT_SIZE;
    }
  };
  const draw = (line: string): void => {
    if (line !== '') page.drawText(line, { x: PAGE.margin, y: PAGE.height - baseline, size: FONT_SIZE, font });
    newLine();
  };

  for (const paragraph of paragraphs) {
    for (const hardLine of encodable(paragraph.replace(/\t/g, '    ')).split('\n')) {
      let line = '';
      for (const word of hardLine.split(/(?<= )/)) {
        if (fits(line + word)) {
          line += word;
          continue;
        }
        if (line !== '') draw(line.trimEnd());
        line = word;
        // A word wider than the page is cut wherever it overflows.
        while (!fits(line)) {
          let cut = line.length - 1;
          while (cut > 1 && !fits(line.slice(0, cut))) cut--;
          draw(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
      draw(line.trimEnd());
    }
    newLine(PARAGRAPH_GAP);
  }
  return doc.save({ useObjectStreams: false });
}
