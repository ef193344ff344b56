/**
 * The service's field placement rules run offline over a local PDF (src/pdf, the same code the emulator runs), so a
 * refusal is caught before anything is sent. Used by `fields check`, `fields preview` and the send-now preflight.
 */
import { crypto } from '../shared/crypto.js';
import { EsignError, ExitCode, UsageError, type ErrorBody } from '../core/errors.js';
import { PDF_LIMIT_HINT } from '../pdf/budget.js';
import { PdfLimitError, PdfUnreadableError } from '../pdf/errors.js';
import { derivedFieldId, placeFields, type FieldInput, type FieldWarning, type PlacedField, type PlacementProblem } from '../pdf/placement.js';
import type { AnchorSearch } from '../pdf/anchors.js';
import type { PdfSearch } from '../pdf/text.js';
import type { PageInfo, PdfText } from '../pdf/page-text.js';
import { uuidV5 } from '../shared/uuid.js';
import { FIELD_ID_NAMESPACE, fieldIdFor, readFieldsFile, withIds } from '../input/fields.js';
import { visible } from '../output/sanitize.js';
import { fileNamed, whereText, type Where } from '../files/where.js';
import { OpenedFile } from '../files/opened-file.js';

/** One finding, located in the input file where possible. */
export interface Finding {
  /** `file:line:column`, or the PDF when the finding concerns the whole document. */
  where?: string;
  code: string;
  message: string;
}

