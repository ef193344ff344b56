/**
 * Everything about a batch that needs no key and no network: each entry's spec against the one envelope-spec schema
 * (plus the batch keys), its files, the contract's field rules, a SIGNATURE field for every signer, and for PDFs the
 * offline anchor preflight the service would run. All problems of all entries are reported together.
 */
import type { z as zod } from 'zod';
import { holdYoungGeneration } from '../core/young-generation.js';
import { parseSpecDeadline, type SpecDeadline } from '../input/duration.js';
import { participantSchemas, type TemplateParticipantInput } from '../input/participants.js';
import { idSchema } from '../input/ids.js';
import { validateInput, type StructuredInput } from '../input/structured.js';
import type { Finding } from '../workflows/preflight.js';
import { preflightEnvelopeSpec } from '../workflows/send-now.js';
import { BatchInvalidError, problemsOf, ROUTES, type BatchEntry, type BatchProblem } from './entry.js';
import { assertSendNowAnchorLimit, deadlineSchema, envelopeSpecShape, loadEnvelopeSpec, type EnvelopeSpec, type LoadedEnvelopeSpec } from '../workflows/envelope-spec.js';

export interface TemplateSpec {
  templateId: string;
  title?: string;
  message?: string;
  deadline?: string;
  folderId?: string;
  participants: TemplateParticipantInput[];
}

export type CheckedEntry =
  | { entry: BatchEntry; kind: 'envelope'; loaded: LoadedEnvelopeSpec; warnings: Finding[] }
  | { entry: BatchEntry; kind: 'template'; template: TemplateSpec; input: StructuredInput; deadline?: SpecDeadline };

/** The keys batch mode adds to an envelope spec; `each` is gone once rows are expanded. */
function batchKeys(z: typeof import('zod').z) {
  return { ref: z.string().optional(), via: z.enum(ROUTES).optional(), send: z.boolean().optional(), each: z.string().optional() };
}

/** One schema for send-now and batch: the envelope spec's own, plus the batch keys. */
export async function batchEnvelopeSchema(): Promise<zod.ZodType<EnvelopeSpec>> {
  const { z } = await import('zod');
  return z.strictObject({ ...envelopeSpecShape(z), ...batchKeys(z) }) as unknown as zod.ZodType<EnvelopeSpec>;
}

async function templateEntrySchema() {
  const { z, templateParticipant } = await participantSchemas();
  return z.strictObject({
    ...batchKeys(z),
    templateId: idSchema(z, 'templateId is required with via: template'),
    title: z.string().trim().min(1).optional(),
    message: z.string().optional(),
    deadline: deadlineSchema(z).optional(),
    folderId: idSchema(z).optional(),
    participants: z.array(templateParticipant).min(1, 'at least one participant is needed'),
  });
}

/**
 * A string holding `${{ row.x }}` or `${{ env.X }}` is checked once expanded (src/batch/entries.ts), so in the JSON
 * Schema every `pattern` (an e-mail address, an E.164 number...) also lets such a string through.
 */
function excuseExpressions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(excuseExpressions);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === 'pattern' && typeof value === 'string' ? `(?:${value})|\\$\\{\\{` : excuseExpressions(value)]),
  );
}

