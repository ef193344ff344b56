/**
 * What a batch entry sends, step by step, as data: `batch plan` prints it and `batch run` carries it out. Every POST's
 * Idempotency-Key is derived from the run id (when given), the entry's content (the expanded spec, each file's
 * SHA-256) and the step, so a re-run of the same batch with the same run id, within the service's replay window, gets
 * the same envelopes back instead of new ones; a relative deadline is set after creation (workflows/deadline.ts), so
 * that no request carries a time that depends on when or where it runs.
 */
import { createHash } from 'node:crypto';
import { getOperation } from '../api/operations.js';
import { sendNowBody } from '../workflows/envelope-spec.js';
import { canonicalJson, envelopeSpecIdempotencyKey } from '../workflows/spec-key.js';
import { uuidV5 } from '../shared/uuid.js';
import { terminalJson, visible } from '../output/sanitize.js';
import { formatDuration } from '../input/duration.js';
import type { CheckedEntry } from './check.js';

/** Namespace of batch Idempotency-Keys (UUID v5 of `[<run id>:]<content digest>:<step>`). */
export const BATCH_KEY_NAMESPACE = '0b7d4b9e-6a0c-4f2e-9d3b-2f1f4c5a7e61';

export interface PlannedFile {
  ref: string;
  path: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}

export type StepKind = 'template-roles' | 'create' | 'deadline' | 'participants' | 'register' | 'upload' | 'wait-documents' | 'fields' | 'send' | 'send-now' | 'template';

export interface Step {
  /** Unique within the entry: the journal records steps by name (`register:contract`). */
  name: string;
  kind: StepKind;
  operationId?: string;
  params?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
  documentRef?: string;
  /** `deadline` steps: the deadline is this long after the envelope's `createdAt`. */
  deadlineAfterMs?: number;
}

export interface EntryPlan {
  ref: string;
  via: CheckedEntry['entry']['via'];
  send: boolean;
  /** SHA-256 of the canonical spec and its files' digests: what the keys derive from. */
  digest: string;
  files: PlannedFile[];
  steps: Step[];
}

/** Placeholders for values only the service gives, shown in plans (`{envelopeId}`, `{participant:ada}`). */
export const placeholder = {
  participant: (ref: string) => `{participant:${ref}}`,
  document: (ref: string) => `{document:${ref}}`,
};

/** The settings PATCH that sets a relative deadline, once the service has said when it created the envelope. */
function deadlineStep(afterMs: number, written: string | undefined): Step {
  return {
    name: 'deadline',
    kind: 'deadline',
    operationId: 'updateEnvelopeSettings',
    params: { envelopeId: '{envelopeId}' },
    body: { deadline: `{createdAt + ${written?.trim() ?? formatDuration(afterMs)}}` },
    deadlineAfterMs: afterMs,
  };
}

