/**
 * envelope.yaml: one envelope described whole (settings, participants, documents, fields), as `envelopes send-now`
 * sends it and batch mode repeats it. Participants and documents carry a `ref` that fields point at; document files
 * are found relative to the spec file. Every check that needs no service runs here, with file:line:column.
 */
import { dirname, resolve } from 'node:path';
import type { z as zod } from 'zod';
import { UsageError } from '../core/errors.js';
import { parseSpecDeadline, type SpecDeadline } from '../input/duration.js';
import { lazy, placementIssues, placementJsonSchema, schemaParts, type AnchorSpec } from '../input/fields.js';
import { idSchema } from '../input/ids.js';
import { NOT_BLANK, PHONE_RULE_JSON_SCHEMA, participantSchemaParts, type ParticipantInput } from '../input/participants.js';
import { inputError, readStructuredFile, validateInput, type InputPath, type StructuredInput } from '../input/structured.js';
import type { FieldType } from '../pdf/placement.js';
import { keyShapedPaths } from '../shared/keys.js';
import { localDocument, type LocalDocument } from './upload.js';

/** The contract: "At most 20 fields with anchor per call" of send-now. */
export const MAX_ANCHOR_FIELDS_PER_SEND_NOW = 20;

/** A participant of the spec: the body item of `PUT .../participants`, named by a ref instead of an id. */
export interface SpecParticipant extends Omit<ParticipantInput, 'id'> {
  ref: string;
}

export interface SpecDocument {
  ref: string;
  /** Relative to the spec file. */
  file: string;
  /** Name shown to participants; defaults to the file's name. */
  fileName?: string;
}

export interface SpecField {
  type: FieldType;
  documentRef: string;
  participantRef: string;
  pageNumber?: number;
  position?: { x: number; y: number };
  size: { width: number; height: number };
  anchor?: AnchorSpec;
  properties?: Record<string, unknown>;
}

export interface EnvelopeSpec {
  title: string;
  message?: string;
  /** ISO 8601 date-time, or a duration from now (7d). */
  deadline?: string;
  folderId?: string;
  participants: SpecParticipant[];
  documents: SpecDocument[];
  fields: SpecField[];
}

/** A spec read and checked, each document resolved to a file on disk. */
export interface LoadedEnvelopeSpec {
  input: StructuredInput;
  spec: EnvelopeSpec;
  /** Same order as spec.documents. */
  files: (LocalDocument & { ref: string })[];
  /** A date-time as the contract wants it (UTC, milliseconds), or a duration counted from the envelope's creation. */
  deadline?: SpecDeadline;
}

/** `deadline:` of a spec, as text; its date-time or duration is checked by parseDeadline. */
export function deadlineSchema(z: typeof import('zod').z) {
  return z
    .union([z.string(), z.date()], { error: 'expected an ISO 8601 date-time (2030-01-31T17:00:00Z) or a duration from now (7d, 36h)' })
    .transform((value) => (value instanceof Date ? value.toISOString() : value));
}

/** The envelope spec's object schema: send-now reads it as is, batch mode adds its own keys (src/batch/entries.ts). */
export function envelopeSpecShape(z: typeof import('zod').z) {
  const parts = schemaParts(z);
  const ref = z.string().trim().min(1, { message: 'ref must not be empty' }).max(100);
  const participantParts = participantSchemaParts(z);
  const participant = z
    .strictObject({ ref, ...participantParts.common, role: participantParts.role, signingOrder: participantParts.signingOrder })
    .superRefine(participantParts.phoneRule)
    .meta(PHONE_RULE_JSON_SCHEMA);
  const document = z.strictObject({ ref, file: z.string().min(1, { message: 'file must not be empty' }), fileName: z.string().trim().min(1).max(255).optional() });
  const field = z
    .strictObject({
      type: parts.fieldType,
      documentRef: ref,
      participantRef: ref,
      pageNumber: z.int().min(1, { message: 'pages start at 1' }).optional(),
      position: parts.point.optional(),
      size: parts.size.optional(),
      anchor: parts.anchor.optional(),
      properties: parts.properties.optional(),
    })
    .superRefine((value, ctx) => {
      for (const issue of placementIssues(value, 'pageNumber')) ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path] });
    })
    .meta(placementJsonSchema('pageNumber'));
  return {
    title: z.string().trim().min(1, { message: 'title must not be empty' }).meta(NOT_BLANK),
    message: z.string().optional(),
    deadline: deadlineSchema(z).optional(),
    folderId: idSchema(z).optional(),
    participants: z.array(participant).min(1, { message: 'at least one participant is needed' }),
    documents: z.array(document).min(1, { message: 'at least one document is needed' }),
    fields: z.array(field).default([]),
  };
}

