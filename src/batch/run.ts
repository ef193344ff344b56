/**
 * `batch run`: carries out each entry's plan with a few entries in flight on one client (one keep-alive pool),
 * journalling every completed step, so a run that was killed, interrupted or that lost its network continues where it
 * stopped (`--resume`) and never creates an envelope twice: a step done is never repeated, and a step whose answer was
 * lost is repeated with the same derived Idempotency-Key, which the service answers with the first result.
 */
import type { ApiClient, ApiResponse, RequestOptions } from '../api/client.js';
import { ApiError, EsignError, ExitCode, LocalFileError, UsageError, WaitError } from '../core/errors.js';
import type { Context } from '../cli/command.js';
import { interruption } from '../core/interrupt.js';
import { holdYoungGeneration } from '../core/young-generation.js';
import { fieldIdFor } from '../input/fields.js';
import { openLineLog, readLineLog, type LineLog } from '../files/atomic-file.js';
import { BatchProgress } from '../output/batch-progress.js';
import { redactor } from '../output/redact.js';
import { envelopeIdOf, participantIdOf, type DocumentBody, type EnvelopeBody, type ParticipantBody } from '../output/envelope-view.js';
import { listAllDocuments, readDocumentInfo, uploadAddressOf, uploadFile, waitForDocuments } from '../workflows/upload.js';
import { waitForEnvelope, warnOnOutage } from '../workflows/wait.js';
import { deadlineAfterCreation } from '../workflows/deadline.js';
import type { CheckedEntry } from './check.js';
import type { EntryPlan, Step } from './plan.js';
import { lockJournal } from './journal-lock.js';

export type WaitFor = 'sent' | 'completed';

export interface RunOptions {
  concurrency: number;
  journalPath: string;
  resume: boolean;
  failFast: boolean;
  wait?: WaitFor;
  waitTimeoutMs: number;
  confirmConversion: boolean;
  /** `--run-id`: recorded in the journal, so that `--resume` continues the same run. */
  runId?: string;
}

export interface EntryOutcome {
  ref: string;
  ok: boolean;
  envelopeId?: string;
  status?: string;
  participants: Record<string, string>;
  /** `status`: the service's HTTP status, when the service refused; `broken`: the exchange failed, not the envelope. */
  error?: { code: string; message: string; status?: number; broken?: true };
  durationMs: number;
  /** Nothing left to do: the journal already had every step. */
  resumed?: boolean;
  /** The envelope was created by an earlier run (of this journal, or answered again for the same Idempotency-Key). */
  earlierRun?: boolean;
}

interface DocumentState {
  documentId: string;
  uploadUrl?: string;
  status?: string;
}

/** What the journal knows of one entry: the ids the service gave and the steps done. */
interface EntryState {
  envelopeId?: string;
  /** When the service created the envelope: a relative deadline counts from it. */
  createdAt?: string;
  status?: string;
  participants: Record<string, string>;
  documents: Record<string, DocumentState>;
  done: Set<string>;
  /** Created before this run: by the run this journal records, or answered again for the same Idempotency-Key. */
  earlierRun?: boolean;
}

interface JournalRecord {
  ref: string;
  digest: string;
  step: string;
  envelopeId?: string;
  createdAt?: string;
  status?: string;
  participants?: Record<string, string>;
  document?: { ref: string } & DocumentState;
  documents?: Record<string, DocumentState>;
}

const JOURNAL_HEADER = { journal: 'esign batch', version: 1 };

/** An entry's error when the journal took no more records (a full disk): the run starts no other entry. */
const JOURNAL_UNWRITABLE = 'JOURNAL_UNWRITABLE';

/** The run id the journalled run was given (`--run-id`), which `--resume` continues with; none without a journal. */
export async function journalRunId(path: string): Promise<{ found: boolean; runId?: string }> {
  const header = (await readLineLog(path, { isLog: isJournalHeader, label: `--journal ${path}` }))?.[0] as { runId?: unknown } | undefined;
  if (!header) return { found: false };
  return typeof header.runId === 'string' ? { found: true, runId: header.runId } : { found: true };
}

function isJournalHeader(first: unknown): boolean {
  return typeof first === 'object' && first !== null && (first as { journal?: unknown }).journal === JOURNAL_HEADER.journal;
}

function createdAtOf(envelope: EnvelopeBody): { createdAt?: string } {
  return envelope.createdAt ? { createdAt: envelope.createdAt } : {};
}

