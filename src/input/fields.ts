/**
 * fields.yaml / fields.json: the contract's document field shape, checked here with file:line:column before
 * anything is sent, and given stable ids when the file leaves them out. The anchor and placement rules are shared
 * with the envelope spec (src/batch/envelope-spec.ts) and anchors:find searches.
 */
import type { z as zod } from 'zod';
import { ANCHOR_KEY_MAX_LENGTH, ANCHOR_TEXT_MAX_LENGTH, type Occurrence } from '../pdf/anchors.js';
import { FIELD_TYPES, type FieldInput, type FieldType } from '../pdf/placement.js';
import { isUuid, uuidV5 } from '../shared/uuid.js';
import { inputError, readStructuredFile, validateInput, type InputPath, type StructuredInput } from './structured.js';

type Zod = typeof zod;

/**
 * Namespace of the field ids esign derives (`envelopeId:documentId:index`). Fixed forever: changing it would make
 * every re-run of an existing fields file duplicate its fields instead of updating them.
 */
export const FIELD_ID_NAMESPACE = '666d3eb2-942a-4f12-9994-3c2c6b1f76a6';

/** The id of the field at `index` of a fields file put on this document: the same on every run. */
export function fieldIdFor(envelopeId: string, documentId: string, index: number): string {
  return uuidV5(`${envelopeId}:${documentId}:${index}`, FIELD_ID_NAMESPACE);
}

/** The contract: "CHECKBOX_GROUP and RADIO_GROUP do not accept anchor". */
const TYPES_WITHOUT_ANCHOR: readonly string[] = ['CHECKBOX_GROUP', 'RADIO_GROUP'];

/** Builds zod schemas on first use: zod is heavy and must not load with the CLI. */
export function lazy<T>(build: (z: Zod) => T): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () => (built ??= import('zod').then(({ z }) => build(z)));
}

export interface AnchorSpec {
  text: string;
  occurrence?: Occurrence;
  caseSensitive?: boolean;
  matchWholeWord?: boolean;
  offset?: { x: number; y: number };
  ifNotFound?: 'error' | 'ignore';
}

/** A field as written in a fields file: the contract's shape, `id` optional. */
export interface FieldSpec {
  id?: string;
  participantId: string;
  type: FieldType;
  pages?: number[];
  position?: { x: number; y: number };
  size?: { width: number; height: number };
  anchor?: AnchorSpec;
  properties?: Record<string, unknown>;
}

export interface SearchSpec {
  key?: string;
  text: string;
  occurrence?: Occurrence;
  caseSensitive?: boolean;
  matchWholeWord?: boolean;
  offset?: { x: number; y: number };
}

const characters = (text: string) => [...text].length;

/** Schema pieces shared by every input that places fields or searches anchors. */
export function schemaParts(z: Zod) {
  const point = z.strictObject({ x: z.number(), y: z.number() });
  const anchorOptions = {
    // JSON Schema counts characters as code points too.
    text: z
      .string()
      .refine((value) => characters(value) >= 1 && characters(value) <= ANCHOR_TEXT_MAX_LENGTH, {
        message: `anchor text must be 1 to ${ANCHOR_TEXT_MAX_LENGTH} characters`,
      })
      .meta({ minLength: 1, maxLength: ANCHOR_TEXT_MAX_LENGTH }),
    occurrence: z
      .union([z.literal('first'), z.literal('all'), z.int().min(1)], { error: 'occurrence must be "first", "all" or a number from 1' })
      .optional(),
    caseSensitive: z.boolean().optional(),
    matchWholeWord: z.boolean().optional(),
    offset: point.optional(),
  };
  return {
    point,
    size: z.strictObject({ width: z.number().positive(), height: z.number().positive() }),
    fieldType: z.enum(FIELD_TYPES),
    properties: z.record(z.string(), z.unknown()),
    anchor: z.strictObject({ ...anchorOptions, ifNotFound: z.enum(['error', 'ignore']).optional() }),
    search: z.strictObject({
      key: z
        .string()
        .refine((value) => characters(value) >= 1 && characters(value) <= ANCHOR_KEY_MAX_LENGTH, { message: `key must be 1 to ${ANCHOR_KEY_MAX_LENGTH} characters` })
        .meta({ minLength: 1, maxLength: ANCHOR_KEY_MAX_LENGTH })
        .optional(),
      ...anchorOptions,
    }),
  };
}

export interface PlacementIssue {
  path: InputPath;
  message: string;
}

/**
 * The contract's placement rules for one field: exactly one of (coordinates + position) or anchor, size always
 * (pins: esign also asks it of send-now position fields), no anchor on group types. `pagesKey` is `pages` in PUT
 * fields and `pageNumber` in send-now.
 */
export function placementIssues(
  field: { type: string; position?: unknown; size?: unknown; anchor?: unknown } & Record<string, unknown>,
  pagesKey: 'pages' | 'pageNumber',
): PlacementIssue[] {
  const hasPages = field[pagesKey] !== undefined;
  const hasPosition = field.position !== undefined;
  const hasAnchor = field.anchor !== undefined;
  const issues: PlacementIssue[] = [];
  if ((hasPages || hasPosition) && hasAnchor) {
    issues.push({ path: ['anchor'], message: `give either ${pagesKey} + position or anchor, not both` });
  } else if (!hasPages && !hasPosition && !hasAnchor) {
    issues.push({ path: [], message: `give ${pagesKey} + position, or anchor` });
  } else if (hasPages !== hasPosition) {
    issues.push(hasPages ? { path: [pagesKey], message: `${pagesKey} needs position {x, y} with it` } : { path: ['position'], message: `position needs ${pagesKey} with it` });
  }
  if (field.size === undefined) issues.push({ path: [], message: 'size {width, height} is required (PDF points)' });
  if (hasAnchor && TYPES_WITHOUT_ANCHOR.includes(field.type)) {
    issues.push({ path: ['anchor'], message: `${field.type} fields take ${pagesKey} + position, not an anchor` });
  }
  return issues;
}