/** `runId`: `--run-id`; the same run id gives the same keys, hence the same envelopes; without one, the content alone. */
export async function planEntry(checked: CheckedEntry, runId?: string): Promise<EntryPlan> {
  const { entry } = checked;
  const files: PlannedFile[] = [];
  if (checked.kind === 'envelope') {
    for (const file of checked.loaded.files) files.push({ ref: file.ref, path: file.file.path, fileName: file.fileName, contentType: file.contentType, size: file.file.size, sha256: await file.file.sha256() });
  }
  const digest = createHash('sha256')
    .update(canonicalJson({ ref: entry.ref, via: entry.via, send: entry.send, spec: entry.input.data, files: files.map((file) => [file.ref, file.sha256]) }))
    .digest('hex');
  const keyFor = (step: string) => uuidV5(`${runId === undefined ? '' : `${runId}:`}${digest}:${step}`, BATCH_KEY_NAMESPACE);
  const steps: Step[] = [];
  const post = (step: Omit<Step, 'idempotencyKey'>): Step => (getOperation(step.operationId!).method === 'POST' ? { ...step, idempotencyKey: keyFor(step.name) } : step);

  if (checked.kind === 'template') {
    const { template } = checked;
    if (template.participants.some((participant) => participant.templateRole !== undefined)) {
      steps.push({ name: 'template-roles', kind: 'template-roles', operationId: 'getTemplate', params: { templateId: template.templateId } });
    }
    const { templateId, deadline: written, ...settings } = template;
    const { deadline } = checked;
    const relative = deadline && 'afterMs' in deadline ? deadline.afterMs : undefined;
    // With a relative deadline the envelope is created as a draft, given its deadline, then sent: never sent without it.
    const body = { ...settings, ...(deadline && 'at' in deadline ? { deadline: deadline.at } : {}), send: entry.send && relative === undefined };
    steps.push(post({ name: 'template', kind: 'template', operationId: 'createEnvelopeFromTemplate', params: { templateId }, body }));
    if (relative !== undefined) {
      steps.push(deadlineStep(relative, written));
      if (entry.send) steps.push(post({ name: 'send', kind: 'send', operationId: 'sendEnvelope', params: { envelopeId: '{envelopeId}' }, body: {} }));
    }
    return { ref: entry.ref, via: entry.via, send: entry.send, digest, files, steps };
  }

  const { loaded } = checked;
  if (entry.via === 'send-now') {
    // The key `esign envelopes send-now` derives for the same spec: either command finds what the other created.
    steps.push({ name: 'send-now', kind: 'send-now', operationId: 'sendNow', body: sendNowBody(loaded), idempotencyKey: await envelopeSpecIdempotencyKey(loaded, runId) });
    // Before the uploads: the service sends the envelope once its documents are processed.
    if (loaded.deadline && 'afterMs' in loaded.deadline) steps.push(deadlineStep(loaded.deadline.afterMs, loaded.spec.deadline));
    for (const file of files) steps.push({ name: `upload:${file.ref}`, kind: 'upload', documentRef: file.ref });
    return { ref: entry.ref, via: entry.via, send: entry.send, digest, files, steps };
  }

  const { spec } = loaded;
  steps.push(
    post({
      name: 'create',
      kind: 'create',
      operationId: 'createEnvelope',
      body: {
        title: spec.title,
        ...(spec.message === undefined ? {} : { message: spec.message }),
        ...(loaded.deadline && 'at' in loaded.deadline ? { deadline: loaded.deadline.at } : {}),
        ...(spec.folderId ? { folderId: spec.folderId } : {}),
      },
    }),
  );
  if (loaded.deadline && 'afterMs' in loaded.deadline) steps.push(deadlineStep(loaded.deadline.afterMs, spec.deadline));
  steps.push({
    name: 'participants',
    kind: 'participants',
    operationId: 'syncParticipants',
    params: { envelopeId: '{envelopeId}' },
    body: { participants: spec.participants.map(({ ref: _ref, ...participant }) => participant) },
  });
  for (const file of files) {
    steps.push(post({ name: `register:${file.ref}`, kind: 'register', operationId: 'registerDocument', params: { envelopeId: '{envelopeId}' }, body: { fileName: file.fileName, contentType: file.contentType }, documentRef: file.ref }));
    steps.push({ name: `upload:${file.ref}`, kind: 'upload', documentRef: file.ref });
  }
  steps.push({ name: 'wait-documents', kind: 'wait-documents' });
  for (const file of files) {
    const fields = spec.fields.filter((field) => field.documentRef === file.ref);
    if (fields.length === 0) continue;
    steps.push({
      name: `fields:${file.ref}`,
      kind: 'fields',
      operationId: 'putFields',
      params: { envelopeId: '{envelopeId}', documentId: placeholder.document(file.ref) },
      body: {
        fields: fields.map(({ documentRef: _documentRef, participantRef, pageNumber, ...field }) => ({
          ...field,
          participantId: placeholder.participant(participantRef),
          ...(pageNumber === undefined ? {} : { pages: [pageNumber] }),
        })),
      },
      documentRef: file.ref,
    });
  }
  if (entry.send) steps.push(post({ name: 'send', kind: 'send', operationId: 'sendEnvelope', params: { envelopeId: '{envelopeId}' }, body: {} }));
  return { ref: entry.ref, via: entry.via, send: entry.send, digest, files, steps };
}

/** A step as `batch plan` shows it: method, path template, body (file contents summarised), key. */
export function describeStep(step: Step, plan: EntryPlan): Record<string, unknown> {
  if (step.kind === 'upload') {
    const file = plan.files.find((candidate) => candidate.ref === step.documentRef)!;
    return { step: step.name, method: 'PUT', path: `{uploadUrl of ${file.ref}}`, body: `<${file.size} bytes of ${file.path}, sha256 ${file.sha256}>` };
  }
  if (step.kind === 'wait-documents') return { step: step.name, method: 'GET', path: getOperation('listDocuments').path, body: null, note: 'until every document is READY' };
  const operation = getOperation(step.operationId!);
  const path = operation.path.replace(/\{(\w+)\}/g, (whole, name: string) => step.params?.[name] ?? whole);
  return { step: step.name, method: operation.method, path, body: step.body ?? null, ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}) };
}

/** What `batch plan` (and `batch run --dry-run`) shows of an entry: its requests, less the steps in `done`. */
export interface PlanView {
  ref: string;
  via: string;
  send: boolean;
  requests: Record<string, unknown>[];
}

export function planView(plan: EntryPlan, done: ReadonlySet<string> = new Set()): PlanView {
  return { ref: plan.ref, via: plan.via, send: plan.send, requests: plan.steps.filter((step) => !done.has(step.name)).map((step) => describeStep(step, plan)) };
}

/** Plans for a terminal: spec text (titles, file names, paths) is shown with its control characters made visible. */
export function planText(plans: readonly PlanView[], bold: (text: string) => string): string {
  return plans
    .map((plan) =>
      [
        bold(visible(`${plan.ref} (via ${plan.via}${plan.send ? '' : ', left as a draft'})`)),
        ...(plan.requests.length ? [] : ['  nothing left to send']),
        ...plan.requests.map((request, index) => {
          const key = request.idempotencyKey ? `  Idempotency-Key: ${String(request.idempotencyKey)}` : '';
          const note = request.note ? `  (${String(request.note)})` : '';
          const body = request.body === null || request.body === undefined ? '' : `\n      ${typeof request.body === 'string' ? visible(request.body) : terminalJson(request.body)}`;
          return `  ${index + 1}. ${visible(`${String(request.method)} ${String(request.path)}${key}${note}`)}${body}`;
        }),
      ].join('\n'),
    )
    .join('\n\n');
}