/** The JSON Schema of a batch file, generated from the same zod schemas (`esign batch schema`). */
export async function batchJsonSchema(): Promise<Record<string, unknown>> {
  const { z } = await import('zod');
  const envelope = z.strictObject({ ...envelopeSpecShape(z), ...batchKeys(z) });
  const template = await templateEntrySchema();
  const entry = z.union([envelope, template.extend({ via: z.literal('template') })]);
  // In a batch file any key may come from defaults (documents, via: template, templateId...): there, an envelope and
  // the defaults are each part of an entry, whose whole is checked once merged.
  const part = z.union([envelope.partial(), template.partial()]);
  // Merged, an entry needs a title unless it is made from a template: given by the defaults, or else by each entry.
  const titled = { anyOf: [{ required: ['title'] }, { required: ['via'], properties: { via: { const: 'template' } } }] };
  const file = z
    .strictObject({
      version: z.literal(1),
      defaults: part.optional(),
      envelopes: z.array(part).min(1),
    })
    .meta({ if: { required: ['defaults'], properties: { defaults: titled } }, else: { properties: { envelopes: { items: titled } } } });
  const schema = excuseExpressions(z.toJSONSchema(z.union([file, entry]), { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
  return { ...schema, $id: 'https://esign.invalid/schemas/batch-v1.json', title: 'esign batch file (version 1) or envelope spec' };
}

/**
 * An entry's envelope spec without the keys only a batch has: what `esign envelopes send-now` reads from a file of its
 * own, so that both derive the same Idempotency-Key from the same envelope and each finds what the other created.
 */
function withoutBatchKeys(loaded: LoadedEnvelopeSpec): LoadedEnvelopeSpec {
  const { ref: _ref, via: _via, send: _send, ...spec } = loaded.spec as EnvelopeSpec & Partial<Record<'ref' | 'via' | 'send', unknown>>;
  return { ...loaded, spec };
}

async function checkEntry(entry: BatchEntry, schemas: { envelope: zod.ZodType<EnvelopeSpec> }, nowMs: number): Promise<{ checked?: CheckedEntry; problems: BatchProblem[] }> {
  const rowNote = (problem: BatchProblem): BatchProblem => (entry.row ? { ...problem, message: `${problem.message} (row ${entry.row})` } : problem);
  try {
    if (entry.via === 'template') {
      const parsed = validateInput(entry.input, await templateEntrySchema(), 'A template entry has templateId and participants (templateRole or templateParticipantId, name, email).');
      const { ref: _ref, via: _via, send: _send, each: _each, ...template } = parsed;
      let deadline: SpecDeadline | undefined;
      if (template.deadline !== undefined) {
        try {
          deadline = parseSpecDeadline(template.deadline, nowMs);
        } catch (error) {
          return { problems: [rowNote({ where: entry.input.locate(['deadline']), message: (error as Error).message })] };
        }
      }
      return { checked: { entry, kind: 'template', template: template as TemplateSpec, input: entry.input, ...(deadline ? { deadline } : {}) }, problems: [] };
    }
    const loaded = withoutBatchKeys(await loadEnvelopeSpec(entry.input, schemas.envelope, entry.base, nowMs));
    if (entry.via === 'send-now') assertSendNowAnchorLimit(loaded, 'Use via: flow for this envelope: a draft takes any number of anchored fields.');
    const preflight = await preflightEnvelopeSpec(loaded);
    // The service sends an envelope whose signer has nothing to sign; in a batch that is always a mistake.
    const unsigned = preflight.warnings.filter((warning) => warning.code === 'SIGNER_WITHOUT_SIGNATURE');
    const problems = [...preflight.problems, ...unsigned].map((finding) => rowNote({ where: finding.where ?? entry.input.locate([]), message: `${finding.code}: ${finding.message}` }));
    if (problems.length) return { problems };
    const warnings = preflight.warnings.filter((warning) => warning.code !== 'SIGNER_WITHOUT_SIGNATURE');
    return { checked: { entry, kind: 'envelope', loaded, warnings }, problems: [] };
  } catch (error) {
    return { problems: problemsOf(error).map(rowNote) };
  }
}

/** Checks every entry; throws one BatchInvalidError listing every problem, or answers the entries ready to plan. */
export async function checkBatch(entries: readonly BatchEntry[], nowMs: number = Date.now()): Promise<CheckedEntry[]> {
  const schemas = { envelope: await batchEnvelopeSchema() };
  const checked: CheckedEntry[] = [];
  const problems: BatchProblem[] = [];
  for (const entry of entries) {
    const result = await checkEntry(entry, schemas, nowMs);
    problems.push(...result.problems);
    if (result.checked) checked.push(result.checked);
    holdYoungGeneration();
  }
  if (problems.length) throw new BatchInvalidError(problems);
  return checked;
}