function emptyState(): EntryState {
  return { participants: {}, documents: {}, done: new Set() };
}

function apply(state: EntryState, record: JournalRecord): void {
  state.done.add(record.step);
  if (record.envelopeId) state.envelopeId = record.envelopeId;
  if (record.createdAt) state.createdAt = record.createdAt;
  if (record.status) state.status = record.status;
  if (record.participants) Object.assign(state.participants, record.participants);
  if (record.document) {
    const { ref, ...document } = record.document;
    state.documents[ref] = { ...state.documents[ref], ...document };
  }
  if (record.documents) for (const [ref, document] of Object.entries(record.documents)) state.documents[ref] = { ...state.documents[ref], ...document };
}

/**
 * Reads the journal of an earlier run; a journal written for other specs of the same refs is refused. `repair` (for a
 * run that appends to it) rewrites it without a last line a crash cut short; a dry run only reads it.
 */
export async function loadJournal(path: string, plans: readonly EntryPlan[], repair: boolean): Promise<Map<string, EntryState>> {
  const states = new Map<string, EntryState>();
  const records = await readLineLog(path, { isLog: isJournalHeader, repair, label: `--journal ${path}` });
  if (!records) throw new UsageError(`--resume: no journal at ${path}.`, 'Run without --resume to start, or give the journal with --journal.', 'JOURNAL_MISSING');
  const digests = new Map(plans.map((plan) => [plan.ref, plan.digest]));
  for (const record of records.slice(1) as JournalRecord[]) {
    const expected = digests.get(record.ref);
    if (expected === undefined) continue;
    if (record.digest !== expected) {
      throw new UsageError(
        `The journal ${path} was written for a different spec of envelope ${record.ref}: the spec or its files changed since.`,
        'Restore the spec to resume, or move the journal away to run the changed spec (its Idempotency-Keys differ, so it creates new envelopes).',
        'JOURNAL_MISMATCH',
      );
    }
    const state = states.get(record.ref) ?? emptyState();
    apply(state, record);
    states.set(record.ref, state);
  }
  return states;
}

/** Shared by every worker: a Retry-After seen by one slows all of them, as the service's rate limit is shared. */
class Gate {
  private until = 0;
  hold(ms: number): void {
    this.until = Math.max(this.until, Date.now() + ms);
  }
  async pass(): Promise<void> {
    for (let wait = this.until - Date.now(); wait > 0; wait = this.until - Date.now()) await interruption.sleep(wait);
  }
}

/** Exits of an exchange that broke (no answer, unavailable, unreadable answer, a bug): JUnit errors, not failures. */
const BROKEN_EXITS = new Set<number>([ExitCode.network, ExitCode.unavailable, ExitCode.unexpected]);

function errorOf(error: unknown): NonNullable<EntryOutcome['error']> {
  const broken = !(error instanceof EsignError) || BROKEN_EXITS.has(error.exitCode) ? { broken: true as const } : {};
  if (error instanceof ApiError) return { code: error.code, message: error.message, status: error.status, ...broken };
  if (error instanceof EsignError) return { code: error.code, message: error.message, ...broken };
  return { code: 'UNEXPECTED', message: (error as Error)?.message ?? String(error), ...broken };
}

/** Runs one entry's steps from where its journal left off. */
class EntryRun {
  constructor(
    private readonly ctx: Context,
    private readonly client: ApiClient,
    private readonly gate: Gate,
    private readonly journal: LineLog,
    private readonly checked: CheckedEntry,
    private readonly plan: EntryPlan,
    private readonly state: EntryState,
    private readonly options: RunOptions,
    private readonly progress: BatchProgress,
  ) {}