/** `ref` names the envelope in a batch; a spec written for batch mode may be sent with send-now as it is. */
const specSchema = lazy((z) => z.strictObject({ ...envelopeSpecShape(z), ref: z.string().optional() }) as unknown as zod.ZodType<EnvelopeSpec>);

const specHint = 'An envelope spec has title, participants (ref, name, email), documents (ref, file) and fields (type, documentRef, participantRef, size, and pageNumber + position or anchor).';

function uniqueRefs(input: StructuredInput, list: 'participants' | 'documents', items: readonly { ref: string }[]): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const earlier = seen.get(item.ref);
    if (earlier !== undefined) {
      throw inputError(input, [list, index, 'ref'], `ref ${JSON.stringify(item.ref)} is already used at ${input.locate([list, earlier, 'ref'])}`, 'Each participant and each document needs its own ref.');
    }
    seen.set(item.ref, index);
  });
}

export async function readEnvelopeSpec(path: string, stdin: NodeJS.ReadableStream, nowMs: number = Date.now()): Promise<LoadedEnvelopeSpec> {
  const input = await readStructuredFile(path, stdin);
  const keyAt = keyShapedPaths(input.data)[0];
  if (keyAt) {
    throw inputError(input, keyAt, 'holds text shaped like an API key; an API key is never sent as envelope data', 'Remove the key from the spec: esign sends the key only in the Authorization header.');
  }
  // `-` reads the spec from standard input: its files are then relative to the working directory.
  const base = path === '-' ? process.cwd() : dirname(resolve(path));
  const loaded = await loadEnvelopeSpec(input, await specSchema(), base, nowMs);
  assertSendNowAnchorLimit(loaded);
  return loaded;
}

/** The contract: "At most 20 fields with anchor per call" of send-now; a draft's `fields put` has no such limit. */
export function assertSendNowAnchorLimit(loaded: LoadedEnvelopeSpec, hint = 'Place some fields by pageNumber + position (esign anchors find --local gives the coordinates), or create a draft and use `esign fields put`.'): void {
  const anchored = loaded.spec.fields.filter((field) => field.anchor !== undefined).length;
  if (anchored > MAX_ANCHOR_FIELDS_PER_SEND_NOW) {
    throw inputError(loaded.input, ['fields'], `${anchored} fields use an anchor; send-now takes at most ${MAX_ANCHOR_FIELDS_PER_SEND_NOW}`, hint);
  }
}

