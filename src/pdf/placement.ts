/**
 * Field placement rules of PUT .../fields, shared by the emulator (which stores the result) and the CLI's
 * offline `fields check` (which reports it). Pure: the caller supplies page sizes and, lazily, the text.
 */
import { isUuid, uuidV5 } from '../shared/uuid.js';
import {
  FIELD_ANCHOR_DEFAULT_OCCURRENCE,
  describeInvalidAnchorOptions,
  findAnchors,
  type Occurrence,
  type Offset,
} from './anchors.js';
import { PdfTextTimeoutError, PdfUnreadableError } from './errors.js';
import { boxFitsPage } from './geometry.js';
import type { Box, PageInfo, PdfText } from './page-text.js';

export const FIELD_TYPES = ['SIGNATURE', 'INITIALS', 'TEXT', 'CHECKBOX_GROUP', 'RADIO_GROUP'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Group fields are placed by coordinates only. */
const TYPES_WITHOUT_ANCHOR: readonly FieldType[] = ['CHECKBOX_GROUP', 'RADIO_GROUP'];

/** At most this many fields may come out of anchors in one PUT. */
export const MAX_FIELDS_FROM_ANCHORS = 200;

export interface FieldAnchorInput {
  text: string;
  occurrence?: Occurrence;
  caseSensitive?: boolean;
  matchWholeWord?: boolean;
  offset?: Offset;
  ifNotFound?: 'error' | 'ignore';
}

/**
 * A field as the contract's PUT body carries it. The body is parsed JSON, so every value is still
 * checked at run time: these types say what is valid, not what has been verified.
 */
export interface FieldInput {
  id: string;
  participantId: string;
  type: FieldType;
  pages?: number[];
  position?: { x: number; y: number };
  size?: { width: number; height: number };
  anchor?: FieldAnchorInput;
  properties?: Record<string, unknown>;
}

/** A field resolved onto one page (a field on several pages gives one per page, all with its id). */
export interface PlacedField extends Box {
  id: string;
  participantId: string;
  type: FieldType;
  page: number;
  properties?: Record<string, unknown>;
  /** Present when an anchor placed the field: the text and which occurrence in the document, from 1. */
  anchor?: { text: string; occurrence: number };
}

/** The contract's field shape as GET .../fields returns it. */
export interface FieldResource {
  id: string;
  participantId: string;
  type: FieldType;
  pages: number[];
  position: { x: number; y: number };
  size: { width: number; height: number };
  properties?: Record<string, unknown>;
}

/**
 * FIELD_PLACEMENT_INVALID is kept for the shape of a placement (both or neither of pages+position and
 * anchor, half of pages+position, size missing, anchor on a group type), as pinned for the contract's
 * unnamed 400. Bad values inside an otherwise well-formed field (unknown type, id not a UUID, negative
 * size, anchor text length, unknown option value) are VALIDATION_ERROR, like any other invalid body.
 */
export type PlacementErrorCode =
  | 'VALIDATION_ERROR'
  | 'FIELD_PLACEMENT_INVALID'
  | 'FIELD_PAGE_OUT_OF_BOUNDS'
  | 'FIELD_GEOMETRY_INVALID'
  | 'ANCHOR_NOT_FOUND'
  | 'ANCHOR_TOO_MANY_MATCHES'
  | 'DOCUMENT_HAS_NO_TEXT'
  | 'DOCUMENT_TEXT_UNREADABLE';

export interface PlacementProblem {
  status: 400 | 422;
  code: PlacementErrorCode;
  message: string;
  details?: Record<string, unknown>;
  /** Index in the request's `fields` when the problem belongs to one field. */
  fieldIndex?: number;
}

/** A refusal; with `everyProblem`, also the fields that could be placed despite it (for warnings about them). */
export type PlacementResult = { ok: true; fields: PlacedField[] } | { ok: false; problems: PlacementProblem[]; placed?: PlacedField[] };

export interface PlacementInput {
  documentId: string;
  /** UUID namespace for ids derived from anchors; the same document must always give the same one. */
  idNamespace: string;
  /** Every page of the document, in order. */
  pages: readonly PageInfo[];
  /** Called only when a field has an anchor. */
  loadText: () => Promise<PdfText>;
  fields: readonly FieldInput[];
  /**
   * Go on past a failing stage, each stage taking the fields earlier ones did not refuse, and answer every problem
   * with what could be placed: an offline check reports all there is to fix at once. The service stops at the first.
   */
  everyProblem?: boolean;
}

/**
 * Resolves the fields of a PUT into per-page boxes, or explains why the PUT is refused. Problems are
 * reported stage by stage, every problem of the first failing stage: the body's shape and values (400),
 * pages and geometry of coordinate fields (400), reading the text (422), anchors not found (422), too
 * many anchored fields (422), then geometry of anchored fields and derived ids equal to a sent id (400).
 * With `everyProblem`, the problems of every stage.
 */
export async function placeFields(input: PlacementInput): Promise<PlacementResult> {
  const every = input.everyProblem === true;
  const problems = input.fields.flatMap((field, index) => {
    const problem = describeFieldProblem(field, index);
    return problem ? [problem] : [];
  });
  problems.push(...duplicateIdProblems(input.fields));
  if (problems.length > 0 && !every) return { ok: false, problems };
  const refused = new Set(problems.map((problem) => problem.fieldIndex));
  const fields = input.fields.map((field, index) => ({ field, index })).filter(({ index }) => !refused.has(index));

  const placed: PlacedField[][] = input.fields.map(() => []);
  const coordinateProblems: PlacementProblem[] = [];
  for (const { field, index } of fields) {
    if (isAnchored(field)) continue;
    for (const page of field.pages!) {
      const box = { ...field.position!, ...field.size! };
      const problem = pageProblem(input, page, index) ?? geometryProblem(input.pages[page - 1]!, box, field.id, index);
      if (problem) coordinateProblems.push(problem);
      else placed[index]!.push(placedOn(field, page, box));
    }
  }
  problems.push(...coordinateProblems);
  if (problems.length > 0 && !every) return { ok: false, problems };

  const anchored = fields.flatMap(({ field, index }) => (isAnchored(field) ? [{ field, anchor: field.anchor!, index }] : []));
  if (anchored.length > 0) {
    const anchorResult = await placeAnchoredFields(input, anchored, every);
    problems.push(...anchorResult.problems);
    if (problems.length > 0 && !every) return { ok: false, problems };
    for (const { index, fields: fromAnchor } of anchorResult.placed) placed[index] = fromAnchor;
  }

  return problems.length > 0 ? { ok: false, problems, placed: placed.flat() } : { ok: true, fields: placed.flat() };
}

function validationError(message: string, fieldIndex: number): PlacementProblem {
  return { status: 400, code: 'VALIDATION_ERROR', message: `fields[${fieldIndex}]: ${message}`, fieldIndex };
}

function placementInvalid(message: string, fieldIndex: number): PlacementProblem {
  return { status: 400, code: 'FIELD_PLACEMENT_INVALID', message: `fields[${fieldIndex}]: ${message}`, fieldIndex };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** JSON clients often send null for an option they leave out. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isAnchored(field: FieldInput): boolean {
  return given(field.anchor);
}

/**
 * The first thing wrong with one field, if any: the shape of its placement first, since the contract
 * names that refusal, then the values.
 */
function describeFieldProblem(field: FieldInput, index: number): PlacementProblem | undefined {
  if (!isPlainObject(field)) return validationError('must be an object', index);
  const { id, participantId, type, pages, position, size, anchor, properties } = field as unknown as Record<string, unknown>;

  const hasCoordinates = given(pages) || given(position);
  const hasAnchor = given(anchor);
  if (hasCoordinates && hasAnchor) return placementInvalid('carries both pages+position and anchor; send exactly one', index);
  if (!hasCoordinates && !hasAnchor) return placementInvalid('carries neither pages+position nor anchor; send exactly one', index);
  if (hasCoordinates && !(given(pages) && given(position))) {
    return placementInvalid('pages and position go together; one of them is missing', index);
  }
  if (!given(size)) return placementInvalid('size is required', index);
  if (hasAnchor && TYPES_WITHOUT_ANCHOR.includes(type as FieldType)) {
    return placementInvalid(`${String(type)} fields take pages+position, not anchor`, index);
  }

  if (typeof id !== 'string' || !isUuid(id)) return validationError('id must be a UUID', index);
  if (typeof participantId !== 'string' || participantId === '') return validationError('participantId must be a non-empty string', index);
  if (!FIELD_TYPES.includes(type as FieldType)) {
    return validationError(`type must be one of ${FIELD_TYPES.join(', ')} (got ${JSON.stringify(type)})`, index);
  }
  if (!isPlainObject(size) || !isFiniteNumber(size.width) || !isFiniteNumber(size.height) || size.width <= 0 || size.height <= 0) {
    return validationError('size must be {width, height} with positive numbers', index);
  }
  if (given(properties) && !isPlainObject(properties)) return validationError('properties must be an object', index);
  if (hasCoordinates) {
    if (!Array.isArray(pages) || pages.length === 0) return validationError('pages must be a non-empty array', index);
    if (!pages.every((page) => Number.isInteger(page) && page >= 1)) return validationError('pages must be integers from 1', index);
    if (new Set(pages).size !== pages.length) return validationError('pages lists a page twice', index);
    if (!isPlainObject(position) || !isFiniteNumber(position.x) || !isFiniteNumber(position.y)) {
      return validationError('position must be {x, y} with finite numbers', index);
    }
    return undefined;
  }
  if (!isPlainObject(anchor)) return validationError('anchor must be an object', index);
  const invalidAnchor = describeInvalidAnchorOptions(anchor);
  if (invalidAnchor) return validationError(invalidAnchor, index);
  if (given(anchor.ifNotFound) && anchor.ifNotFound !== 'error' && anchor.ifNotFound !== 'ignore') {
    return validationError(`anchor ifNotFound must be "error" or "ignore" (got ${JSON.stringify(anchor.ifNotFound)})`, index);
  }
  return undefined;
}

function duplicateIdProblems(fields: readonly FieldInput[]): PlacementProblem[] {
  const firstIndex = new Map<string, number>();
  const problems: PlacementProblem[] = [];
  fields.forEach((field, index) => {
    if (!isPlainObject(field) || typeof field.id !== 'string') return;
    const earlier = firstIndex.get(field.id);
    if (earlier === undefined) firstIndex.set(field.id, index);
    else problems.push(validationError(`id ${field.id} is already used by fields[${earlier}]; ids are unique in a document`, index));
  });
  return problems;
}

function pageProblem(input: PlacementInput, page: number, fieldIndex: number): PlacementProblem | undefined {
  const pageCount = input.pages.length;
  if (page <= pageCount) return undefined;
  return {
    status: 400,
    code: 'FIELD_PAGE_OUT_OF_BOUNDS',
    message: `fields[${fieldIndex}]: page ${page} is beyond the document, which has ${pageCount} page${pageCount === 1 ? '' : 's'}`,
    details: { documentId: input.documentId, page, pageCount },
    fieldIndex,
  };
}

function geometryProblem(page: PageInfo, box: Box, fieldId: string, fieldIndex: number): PlacementProblem | undefined {
  if (boxFitsPage(page, box)) return undefined;
  return {
    status: 400,
    code: 'FIELD_GEOMETRY_INVALID',
    message:
      `fields[${fieldIndex}]: the box at x ${box.x}, y ${box.y}, ${box.width} × ${box.height} leaves page ${page.page}` +
      ` (${page.width} × ${page.height} as displayed)`,
    details: { fieldId, page: page.page, box, pageSize: { width: page.width, height: page.height } },
    fieldIndex,
  };
}

function placedOn(field: FieldInput, page: number, box: Box, anchor?: PlacedField['anchor'], id = field.id): PlacedField {
  return {
    id,
    participantId: field.participantId,
    type: field.type,
    page,
    x: box.x,
    y: box.y,
    width: box.width,
    height: box.height,
    ...(given(field.properties) && { properties: field.properties }),
    ...(anchor && { anchor }),
  };
}

interface AnchoredField {
  field: FieldInput;
  anchor: FieldAnchorInput;
  index: number;
}

/** The anchored fields placed, and the problems met; without `every`, nothing is placed once there is a problem. */
interface AnchorPlacement {
  placed: { index: number; fields: PlacedField[] }[];
  problems: PlacementProblem[];
}

async function placeAnchoredFields(input: PlacementInput, anchored: readonly AnchoredField[], every: boolean): Promise<AnchorPlacement> {
  const refusal = (problem: PlacementProblem): AnchorPlacement => ({ placed: [], problems: [problem] });
  let text: PdfText;
  try {
    text = await input.loadText();
  } catch (cause) {
    if (!(cause instanceof PdfUnreadableError || cause instanceof PdfTextTimeoutError)) throw cause;
    return refusal({ status: 422, code: 'DOCUMENT_TEXT_UNREADABLE', message: `the document text could not be read: ${cause.message}` });
  }
  if (!text.hasText) {
    return refusal({ status: 422, code: 'DOCUMENT_HAS_NO_TEXT', message: 'the document has no text layer, so anchors cannot be searched (a scan needs OCR)' });
  }
  const problems: PlacementProblem[] = [];

  const found = anchored.map((entry) => {
    const { text: anchorText, caseSensitive, matchWholeWord, offset } = entry.anchor;
    const occurrence = entry.anchor.occurrence ?? FIELD_ANCHOR_DEFAULT_OCCURRENCE;
    const search = { key: entry.field.id, text: anchorText, occurrence, caseSensitive, matchWholeWord, offset };
    return { ...entry, occurrence, matches: findAnchors(text, [search]) };
  });

  const missing = found.filter((entry) => entry.matches.length === 0 && (entry.anchor.ifNotFound ?? 'error') === 'error');
  if (missing.length > 0) {
    problems.push({
      status: 422,
      code: 'ANCHOR_NOT_FOUND',
      message:
        `anchor text not found: ${missing.map((entry) => JSON.stringify(entry.anchor.text)).join(', ')}` +
        (text.truncated ? ` (only the first ${text.pageTexts.length} of ${text.pageCount} pages were searched)` : ''),
      details: { anchors: missing.map((entry) => ({ fieldId: entry.field.id, text: entry.anchor.text })), truncated: text.truncated },
    });
    if (!every) return { placed: [], problems };
  }

  const generated = found.reduce((sum, entry) => sum + entry.matches.length, 0);
  if (generated > MAX_FIELDS_FROM_ANCHORS) {
    problems.push({
      status: 422,
      code: 'ANCHOR_TOO_MANY_MATCHES',
      message: `anchors would generate ${generated} fields; at most ${MAX_FIELDS_FROM_ANCHORS} are allowed in one request`,
      details: { generated, limit: MAX_FIELDS_FROM_ANCHORS },
    });
    if (!every) return { placed: [], problems };
  }

  const sentIds = new Map(input.fields.map((field, index) => [field.id, index]));
  const placed = found.map(({ field, anchor, index, occurrence, matches }) => ({
    index,
    fields: matches.flatMap((match, matchIndex) => {
      // With 'all' the matches come in document order, so the n-th match is occurrence n.
      const occurrenceNumber = typeof occurrence === 'number' ? occurrence : matchIndex + 1;
      const box = { x: match.x, y: match.y, ...field.size! };
      const page = input.pages[match.page - 1];
      const problem = page ? geometryProblem(page, box, field.id, index) : pageProblem(input, match.page, index);
      if (problem) {
        problems.push(problem);
        return [];
      }
      const id = occurrenceNumber === 1 || occurrence !== 'all' ? field.id : derivedFieldId(field.id, occurrenceNumber, input.idNamespace);
      const sentIndex = id === field.id ? undefined : sentIds.get(id);
      if (sentIndex !== undefined) {
        // Two fields with one id would silently become one.
        problems.push(
          validationError(
            `id ${id} is also the id generated for occurrence ${occurrenceNumber} of the anchor of fields[${index}]; ` +
              'send either the anchor or the generated fields',
            sentIndex,
          ),
        );
        return [];
      }
      return [placedOn(field, match.page, box, { text: anchor.text, occurrence: occurrenceNumber }, id)];
    }),
  }));
  return problems.length > 0 && !every ? { placed: [], problems } : { placed, problems };
}

/** The id of the n-th (n ≥ 2) field an `all` anchor generates: the same on every repeat of the PUT. */
export function derivedFieldId(fieldId: string, occurrence: number, idNamespace: string): string {
  return uuidV5(`${fieldId}:${occurrence}`, idNamespace);
}

/**
 * The stored fields in the contract's read shape: one entry per id, coordinates as whole points. Rounding
 * may not push a box off its page (A4 is 595.28 × 841.89), or sending the fields back would be refused,
 * so a box that would leave is moved back by the fraction rounding added.
 */
export function toFieldResources(placed: readonly PlacedField[], pages: readonly PageInfo[]): FieldResource[] {
  const byId = new Map<string, FieldResource>();
  for (const field of placed) {
    const existing = byId.get(field.id);
    if (existing) {
      existing.pages.push(field.page);
      continue;
    }
    const page = pages[field.page - 1];
    const [x, width] = roundWithin(field.x, field.width, page?.width ?? Infinity);
    const [y, height] = roundWithin(field.y, field.height, page?.height ?? Infinity);
    byId.set(field.id, {
      id: field.id,
      participantId: field.participantId,
      type: field.type,
      pages: [field.page],
      position: { x, y },
      size: { width, height },
      ...(field.properties !== undefined && { properties: field.properties }),
    });
  }
  return [...byId.values()];
}

/** Whole-point start and length of a span that stays within [0, limit] if the unrounded span did. */
function roundWithin(start: number, length: number, limit: number): [number, number] {
  const roundedLength = Math.min(Math.round(length), Math.floor(limit));
  const roundedStart = Math.round(start);
  return [Math.max(0, Math.min(roundedStart, Math.floor(limit) - roundedLength)), roundedLength];
}

export interface ParticipantRef {
  id: string;
  role: 'SIGNER' | 'APPROVER';
  name?: string;
}

export interface DocumentFields {
  documentId: string;
  fields: readonly PlacedField[];
}

export type FieldWarningCode = 'FIELDS_OVERLAP' | 'SIGNER_WITHOUT_SIGNATURE' | 'FIELD_PARTICIPANT_UNKNOWN';

export interface FieldWarning {
  code: FieldWarningCode;
  message: string;
  documentId?: string;
  page?: number;
  fieldIds?: string[];
  participantId?: string;
}

/**
 * Things the service accepts but a person would regret: fields covering each other, a signer who has
 * nothing to sign, a field for someone who is not a participant. Documents are given separately because
 * overlap only means something within one document, while a signer's signature may be on any of them.
 */
export function checkFieldsForPeople(
  documents: readonly DocumentFields[],
  participants?: readonly ParticipantRef[],
): FieldWarning[] {
  const warnings: FieldWarning[] = documents.flatMap(overlapWarnings);
  if (!participants) return warnings;
  const known = new Set(participants.map((participant) => participant.id));
  const signing = new Set<string>();
  for (const { documentId, fields } of documents) {
    const reported = new Set<string>();
    for (const field of fields) {
      if (field.type === 'SIGNATURE') signing.add(field.participantId);
      if (!known.has(field.participantId) && !reported.has(field.id)) {
        reported.add(field.id);
        warnings.push({
          code: 'FIELD_PARTICIPANT_UNKNOWN',
          message: `field ${field.id} is for participant ${field.participantId}, who is not among the participants`,
          documentId,
          fieldIds: [field.id],
          participantId: field.participantId,
        });
      }
    }
  }
  for (const participant of participants) {
    if (participant.role === 'SIGNER' && !signing.has(participant.id)) {
      warnings.push({
        code: 'SIGNER_WITHOUT_SIGNATURE',
        message: `signer ${participant.name ?? participant.id} has no SIGNATURE field`,
        participantId: participant.id,
      });
    }
  }
  return warnings;
}

function overlapWarnings({ documentId, fields }: DocumentFields): FieldWarning[] {
  const warnings: FieldWarning[] = [];
  for (let first = 0; first < fields.length; first++) {
    for (let second = first + 1; second < fields.length; second++) {
      const a = fields[first]!;
      const b = fields[second]!;
      if (a.page !== b.page || a.id === b.id || !overlap(a, b)) continue;
      warnings.push({
        code: 'FIELDS_OVERLAP',
        message: `fields ${a.id} (${a.type}) and ${b.id} (${b.type}) overlap on page ${a.page}`,
        documentId,
        page: a.page,
        fieldIds: [a.id, b.id],
      });
    }
  }
  return warnings;
}

/** Boxes that only touch along an edge do not overlap. */
function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
