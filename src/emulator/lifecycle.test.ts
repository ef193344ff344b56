import { describe, expect, it } from 'vitest';
import { simplePdf } from '../../test/support/pdfs.js';
import { readPdfPages } from '../pdf/text.js';
import { Events, historyOf, type WebhookEventType } from './events.js';
import { addDocumentId, createEnvelopeRecord, finishParticipant, markSent, newParticipant, onDocumentsProcessed, serviceActor } from './lifecycle.js';
import type { LifecycleDeps } from './context.js';
import { defaultEmulatorOptions } from './options.js';
import { emptyState, newId, nowIso, Store } from './store.js';
import type { DocumentRecord, EnvelopeRecord } from './records.js';

function setup(): LifecycleDeps & { emitted: { type: WebhookEventType; data: Record<string, unknown> }[] } {
  const store = new Store(emptyState());
  const options = { ...defaultEmulatorOptions, keys: [] };
  const emitted: { type: WebhookEventType; data: Record<string, unknown> }[] = [];
  const events = new Events(store, options, (type, data) => emitted.push({ type, data }));
  return { store, options, events, emitted };
}

function withParticipants(deps: LifecycleDeps, orders: number[]): EnvelopeRecord {
  const envelope = createEnvelopeRecord(deps, { title: 'Orders' }, serviceActor);
  envelope.participants = orders.map((signingOrder, index) => newParticipant({ name: `P${index}`, email: `p${index}@example.test`, deliveryMethod: 'EMAIL', signingOrder }));
  return envelope;
}

async function addDocument(deps: LifecycleDeps, envelope: EnvelopeRecord, status: DocumentRecord['status'], bytes?: Uint8Array): Promise<DocumentRecord> {
  const document: DocumentRecord = {
    documentId: newId(),
    envelopeId: envelope.id,
    fileName: 'a.pdf',
    contentType: 'application/pdf',
    status,
    uploadExpiresAt: nowIso(),
    fields: [],
    createdAt: nowIso(),
    ...(status === 'FAILED' ? { failureReason: 'not a PDF' } : {}),
  };
  if (bytes) {
    const { pageCount, pages } = await readPdfPages(bytes);
    Object.assign(document, { pageCount, pages, byteLength: bytes.length });
    deps.store.blobs.set(document.documentId, Buffer.from(bytes));
  }
  deps.store.state.documents.set(document.documentId, document);
  addDocumentId(envelope, document.documentId);
  return document;
}

describe('signing order', () => {
  it('invites order by order, however the orders are numbered, and completes once', () => {
    const deps = setup();
    const envelope = withParticipants(deps, [5, 1, 9, 5]);
    markSent(deps, envelope, serviceActor);
    const invited = () => deps.store.state.outbox.filter((message) => message.kind === 'INVITATION').map((message) => message.participantId);
    const [p0, p1, p2, p3] = envelope.participants;
    expect(invited()).toEqual([p1!.id]);
    finishParticipant(deps, envelope, p1!, 'SIGNED', serviceActor);
    expect(invited()).toEqual([p1!.id, p0!.id, p3!.id]);
    finishParticipant(deps, envelope, p3!, 'SIGNED', serviceActor);
    expect(invited()).toEqual([p1!.id, p0!.id, p3!.id]);
    finishParticipant(deps, envelope, p0!, 'SIGNED', serviceActor);
    expect(invited()).toEqual([p1!.id, p0!.id, p3!.id, p2!.id]);
    finishParticipant(deps, envelope, p2!, 'SIGNED', serviceActor);
    expect(envelope.status).toBe('COMPLETED');
    expect(deps.emitted.map((event) => event.type)).toEqual(['ENVELOPE_SENT', 'ENVELOPE_COMPLETED']);
    expect(() => finishParticipant(deps, envelope, p2!, 'SIGNED', serviceActor)).toThrow(/COMPLETED/);
  });
});

describe('onDocumentsProcessed (send-now)', () => {
  it('a FAILED document voids the envelope without any message to participants', async () => {
    const deps = setup();
    const envelope = withParticipants(deps, [1]);
    envelope.sendWhenReady = true;
    await addDocument(deps, envelope, 'FAILED');
    await onDocumentsProcessed(deps, envelope.id);
    expect(envelope).toMatchObject({ status: 'VOIDED', cancellationReason: expect.stringMatching(/^DOCUMENT_FAILED: .*not a PDF/) });
    expect(deps.store.state.outbox).toEqual([]);
    expect(deps.emitted.map((event) => event.type)).toEqual(['ENVELOPE_VOIDED']);
  });

  it('waits while a document is still processing', async () => {
    const deps = setup();
    const envelope = withParticipants(deps, [1]);
    envelope.sendWhenReady = true;
    await addDocument(deps, envelope, 'PROCESSING');
    await onDocumentsProcessed(deps, envelope.id);
    expect(envelope.status).toBe('DRAFT');
    expect(deps.emitted).toEqual([]);
  });

  it('two calls at once resolve the anchors and send once (the second does not collide with the running search)', async () => {
    const deps = setup();
    const envelope = withParticipants(deps, [1]);
    const document = await addDocument(deps, envelope, 'READY', await simplePdf({ pages: [['Sign: {{sig}}']] }));
    envelope.sendWhenReady = true;
    envelope.pendingAnchors = [
      { id: newId(), documentId: document.documentId, participantId: envelope.participants[0]!.id, type: 'SIGNATURE', anchor: { text: '{{sig}}' }, size: { width: 100, height: 20 } },
    ];
    await Promise.all([onDocumentsProcessed(deps, envelope.id), onDocumentsProcessed(deps, envelope.id)]);
    expect(envelope.status).toBe('SENT');
    expect(document.fields).toHaveLength(1);
    expect(deps.emitted.map((event) => event.type)).toEqual(['ENVELOPE_SENT']);
    expect(deps.store.state.outbox.map((message) => message.kind)).toEqual(['INVITATION']);
  });
});

describe('history', () => {
  it('reads the creation entry as it was made, however the envelope changed since, with the same id each time', () => {
    const deps = setup();
    const envelope = createEnvelopeRecord(deps, { title: 'First title' }, serviceActor, { via: 'send-now' });
    const created = historyOf(envelope)[0]!;
    expect(created).toMatchObject({ at: envelope.createdAt, action: 'ENVELOPE_CREATED', actor: serviceActor, details: { title: 'First title', folderId: envelope.folderId, via: 'send-now' } });
    envelope.title = 'Second title';
    deps.events.history(envelope, 'SETTINGS_UPDATED', serviceActor, { changed: ['title'] });
    expect(historyOf(envelope).map((entry) => entry.action)).toEqual(['ENVELOPE_CREATED', 'SETTINGS_UPDATED']);
    expect(historyOf(envelope)[0]).toEqual(created);
    expect(historyOf(createEnvelopeRecord(deps, {}, serviceActor))[0]!.id).not.toBe(created.id);
  });

  it('reads a record of an older state file, which holds its creation entry, as it is', () => {
    const deps = setup();
    const envelope = createEnvelopeRecord(deps, { title: 'Old' }, serviceActor);
    const older: EnvelopeRecord = { ...envelope, createdBy: undefined, history: [historyOf(envelope)[0]!] };
    expect(historyOf(older)).toEqual(historyOf(envelope));
  });
});