  private async call<T>(step: Step, options: RequestOptions): Promise<ApiResponse<T>> {
    await this.gate.pass();
    try {
      return await this.client.call<T>(step.operationId!, {
        ...options,
        ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
        onRetry: (info) => {
          if (/Retry-After|^429/.test(info.reason)) this.gate.hold(info.delayMs);
          this.ctx.output.debug(`${this.plan.ref}: ${info.operationId} retrying in ${info.delayMs} ms (${info.reason})`);
        },
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
        // The key derives from the run id, the spec and its files; what else goes into the body is read at run time
        // (a template's role ids), or was put there by an esign that sent relative deadlines in the create request.
        error.hint = `The ${step.name} request of ${this.plan.ref} differs from the one an earlier run sent with the same key. ${this.options.runId === undefined ? 'Give this run an id of its own (--run-id <id>) to send a new envelope' : `Give a new run id (this one is ${this.options.runId}) to send a new envelope`}, or wait until the service forgets the key (24 hours).`;
      }
      throw error;
    }
  }

  /**
   * Journals a step the service has done; it counts as done only once its record is on disk. When the record cannot
   * be written, the entry fails saying so: the step happened, and a resume repeats it (with its Idempotency-Key, which
   * the service answers with the first result), as the journal does not hold it.
   */
  private async record(step: Step, result: Omit<JournalRecord, 'ref' | 'digest' | 'step'> = {}): Promise<void> {
    const record: JournalRecord = { ref: this.plan.ref, digest: this.plan.digest, step: step.name, ...result };
    try {
      // The service's answers go to disk masked, as they would to the terminal (an upload address may echo the key).
      await this.journal.append(redactor.maskStrings(record));
    } catch (error) {
      this.state.envelopeId ??= result.envelopeId;
      const envelope = this.state.envelopeId ? ` (envelope ${this.state.envelopeId})` : '';
      throw new LocalFileError(
        `${this.plan.ref}: the ${step.name} step was done at the service${envelope}, but not journalled: ${(error as Error).message} A resume repeats the step; the service answers it with the first result.`,
        JOURNAL_UNWRITABLE,
      );
    }
    apply(this.state, record);
  }

  private params(step: Step): Record<string, string> {
    const params: Record<string, string> = { ...step.params };
    if (params.envelopeId) params.envelopeId = this.state.envelopeId!;
    if (step.documentRef && params.documentId) params.documentId = this.state.documents[step.documentRef]!.documentId;
    return params;
  }

  /** The service answered a request an earlier run made with this key: the envelope comes from that run. */
  private replayed(response: ApiResponse<unknown>): boolean {
    const replayed = response.headers['idempotent-replayed'] === 'true';
    if (replayed) this.state.earlierRun = true;
    return replayed;
  }

  private earlierRunText(): string {
    return this.options.runId === undefined ? 'created by an earlier run of the same spec' : `created by an earlier run with run id ${this.options.runId}`;
  }

  /** An answer replayed for a lost or repeated request is the first answer: read what is true now. */
  private async currentStatus(): Promise<string | undefined> {
    const { body } = await this.client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId: this.state.envelopeId! } });
    return body.status ?? undefined;
  }

  async run(): Promise<void> {
    for (const step of this.plan.steps) {
      interruption.throwIfInterrupted();
      if (this.state.done.has(step.name)) continue;
      // Once the envelope left DRAFT (a re-run found it sent), nothing of the draft steps applies any more.
      if (this.state.status && this.state.status !== 'DRAFT' && step.kind !== 'template-roles') continue;
      this.progress.step(this.plan.ref, step.name);
      await this.step(step);
    }
    if (!this.state.envelopeId) return;
    const waits = this.options.wait && (this.plan.send || this.plan.via === 'send-now');
    this.progress.step(this.plan.ref, waits ? `waiting until ${this.options.wait}` : 'reading its status');
    const envelope = waits
      ? await waitForEnvelope(this.client, this.state.envelopeId, {
          until: this.options.wait === 'completed' ? 'COMPLETED' : 'SENT',
          timeoutMs: this.options.waitTimeoutMs,
          onOutage: warnOnOutage(this.ctx.output, `envelope ${this.state.envelopeId} (${this.plan.ref})`),
        }).catch((error: unknown) => {
          // The summary's status is the one the wait ended on (DECLINED, VOIDED), not the last one journalled.
          const seen = error instanceof WaitError ? (error.details as { status?: unknown } | undefined)?.status : undefined;
          if (typeof seen === 'string') this.state.status = seen;
          throw error;
        })
      : (await this.client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId: this.state.envelopeId } })).body;
    this.state.status = envelope.status ?? this.state.status;
    this.mapParticipants(envelope.participants ?? []);
  }

  /** Participant refs to the ids the service gave, matched by e-mail and name (else by position). */
  private mapParticipants(answered: readonly ParticipantBody[]): void {
    const spec: { ref: string; email: string; name: string }[] =
      this.checked.kind === 'envelope' ? this.checked.loaded.spec.participants : this.checked.template.participants.map((participant, index) => ({ ...participant, ref: participant.templateRole ?? `participant-${index + 1}` }));
    spec.forEach((participant, index) => {
      const match = answered.find((candidate) => candidate.email === participant.email && candidate.name === participant.name) ?? answered[index];
      if (match) this.state.participants[participant.ref] = participantIdOf(match);
    });
  }

  private templateSlots = new Map<string, string>();

  private async step(step: Step): Promise<void> {
    const { plan, state } = this;
    switch (step.kind) {
      case 'template-roles': {
        const { body } = await this.call<{ participants?: { templateParticipantId?: string; id?: string; role?: string; label?: string; name?: string }[] }>(step, { params: step.params! });
        for (const slot of body.participants ?? []) {
          const label = slot.label ?? slot.name ?? slot.role;
          const id = slot.templateParticipantId ?? slot.id;
          if (label && id) this.templateSlots.set(label.toLowerCase(), id);
        }
        return;
      }
      case 'template': {
        const body = step.body as { participants: { templateRole?: string; templateParticipantId?: string }[] };
        const participants = body.participants.map(({ templateRole, ...participant }) => {
          if (templateRole === undefined) return participant;
          const slotId = this.templateSlots.get(templateRole.toLowerCase());
          if (!slotId) throw new UsageError(`${plan.ref}: the template has no role ${JSON.stringify(templateRole)}.`, `Roles: ${[...this.templateSlots.keys()].join(', ') || 'none'}.`, 'TEMPLATE_ROLE_UNKNOWN');
          return { templateParticipantId: slotId, ...participant };
        });
        const response = await this.call<EnvelopeBody>(step, { params: step.params!, body: { ...body, participants } });
        const sends = (body as { send?: boolean }).send === true;
        let status = response.body.status ?? (sends ? 'SENT' : 'DRAFT');
        const replayed = this.replayed(response);
        if (replayed) {
          state.envelopeId = envelopeIdOf(response.body);
          status = (await this.currentStatus()) ?? status;
        }
        await this.record(step, { envelopeId: envelopeIdOf(response.body), status, ...createdAtOf(response.body) });
        this.progress.log(`${plan.ref}: envelope ${state.envelopeId} ${replayed ? `found (${status}), ${this.earlierRunText()}` : `created from the template${sends ? ' and sent' : ''}`}`);
        return;
      }
      case 'create': {
        const response = await this.call<EnvelopeBody>(step, { body: step.body });
        const envelopeId = envelopeIdOf(response.body);
        let status = response.body.status ?? 'DRAFT';
        const replayed = this.replayed(response);
        if (replayed) {
          state.envelopeId = envelopeId;
          status = (await this.currentStatus()) ?? status;
        }
        await this.record(step, { envelopeId, status, ...createdAtOf(response.body) });
        this.progress.log(`${plan.ref}: envelope ${envelopeId} ${replayed ? `found (${status}), ${this.earlierRunText()}` : 'created'}`);
        return;
      }
      case 'deadline': {
        const createdAt = state.createdAt ?? (await this.client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId: state.envelopeId! } })).body.createdAt;
        await this.call(step, { params: this.params(step), body: { deadline: deadlineAfterCreation(createdAt, step.deadlineAfterMs!) } });
        await this.record(step);
        return;
      }
      case 'participants': {
        const { body } = await this.call<{ participants?: ParticipantBody[] }>(step, { params: this.params(step), body: step.body });
        this.mapParticipants(body.participants ?? []);
        await this.record(step, { participants: this.state.participants });
        return;
      }
      case 'register': {
        const response = await this.call<DocumentBody>(step, { params: this.params(step), body: step.body });
        const info = readDocumentInfo(response.body);
        const address = uploadAddressOf(response.body);
        // A replayed answer says AWAITING_UPLOAD as it did then: an earlier run may have uploaded the bytes since.
        const status = this.replayed(response) ? ((await listAllDocuments(this.client, state.envelopeId!)).find((document) => document.documentId === info.documentId)?.status ?? info.status) : info.status;
        await this.record(step, { document: { ref: step.documentRef!, documentId: info.documentId, status, ...(address ? { uploadUrl: address } : {}) } });
        return;
      }
      case 'upload':
        return this.upload(step);
      case 'wait-documents': {
        const documents = plan.files.map((file) => ({ documentId: state.documents[file.ref]!.documentId, fileName: file.fileName }));
        await waitForDocuments(this.ctx, this.client, state.envelopeId!, documents, { timeoutMs: this.options.waitTimeoutMs, confirmConversion: this.options.confirmConversion });
        await this.record(step);
        return;
      }
      case 'fields': {
        const params = this.params(step);
        const fields = (step.body as { fields: { participantId: string }[] }).fields.map((field, index) => ({
          ...field,
          id: fieldIdFor(params.envelopeId!, params.documentId!, index),
          participantId: state.participants[field.participantId.replace(/^\{participant:(.*)\}$/, '$1')] ?? field.participantId,
        }));
        await this.call(step, { params, body: { fields } });
        await this.record(step);
        return;
      }
      case 'send': {
        const { body } = await this.call<EnvelopeBody>(step, { params: this.params(step), body: {} });
        await this.record(step, { status: body.status ?? 'SENT' });
        this.progress.log(`${plan.ref}: envelope ${state.envelopeId} sent`);
        return;
      }
      case 'send-now': {
        const response = await this.call<Record<string, unknown>>(step, { body: step.body });
        const envelopeId = envelopeIdOf(response.body as EnvelopeBody);
        const listed = (Array.isArray(response.body.documents) ? response.body.documents : []) as Record<string, unknown>[];
        const documents: Record<string, DocumentState> = {};
        for (const [index, file] of plan.files.entries()) {
          const raw = listed.find((entry) => entry.ref === file.ref) ?? listed.find((entry) => entry.fileName === file.fileName) ?? listed[index];
          const info = readDocumentInfo(raw);
          const address = uploadAddressOf(raw);
          documents[file.ref] = { documentId: info.documentId, status: info.status, ...(address ? { uploadUrl: address } : {}) };
        }
        const replayed = this.replayed(response);
        if (replayed) {
          // The replayed answer lists the documents as they were then: ask which still wait for their bytes.
          const now = new Map((await listAllDocuments(this.client, envelopeId)).map((document) => [document.documentId, document.status]));
          for (const document of Object.values(documents)) document.status = now.get(document.documentId) ?? document.status;
        }
        await this.record(step, { envelopeId, status: 'DRAFT', documents, ...createdAtOf(response.body as EnvelopeBody) });
        this.progress.log(`${plan.ref}: envelope ${envelopeId} ${replayed ? `found, ${this.earlierRunText()}` : 'created (send-now)'}`);
        return;
      }
    }
  }

  private async upload(step: Step): Promise<void> {
    const document = this.state.documents[step.documentRef!];
    // The document as its offline check opened it: the upload reads the bytes that were checked and hashed.
    const file = this.checked.kind === 'envelope' ? this.checked.loaded.files.find((candidate) => candidate.ref === step.documentRef) : undefined;
    if (!file) throw new Error(`no document ${step.documentRef} in ${this.plan.ref}`);
    if (!document) throw new Error(`no registered document for ${step.documentRef}`);
    if (document.status && document.status !== 'AWAITING_UPLOAD') {
      await this.record(step);
      return;
    }
    if (!document.uploadUrl) {
      throw new UsageError(
        `${this.plan.ref}: document ${file.fileName} (${document.documentId}) still waits for its bytes, and its upload address is no longer known.`,
        `The contract has no way to get a new address for it: delete the draft (esign envelopes delete ${this.state.envelopeId}) and run the batch again without --resume.`,
        'UPLOAD_ADDRESS_LOST',
      );
    }
    try {
      await uploadFile(this.ctx, this.client, document.uploadUrl, file);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        error.hint = `The upload address of ${file.fileName} expired. The contract has no way to get a new one: delete the draft (esign envelopes delete ${this.state.envelopeId}) and run the batch again.`;
      }
      throw error;
    }
    await this.record(step, { document: { ref: file.ref, documentId: document.documentId, status: 'PROCESSING' } });
    this.progress.log(`${this.plan.ref}: uploaded ${file.fileName}`);
  }
}