/** Checks an envelope spec (already parsed, wherever it came from) and resolves its documents against `base`. */
export async function loadEnvelopeSpec(input: StructuredInput, schema: zod.ZodType<EnvelopeSpec>, base: string, nowMs: number = Date.now()): Promise<LoadedEnvelopeSpec> {
  // Every problem is gathered, so that one run shows all there is to fix.
  const problems: UsageError[] = [];
  const gather = async (check: () => unknown): Promise<void> => {
    try {
      await check();
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error);
    }
  };
  let parsed: EnvelopeSpec | undefined;
  await gather(() => (parsed = validateInput(input, schema, specHint)));
  if (!parsed) {
    // The rest needs a spec that fits the schema; its document files can be checked all the same.
    const documents = isRecordLike(input.data) && Array.isArray(input.data.documents) ? input.data.documents : [];
    for (const [index, document] of documents.entries()) {
      if (!isRecordLike(document) || typeof document.file !== 'string' || document.file === '') continue;
      const file = document.file;
      await gather(() => localDocument(resolve(base, file), () => input.locate(['documents', index, 'file'])));
    }
    throw gathered(input, problems);
  }
  const spec = parsed;
  await gather(() => uniqueRefs(input, 'participants', spec.participants));
  await gather(() => uniqueRefs(input, 'documents', spec.documents));
  const participantRefs = spec.participants.map((participant) => participant.ref);
  const documentRefs = spec.documents.map((document) => document.ref);
  for (const [index, field] of spec.fields.entries()) {
    if (!documentRefs.includes(field.documentRef)) {
      problems.push(inputError(input, ['fields', index, 'documentRef'], `no document has ref ${JSON.stringify(field.documentRef)}`, `Document refs: ${documentRefs.join(', ')}.`));
    }
    if (!participantRefs.includes(field.participantRef)) {
      problems.push(inputError(input, ['fields', index, 'participantRef'], `no participant has ref ${JSON.stringify(field.participantRef)}`, `Participant refs: ${participantRefs.join(', ')}.`));
    }
  }
  let deadline: SpecDeadline | undefined;
  if (spec.deadline !== undefined) {
    try {
      deadline = parseSpecDeadline(spec.deadline, nowMs);
    } catch (error) {
      problems.push(inputError(input, ['deadline'], (error as Error).message));
    }
  }
  const files: LoadedEnvelopeSpec['files'] = [];
  for (const [index, document] of spec.documents.entries()) {
    const at = () => input.locate(['documents', index, 'file']);
    const anchored = spec.fields.some((field) => field.documentRef === document.ref && field.anchor !== undefined);
    const fileName = document.fileName ?? document.file.split(/[\\/]/).pop()!;
    await gather(async () => files.push({ ref: document.ref, ...(await localDocument(resolve(base, document.file), at, fileName, anchored)) }));
  }
  if (problems.length) throw gathered(input, problems);
  return { input, spec, files, ...(deadline ? { deadline } : {}) };
}

function isRecordLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One error listing every problem gathered (the one itself when there is one). */
function gathered(input: StructuredInput, problems: readonly UsageError[]): UsageError {
  if (problems.length === 1) return problems[0]!;
  const lines = problems.flatMap((problem) => (problem.lines ?? [problem.message]));
  const hints = [...new Set(problems.flatMap((problem) => (problem.hint ? [problem.hint] : [])))];
  return new UsageError(lines, hints.join(' ') || undefined, 'INPUT_INVALID', { file: input.name, problems: lines });
}

/** Where a field of the spec is written, for messages. */
export function fieldPath(index: number): InputPath {
  return ['fields', index];
}

/**
 * The send-now body (pins: participants and documents carry their `ref`; fields point at them). A relative deadline is
 * not in it: it is set once the service has recorded when it created the envelope (workflows/deadline.ts).
 */
export function sendNowBody(loaded: LoadedEnvelopeSpec): Record<string, unknown> {
  const { spec } = loaded;
  return {
    title: spec.title,
    ...(spec.message !== undefined ? { message: spec.message } : {}),
    ...(loaded.deadline && 'at' in loaded.deadline ? { deadline: loaded.deadline.at } : {}),
    ...(spec.folderId ? { folderId: spec.folderId } : {}),
    participants: spec.participants.map((participant) => ({ ...participant })),
    documents: loaded.files.map((file) => ({ ref: file.ref, fileName: file.fileName, contentType: file.contentType })),
    fields: spec.fields.map(({ participantRef, ...field }) => ({ ...field, signatoryRef: participantRef })),
  };
}