/** The service would refuse the request: exit 5, the findings in `details` (and listed by the error renderer). */
export class PreflightError extends EsignError {
  readonly exitCode = ExitCode.conflict;
  constructor(
    message: string,
    readonly details: { problems: Finding[]; warnings: Finding[] },
    /** The service's own code when the finding is a single refusal it would give (DOCUMENT_HAS_NO_TEXT). */
    readonly preflightCode = 'PREFLIGHT_FAILED',
  ) {
    super(message);
    this.name = 'PreflightError';
  }
  get code(): string {
    return this.preflightCode;
  }
  override toJSON(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** A local PDF read whole, through one open of the path (src/files/opened-file.ts). */
export async function readLocalPdf(path: string, where: Where = path): Promise<Uint8Array> {
  return (await OpenedFile.open(path, where)).bytes();
}

/** A local PDF: the SHA-256 of its content, which parses are kept by, and its bytes, read only for a new parse. */
export interface LocalPdf {
  sha256: string;
  bytes(): Promise<Uint8Array>;
}

/** A PDF file esign opened: a batch naming it in every envelope has it hashed once, and read and parsed once. */
export async function localPdfOf(file: OpenedFile): Promise<LocalPdf> {
  return { sha256: await file.sha256(), bytes: () => file.bytes() };
}

/** A PDF already read. */
export const localPdfBytes = (bytes: Uint8Array): LocalPdf => ({ sha256: crypto().hash('sha256', bytes), bytes: async () => bytes });

/** The pdf module's message already says "not a readable PDF: why"; the path (or its place in a spec) goes in front of it. */
function unreadable(path: string, cause: PdfUnreadableError, where: Where = path): UsageError {
  const hint = cause instanceof PdfLimitError ? PDF_LIMIT_HINT : 'Check that the file is a PDF (not encrypted, not truncated).';
  return new UsageError(`${fileNamed(path, where)}: ${cause.message}`, hint, 'PDF_UNREADABLE');
}

/** Runs `read` with the pdf module (pdfjs is heavy: loaded only when a PDF is read); an unreadable file is a usage error. */
async function readLocalPdfWith<T>(path: string, read: (pdf: typeof import('../pdf/text.js')) => Promise<T>): Promise<T> {
  const pdf = await import('../pdf/text.js');
  try {
    return await read(pdf);
  } catch (error) {
    if (error instanceof PdfUnreadableError) throw unreadable(path, error);
    throw error;
  }
}

/** A command runs once and leaves: a small document is read in its own thread, without starting a reader thread. */
const SMALL_HERE = { smallHere: true } as const;

/** The text layer of a local PDF, read the way the service reads it (first 500 pages). */
export async function loadLocalPdfText(path: string, bytes: Uint8Array): Promise<PdfText> {
  return readLocalPdfWith(path, ({ loadPdfText }) => loadPdfText(bytes, SMALL_HERE));
}

/** Anchor searches in a local PDF, read the way the service reads it (first 500 pages). */
export async function searchLocalPdf(path: string, bytes: Uint8Array, searches: readonly AnchorSearch[]): Promise<PdfSearch> {
  return readLocalPdfWith(path, ({ searchPdf }) => searchPdf(bytes, searches, SMALL_HERE));
}

interface ParsedPdf {
  pages: Promise<{ pageCount: number; pages: PageInfo[] }>;
  text?: Promise<PdfText>;
}

/**
 * PDFs parsed lately, by content: a batch names the same file in hundreds of envelopes, and pdfjs then reads it once,
 * not once per envelope (time, and memory that would grow with the batch). Only a few are kept.
 */
const parsedPdfs = new Map<string, ParsedPdf>();
const PARSED_PDFS_KEPT = 4;

/**
 * The parse kept for `key`, else a new one of `bytes`: its pages, and with `withText` its text as well, read in the
 * same opening of the document (the text's own opening would cost as much again, for a small document about as much as
 * reading its pages' text).
 */
function parsedPdf(key: string, bytes: () => Promise<Uint8Array>, withText: boolean): ParsedPdf {
  let parsed = parsedPdfs.get(key);
  if (parsed) parsedPdfs.delete(key);
  else if (withText) {
    const text = import('../pdf/text.js').then(async ({ loadPdfText }) => loadPdfText(await bytes(), SMALL_HERE));
    parsed = { pages: text.then(({ pageCount, pages }) => ({ pageCount, pages })), text };
  } else parsed = { pages: import('../pdf/text.js').then(async ({ readPdfPages }) => readPdfPages(await bytes(), SMALL_HERE)) };
  parsedPdfs.set(key, parsed);
  for (const oldest of parsedPdfs.keys()) {
    if (parsedPdfs.size <= PARSED_PDFS_KEPT) break;
    parsedPdfs.delete(oldest);
  }
  return parsed;
}

/**
 * Placing fields offline reads the whole PDF into memory (pdfjs), several times its size: past this, the fields are
 * left to the service's own check (and a document to its own reading), so that a very large scan streams in bounded
 * memory.
 */
export const LOCAL_PLACEMENT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The service fails a PDF it cannot open (encrypted, damaged, no pages), and the draft holding it can then never be
 * sent: so a PDF is opened here, as the service will open it, before it is registered. The parse is kept, by content,
 * for the field placement that may follow; with `textWanted` (a field on it uses an anchor) it holds the text too.
 */
export async function assertReadablePdf(file: OpenedFile, textWanted = false): Promise<void> {
  const { path, where } = file;
  const pdf = await localPdfOf(file);
  const parsed = parsedPdf(pdf.sha256, () => pdf.bytes(), textWanted);
  let pageCount: number;
  try {
    ({ pageCount } = await parsed.pages);
  } catch (error) {
    if (error instanceof PdfUnreadableError) throw unreadable(path, error, where);
    throw error;
  }
  if (pageCount === 0) throw unreadable(path, new PdfUnreadableError('the PDF has no pages'), where);
}

export interface LocalPlacement {
  ok: boolean;
  /** Every field placed; when some are refused, those that could be placed (warnings are about them too). */
  placed: PlacedField[];
  problems: PlacementProblem[];
  pageCount: number;
  /** Index in the input of the field each placed id came from (ids generated by `occurrence: all` included). */
  fieldIndexOf: Map<string, number>;
}

/**
 * Places the fields on the local PDF with the service's rules, reporting every problem at once (the service stops at
 * the first stage that fails); the text is read only when a field has an anchor.
 */
export async function placeOnLocalPdf(path: string, pdf: LocalPdf, fields: readonly FieldInput[]): Promise<LocalPlacement> {
  let bytes: Promise<Uint8Array> | undefined;
  const read = () => (bytes ??= pdf.bytes());
  const parsed = parsedPdf(pdf.sha256, read, fields.some((field) => field.anchor !== undefined));
  let pages;
  try {
    pages = await parsed.pages;
  } catch (error) {
    if (error instanceof PdfUnreadableError) throw unreadable(path, error);
    throw error;
  }
  const idNamespace = uuidV5(path, FIELD_ID_NAMESPACE);
  const result = await placeFields({
    documentId: path,
    idNamespace,
    pages: pages.pages,
    loadText: () => (parsed.text ??= read().then((content) => loadLocalPdfText(path, content))),
    fields,
    everyProblem: true,
  });
  const placedFields = result.ok ? result.fields : (result.placed ?? []);
  const fieldIndexOf = new Map(fields.map((field, index) => [field.id, index]));
  for (const placed of placedFields) {
    if (fieldIndexOf.has(placed.id) || !placed.anchor) continue;
    const origin = fields.findIndex((field) => field.anchor !== undefined && derivedFieldId(field.id, placed.anchor!.occurrence, idNamespace) === placed.id);
    if (origin !== -1) fieldIndexOf.set(placed.id, origin);
  }
  return { ok: result.ok, placed: placedFields, problems: result.ok ? [] : result.problems, pageCount: pages.pageCount, fieldIndexOf };
}

/** The fields the problems name: by index, or by id for anchors not found. */
export function fieldsRefused(problems: readonly PlacementProblem[], fields: readonly FieldInput[]): FieldInput[] {
  const ids = new Set(
    problems.flatMap((problem) => [
      ...(problem.fieldIndex === undefined ? [] : [fields[problem.fieldIndex]?.id]),
      ...(Array.isArray(problem.details?.anchors) ? (problem.details.anchors as { fieldId: string }[]).map((anchor) => anchor.fieldId) : []),
    ]),
  );
  return fields.filter((field) => ids.has(field.id));
}

/** Where each field came from: its location in the input file, by index in the placed list and by id. */
export interface FieldLocations {
  byIndex(index: number): string | undefined;
  byId(id: string): string | undefined;
  /** The document as named in messages. */
  document: string;
  /** Where findings about the whole document point (default: the document's name). */
  documentWhere?: Where;
}

/** The placement problems as findings: one per missing anchor, each pointing at its field in the file. */
export function problemFindings(problems: readonly PlacementProblem[], locations: FieldLocations): Finding[] {
  const documentWhere = whereText(locations.documentWhere ?? locations.document);
  return problems.flatMap((problem): Finding[] => {
    if (problem.code === 'ANCHOR_NOT_FOUND' && Array.isArray(problem.details?.anchors)) {
      const truncated = problem.details.truncated === true ? ' (only the first 500 pages were searched)' : '';
      return (problem.details.anchors as { fieldId: string; text: string }[]).map((anchor) => ({
        where: locations.byId(anchor.fieldId) ?? documentWhere,
        code: problem.code,
        message: `anchor text ${JSON.stringify(anchor.text)} not found in ${locations.document}${truncated}`,
      }));
    }
    const where = problem.fieldIndex === undefined ? documentWhere : (locations.byIndex(problem.fieldIndex) ?? documentWhere);
    const about = problem.fieldIndex === undefined && documentWhere !== locations.document ? `${locations.document}: ` : '';
    // The index prefix counts fields of one document; the location says it better.
    return [{ where, code: problem.code, message: `${about}${problem.message.replace(/^fields\[\d+\]: /, '')}` }];
  });
}

/** The warnings of checkFieldsForPeople, with fields named by their place in the file instead of their ids. */
export function warningFindings(warnings: readonly FieldWarning[], locations: FieldLocations): Finding[] {
  return warnings.map((warning) => {
    const [first, second] = (warning.fieldIds ?? []).map((id) => locations.byId(id) ?? id);
    switch (warning.code) {
      case 'FIELDS_OVERLAP':
        return { where: first, code: warning.code, message: `overlaps the field at ${second} on page ${warning.page}` };
      case 'FIELD_PARTICIPANT_UNKNOWN':
        return { where: first, code: warning.code, message: `participant ${warning.participantId} is not among the participants` };
      default:
        return { code: warning.code, message: warning.message };
    }
  });
}

export function findingLine(finding: Finding): string {
  return visible(`${finding.where ? `${finding.where}: ` : ''}${finding.code}: ${finding.message}`);
}

/** A fields file placed on a local PDF, with every placed field traced back to its place in the file. */
export interface FieldsFileOnPdf {
  bytes: Uint8Array;
  placement: LocalPlacement;
  locations: FieldLocations;
  /** What the service would refuse, each at its place in the file. */
  problems: Finding[];
  /** The fields of the file a problem names (not placed). */
  refused: FieldInput[];
}

/** What the service would refuse, with the warnings about the fields that could be placed: exit 5. */
export function refusedFields(problems: Finding[], warnings: Finding[]): PreflightError {
  return new PreflightError(`The service would refuse these fields (${problems.length} problem${problems.length === 1 ? '' : 's'}).`, { problems, warnings });
}

/**
 * Reads the fields file and places it on the PDF, finding every problem the service would refuse. Ids left out of
 * the file get the ids `fields put` would give them on this PDF.
 */
export async function placeFieldsFileLocally(pdfPath: string, fieldsPath: string, stdin: NodeJS.ReadableStream): Promise<FieldsFileOnPdf> {
  const file = await readFieldsFile(fieldsPath, stdin);
  const fields = withIds(file.fields, (index) => fieldIdFor('local', pdfPath, index));
  const bytes = await readLocalPdf(pdfPath);
  const placement = await placeOnLocalPdf(pdfPath, localPdfBytes(bytes), fields);
  const locate = (index: number | undefined) => (index === undefined ? undefined : file.input.locate(file.pathOf(index)));
  const locations: FieldLocations = {
    byIndex: (index) => locate(index),
    byId: (id) => locate(placement.fieldIndexOf.get(id)),
    document: pdfPath,
  };
  return { bytes, placement, locations, problems: problemFindings(placement.problems, locations), refused: fieldsRefused(placement.problems, fields) };
}