/**
 * Holds V8's young generation from the start of a run (src/core/young-generation.ts), not from its first entry:
 * reading and checking 500 entries had already grown it to twice what 50 did (16 MiB against 8), before anything was
 * sent, and the run's peak memory with it. V8 takes no code cache once a flag changes, so what a run compiles with
 * one is loaded first: the input packages (yaml, zod) and the PDF engine, which a batch of templates alone then loads
 * for nothing (some 25 ms).
 */
export async function holdMemoryForTheRun(): Promise<void> {
  const { loadPdfjs } = await import('../pdf/pdfjs.js');
  await Promise.all([import('zod'), import('yaml'), loadPdfjs()]);
  holdYoungGeneration();
}

/**
 * Runs the entries, `concurrency` at a time, and answers one outcome per entry. A failed entry does not stop the
 * others unless `failFast`; an interrupt stops starting new ones and lets the journal say where each one is.
 */
export async function runBatch(ctx: Context, client: ApiClient, items: readonly { checked: CheckedEntry; plan: EntryPlan }[], options: RunOptions): Promise<EntryOutcome[]> {
  const release = await lockJournal(options.journalPath);
  try {
    return await runLocked(ctx, client, items, options);
  } finally {
    await release();
  }
}

async function runLocked(ctx: Context, client: ApiClient, items: readonly { checked: CheckedEntry; plan: EntryPlan }[], options: RunOptions): Promise<EntryOutcome[]> {
  const states = options.resume ? await loadJournal(options.journalPath, items.map((item) => item.plan), true) : new Map<string, EntryState>();
  const journal = await openLineLog(options.journalPath, { fresh: !options.resume, label: `--journal ${options.journalPath}` });
  if (!options.resume) await journal.append({ ...JOURNAL_HEADER, startedAt: new Date().toISOString(), ...(options.runId === undefined ? {} : { runId: options.runId }) });
  const gate = new Gate();
  const quietCtx: Context = { ...ctx, output: ctx.output.withoutProgress() };
  const outcomes: EntryOutcome[] = new Array(items.length);
  let next = 0;
  let stop = false;
  let journalFull = false;
  const progress = new BatchProgress(ctx.output, items.length);

  const worker = async () => {
    while (!stop && next < items.length && !interruption.signal.aborted) {
      const index = next++;
      const { checked, plan } = items[index]!;
      const state = states.get(plan.ref) ?? emptyState();
      const started = Date.now();
      progress.start(plan.ref);
      const alreadyDone = plan.steps.every((step) => state.done.has(step.name));
      if (state.envelopeId) state.earlierRun = true;
      try {
        await new EntryRun(quietCtx, client, gate, journal, checked, plan, state, options, progress).run();
        outcomes[index] = { ref: plan.ref, ok: true, ...(state.envelopeId ? { envelopeId: state.envelopeId } : {}), ...(state.status ? { status: state.status } : {}), participants: state.participants, durationMs: Date.now() - started, ...(alreadyDone ? { resumed: true } : {}), ...(state.earlierRun ? { earlierRun: true } : {}) };
      } catch (error) {
        if (interruption.signal.aborted) {
          outcomes[index] = { ref: plan.ref, ok: false, ...(state.envelopeId ? { envelopeId: state.envelopeId } : {}), participants: state.participants, error: { code: 'INTERRUPTED', message: 'stopped before it finished' }, durationMs: Date.now() - started };
        } else {
          outcomes[index] = { ref: plan.ref, ok: false, ...(state.envelopeId ? { envelopeId: state.envelopeId } : {}), ...(state.status ? { status: state.status } : {}), participants: state.participants, error: errorOf(error), durationMs: Date.now() - started };
          // Not logged here: the summary gives one line per envelope that failed.
          // A refused key (401) fails every envelope alike: stop starting them rather than send one refused request each.
          if (options.failFast || (error instanceof ApiError && error.status === 401)) stop = true;
          // Steps the journal cannot hold would be done without a record of them: none is started any more.
          if (error instanceof LocalFileError && error.code === JOURNAL_UNWRITABLE) journalFull = stop = true;
        }
      } finally {
        progress.finish(plan.ref, outcomes[index]?.ok === true);
        holdYoungGeneration();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, worker));
  } finally {
    progress.end();
    await journal.close();
  }
  const notStartedBecause = () => {
    if (interruption.signal.aborted) return `not started: ${interruption.received ?? 'a signal'} stopped the run`;
    if (journalFull) return `not started: the journal ${options.journalPath} takes no more records`;
    return options.failFast ? 'not started: --fail-fast stopped the run' : 'not started: the run stopped';
  };
  return items.map((item, index) => outcomes[index] ?? { ref: item.plan.ref, ok: false, participants: {}, error: { code: 'NOT_STARTED', message: notStartedBecause() }, durationMs: 0 });
}