/** placementIssues, as far as JSON Schema can say it (for `esign batch schema`): the same rules, without the messages. */
export function placementJsonSchema(pagesKey: 'pages' | 'pageNumber') {
  return {
    required: ['size'],
    oneOf: [
      { required: [pagesKey, 'position'], not: { required: ['anchor'] } },
      { required: ['anchor'], properties: { [pagesKey]: false, position: false } },
    ],
    if: { properties: { type: { enum: TYPES_WITHOUT_ANCHOR } }, required: ['type'] },
    then: { not: { required: ['anchor'] } },
  };
}

const fieldsSchemas = lazy((z) => {
  const parts = schemaParts(z);
  const field = z
    .strictObject({
      id: z.string().refine(isUuid, { message: 'id must be a UUID (or leave it out: esign derives a stable one)' }).optional(),
      participantId: z.string().min(1, { message: 'participantId is required' }),
      type: parts.fieldType,
      pages: z.array(z.int().min(1, { message: 'pages start at 1' })).min(1).optional(),
      position: parts.point.optional(),
      size: parts.size.optional(),
      anchor: parts.anchor.optional(),
      properties: parts.properties.optional(),
    })
    .superRefine((value, ctx) => {
      for (const issue of placementIssues(value, 'pages')) ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path] });
    })
    .meta(placementJsonSchema('pages'));
  const list = z.array(field) as zod.ZodType<FieldSpec[]>;
  return { list, wrapped: z.object({ fields: list }) as zod.ZodType<{ fields: FieldSpec[] }> };
});

const searchesSchemas = lazy((z) => {
  const list = z.array(schemaParts(z).search).min(1) as zod.ZodType<SearchSpec[]>;
  return { list, wrapped: z.object({ searches: list }) as zod.ZodType<{ searches: SearchSpec[] }> };
});

export interface FieldsFile {
  input: StructuredInput;
  fields: FieldSpec[];
  /** Where each field sits in the file, for messages. */
  pathOf(index: number): InputPath;
}

/** Whether the file wraps its list as `{<name>: [...]}` (true) or is the bare list (false). */
function wrapsList(input: StructuredInput, name: string, hint: string): boolean {
  const data = input.data;
  if (Array.isArray(data)) return false;
  if (typeof data === 'object' && data !== null && Array.isArray((data as Record<string, unknown>)[name])) return true;
  throw inputError(input, [], `expected a list of ${name}, or an object with a \`${name}\` list`, hint);
}

/** A fields file holds the `fields` array, alone or as `{fields: [...]}`. */
export async function readFieldsFile(path: string, stdin: NodeJS.ReadableStream): Promise<FieldsFile> {
  const input = await readStructuredFile(path, stdin);
  const wrapped = wrapsList(input, 'fields', 'See `esign fields put --help` for the shape.');
  const schemas = await fieldsSchemas();
  const hint = 'Each field: participantId, type, size, and either pages + position or anchor (see the contract).';
  const fields = wrapped ? validateInput(input, schemas.wrapped, hint).fields : validateInput(input, schemas.list, hint);
  const pathOf = (index: number): InputPath => (wrapped ? ['fields', index] : [index]);
  const seen = new Map<string, number>();
  fields.forEach((field, index) => {
    if (field.id === undefined) return;
    const earlier = seen.get(field.id);
    if (earlier !== undefined) throw inputError(input, [...pathOf(index), 'id'], `id ${field.id} is already used by the field at ${input.locate(pathOf(earlier))}`, 'Ids are unique in a document.');
    seen.set(field.id, index);
  });
  return { input, fields, pathOf };
}

/** The fields as the PUT body and the placement rules take them, each with its given or derived id. */
export function withIds(fields: readonly FieldSpec[], idFor: (index: number) => string): FieldInput[] {
  return fields.map((field, index) => ({ ...field, id: field.id ?? idFor(index) }) as FieldInput);
}

/** searches.yaml: a list of anchors:find search items, alone or as `{searches: [...]}`; keys default to the text. */
export async function readSearchesFile(path: string, stdin: NodeJS.ReadableStream): Promise<{ input: StructuredInput; searches: SearchSpec[] }> {
  const input = await readStructuredFile(path, stdin);
  const wrapped = wrapsList(input, 'searches', 'Each search: text, and optionally key, occurrence, caseSensitive, matchWholeWord, offset.');
  const schemas = await searchesSchemas();
  const searches = wrapped ? validateInput(input, schemas.wrapped).searches : validateInput(input, schemas.list);
  const seen = new Set<string>();
  searches.forEach((search, index) => {
    const key = search.key ?? search.text;
    if (seen.has(key)) {
      throw inputError(input, wrapped ? ['searches', index] : [index], `key ${JSON.stringify(key)} is used twice`, 'Give each search its own key (the key defaults to the text).');
    }
    seen.add(key);
  });
  return { input, searches };
}
