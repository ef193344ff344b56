/**
 * The sealed copy of a document of a COMPLETED envelope: what its downloads serve and what validateSealedDocument
 * recognises. Sealing here is a stamp and metadata, made once per document and kept with the state; validation
 * compares SHA-256 digests with the sealed copies this emulator made, so any change to a sealed file breaks it.
 */
import { hash } from 'node:crypto';
import { displayedPointToPdf, normaliseRotation, visibleBox } from '../pdf/geometry.js';
import { Derived } from './derived.js';
import { readDocumentBytes } from './document-bytes.js';
import type { LifecycleDeps } from './context.js';
import type { Store } from './store.js';
import type { DocumentRecord, EnvelopeRecord } from './records.js';

/** The keyword every sealed copy carries, so a modified copy can be told from a document never sealed. */
export const SEAL_KEYWORD = 'esign-emulator-sealed';

const STAMP_SIZE = 6;
const STAMP_MARGIN = 8;

const SEALED_SUFFIX = ':sealed';

function sealedBlobKey(documentId: string): string {
  return `${documentId}${SEALED_SUFFIX}`;
}

function digest(bytes: Uint8Array): string {
  return hash('sha256', bytes);
}

/**
 * Document ids by the SHA-256 of their sealed copies: made from the kept copies on first use (after a start, a
 * `--state` load or a reset), then kept up to date as copies are made, so that a validation is one lookup.
 */
const sealedBySha256 = new Derived((blobs: Store['blobs']) => {
  const index = new Map<string, string>();
  for (const [key, bytes] of blobs) if (key.endsWith(SEALED_SUFFIX)) index.set(digest(bytes), key.slice(0, -SEALED_SUFFIX.length));
  return index;
});

async function seal(deps: LifecycleDeps, envelope: EnvelopeRecord, document: DocumentRecord, original: Uint8Array): Promise<Buffer> {
  const { PDFDocument, StandardFonts, degrees, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.load(original, { updateMetadata: false });
  const completedAt = new Date(envelope.completedAt ?? envelope.updatedAt);
  const testMark = deps.options.environment === 'sandbox' ? ' TEST DOCUMENT, no legal validity.' : '';
  pdf.setProducer('esign emulator');
  pdf.setSubject(`Sealed for envelope ${envelope.id}`);
  pdf.setKeywords([SEAL_KEYWORD, `envelope:${envelope.id}`, `document:${document.documentId}`, ...(testMark ? ['test-document'] : [])]);
  pdf.setModificationDate(completedAt);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const stamp = `Sealed by esign emulator: envelope ${envelope.id}, completed ${completedAt.toISOString()}.${testMark}`;
  for (const page of pdf.getPages()) {
    const frame = {
      view: visibleBox(page.getMediaBox(), page.node.CropBox() ? page.getCropBox() : undefined),
      rotate: normaliseRotation(page.getRotation().angle),
    };
    const displayedHeight = frame.rotate % 180 === 0 ? frame.view.height : frame.view.width;
    const [x, y] = displayedPointToPdf(frame, STAMP_MARGIN, displayedHeight - STAMP_MARGIN);
    // Turned with the page so it reads upright at the displayed bottom-left corner.
    page.drawText(stamp, { x, y, size: STAMP_SIZE, font, color: rgb(0.35, 0.35, 0.35), rotate: degrees(frame.rotate) });
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** The document as a COMPLETED envelope serves it: sealed, made on first request. Other envelopes serve the content as is. */
export async function servedDocumentBytes(deps: LifecycleDeps, document: DocumentRecord): Promise<Buffer | undefined> {
  const envelope = document.envelopeId ? deps.store.state.envelopes.get(document.envelopeId) : undefined;
  if (envelope?.status !== 'COMPLETED') return readDocumentBytes(deps.store, document.documentId);
  const key = sealedBlobKey(document.documentId);
  const kept = deps.store.blobs.get(key);
  if (kept) return kept;
  const original = await readDocumentBytes(deps.store, document.documentId);
  if (!original) return undefined;
  const sealed = await seal(deps, envelope, document, original);
  deps.store.blobs.set(key, sealed);
  deps.store.changed();
  sealedBySha256.of(deps.store.blobs).set(digest(sealed), document.documentId);
  return sealed;
}

/** The document whose sealed copy has this SHA-256, if this emulator made one. */
export function findSealedDocument(store: Store, sha256: string): DocumentRecord | undefined {
  const documentId = sealedBySha256.of(store.blobs).get(sha256);
  return documentId === undefined ? undefined : store.state.documents.get(documentId);
}
