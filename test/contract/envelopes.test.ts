import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { useEmulators, type EmulatorProcess } from '../support/emulator.js';
import {
  createDraft,
  getEnvelope,
  inDays,
  outbox,
  participantAction,
  readyDraft,
  resetEmulator,
  send,
  startWebhookReceiver,
  subscribe,
  syncParticipants,
  uploadPdf,
  waitForDocumentsReady,
  waitUntil,
  type WebhookReceiver,
} from '../support/envelope-flow.js';
import { simplePdf } from '../support/pdfs.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `limited`: envelope quota 1 and anchor search off. */
const [emulator, limited] = useEmulators([], ['--envelope-quota', '1', '--no-anchor-search']);
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  await subscribe(emulator, receiver.url, ['ENVELOPE_SENT', 'ENVELOPE_VOIDED', 'ENVELOPE_COMPLETED', 'ENVELOPE_DECLINED']);
});
afterAll(async () => {
  await receiver?.close();
});

async function folders(target: EmulatorProcess): Promise<{ id: string; name: string }[]> {
  return expectStatus(await call(target, 'GET', '/v4/api/folders/'), 200).body.data;
}

function eventsFor(envelopeId: string, type: string) {
  return receiver.events.filter((event) => event.type === type && event.data.envelope.id === envelopeId);
}

describe('create a draft: POST /v4/api/envelopes/', () => {
  it('"creates a draft": 201 with the envelope shape (id, title, message, status DRAFT, deadline, createdAt, folder, sender)', async () => {
    const deadline = inDays(10);
    const envelope = await createDraft(emulator, { title: 'NDA with ACME', message: 'Please sign', deadline });
    expect(envelope).toMatchObject({
      id: expect.any(String),
      title: 'NDA with ACME',
      message: 'Please sign',
      status: 'DRAFT',
      deadline,
      folder: { id: expect.any(String), name: expect.any(String) },
      sender: { id: expect.any(String), name: expect.any(String) },
      participants: [],
      documents: [],
    });
    expect(envelope.createdAt).toMatch(ISO_MS_UTC);
  });

  it('puts a draft without folderId in the first seeded folder', async () => {
    const [first] = await folders(emulator);
    const envelope = await createDraft(emulator, {});
    expect(envelope.folder).toEqual({ id: first!.id, name: first!.name });
  });

  it('"deadline: ISO 8601 date-time with milliseconds, UTC": an offset is answered in UTC with milliseconds; null is allowed', async () => {
    const local = new Date(Date.now() + 3 * 86_400_000);
    local.setUTCMilliseconds(0);
    const withOffset = local.toISOString().replace('.000Z', '+02:00');
    const envelope = await createDraft(emulator, { title: 'Offset', deadline: withOffset });
    expect(envelope.deadline).toBe(new Date(Date.parse(withOffset)).toISOString());
    expect(envelope.deadline).toMatch(ISO_MS_UTC);
    expect((await createDraft(emulator, { title: 'No deadline', deadline: null })).deadline).toBeNull();
  });

  it.each([
    ['a deadline that is not a date-time', { deadline: 'next friday' }, 'deadline'],
    ['a deadline in the past', { deadline: '2001-01-01T00:00:00.000Z' }, 'deadline'],
    ['an empty title', { title: '' }, 'title'],
    ['a property the operation does not know', { name: 'x' }, 'name'],
  ])('refuses %s: 400 VALIDATION_ERROR naming it', async (_label, body, path) => {
    const answer = await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });

  it('refuses an unknown folder: 404 RESOURCE_NOT_FOUND', async () => {
    const answer = await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { folderId: 'no-such-folder' } });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('"403 ENVELOPES_QUOTA_EXCEEDED: account reached its envelope limit; plan limits are answered as 403"', () => {
  it('creates up to the quota, then refuses creation and send-now with 403', async () => {
    await resetEmulator(limited);
    await createDraft(limited, { title: 'Within quota' });
    const refused = await call(limited, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Over quota' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ENVELOPES_QUOTA_EXCEEDED', details: { quota: 1, used: 1 } });
    const sendNow = await call(limited, 'POST', '/v4/api/envelopes/send-now', {
      idempotent: true,
      body: {
        title: 'Over quota',
        participants: [{ ref: 'p', name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
        documents: [{ ref: 'd', fileName: 'a.pdf', contentType: 'application/pdf' }],
      },
    });
    expect(sendNow.status).toBe(403);
    const listed = expectStatus(await call(limited, 'GET', '/v4/api/envelopes/'), 200).body.data;
    expect(listed).toHaveLength(1);
  });
});

describe('read and list', () => {
  it('GET answers the envelope with its participants (status, isTurn) and documents (documentId, fileName, status, pageCount)', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada Signer', email: 'ada@example.test' }]);
    const envelope = await getEnvelope(emulator, draft.id);
    expect(envelope.participants).toEqual([expect.objectContaining({ id: draft.participants[0].id, name: 'Ada Signer', status: 'PENDING', isTurn: false })]);
    expect(envelope.documents).toEqual([{ documentId: expect.any(String), fileName: 'contract.pdf', status: 'READY', pageCount: 1 }]);
  });

  it('GET of an unknown envelope: 404 RESOURCE_NOT_FOUND', async () => {
    const answer = await call(emulator, 'GET', '/v4/api/envelopes/00000000-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('lists with the status and folderId filters, limit and cursor', async () => {
    const [, second] = await folders(emulator);
    const titles = ['List A', 'List B', 'List C'];
    for (const title of titles) await createDraft(emulator, { title, folderId: second!.id });
    const first = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/?folderId=${second!.id}&status=DRAFT&limit=2`), 200).body;
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/?folderId=${second!.id}&status=DRAFT&limit=2&cursor=${first.nextCursor}`), 200).body;
    const seen = [...first.data, ...rest.data].map((envelope: { title: string }) => envelope.title);
    expect(seen.sort()).toEqual(titles);
    expect(rest.nextCursor).toBeNull();
    const sent = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/?folderId=${second!.id}&status=SENT`), 200).body;
    expect(sent.data).toEqual([]);
  });

  it('refuses an unknown status filter: 400 VALIDATION_ERROR', async () => {
    const answer = await call(emulator, 'GET', '/v4/api/envelopes/?status=SIGNED');
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('settings: PATCH /v4/api/envelopes/{envelopeId}/settings', () => {
  it('"sets title, message and deadline"; deadline null clears it', async () => {
    const draft = await createDraft(emulator, { title: 'Before', deadline: inDays(5) });
    const deadline = inDays(20);
    const updated = expectStatus(
      await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { title: 'After', message: 'New message', deadline } }),
      200,
    ).body;
    expect(updated).toMatchObject({ id: draft.id, title: 'After', message: 'New message', deadline });
    const cleared = expectStatus(await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { deadline: null } }), 200).body;
    expect(cleared).toMatchObject({ title: 'After', deadline: null });
  });

  it('accepts a message longer than 500 characters ("500 characters" is a limit of the legacy creation only)', async () => {
    const draft = await createDraft(emulator);
    const message = 'x'.repeat(800);
    const updated = expectStatus(await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { message } }), 200).body;
    expect(updated.message).toBe(message);
  });

  it('refuses an empty body (400) and a voided envelope (409 ENVELOPE_NOT_EDITABLE)', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    expect((await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: {} })).status).toBe(400);
    await send(emulator, draft.id);
    expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/void`, { body: { reason: 'Wrong recipient' } }), 200);
    const answer = await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { title: 'Too late' } });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('ENVELOPE_NOT_EDITABLE');
  });
});

describe('delete a draft: DELETE /v4/api/envelopes/{envelopeId}', () => {
  it('deletes a draft: 204, then 404', async () => {
    const draft = await createDraft(emulator);
    const answer = await call(emulator, 'DELETE', `/v4/api/envelopes/${draft.id}`);
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect((await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}`)).status).toBe(404);
  });

  it('"not a draft → 409 ENVELOPE_NOT_DRAFT"', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(emulator, draft.id);
    const answer = await call(emulator, 'DELETE', `/v4/api/envelopes/${draft.id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('ENVELOPE_NOT_DRAFT');
    expect((await getEnvelope(emulator, draft.id)).status).toBe('SENT');
  });
});

describe('send: POST /v4/api/envelopes/{envelopeId}/send', () => {
  it('typical flow: draft, settings, participants, document upload, fields, send → SENT and participants notified', async () => {
    const draft = await createDraft(emulator, { title: 'Typical flow' });
    expectStatus(await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { message: 'Please sign', deadline: inDays(7) } }), 200);
    const [signer] = await syncParticipants(emulator, draft.id, [{ name: 'Ada Signer', email: 'ada@example.test' }]);
    const documentId = await uploadPdf(emulator, draft.id);
    await waitForDocumentsReady(emulator, draft.id);
    const field = { id: '3f8c7a1e-5b2d-4c6e-9f0a-1b2c3d4e5f60', participantId: signer.id, type: 'SIGNATURE', pages: [1], position: { x: 72, y: 300 }, size: { width: 150, height: 40 } };
    expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/documents/${documentId}/fields`, { body: { fields: [field] } }), 200);
    const sent = await send(emulator, draft.id);
    expect(sent).toMatchObject({ id: draft.id, status: 'SENT', message: 'Please sign' });
    expect(sent.participants).toEqual([expect.objectContaining({ id: signer.id, status: 'NOTIFIED', isTurn: true })]);
    const messages = await outbox(emulator, draft.id);
    expect(messages).toEqual([expect.objectContaining({ participantId: signer.id, kind: 'INVITATION', channel: 'EMAIL', to: 'ada@example.test' })]);
    await waitUntil(async () => eventsFor(draft.id, 'ENVELOPE_SENT'), (events) => events.length === 1, 'ENVELOPE_SENT delivery');
  });

  it('"Send is refused with 409 while documents are not ready"; the same Idempotency-Key repeated once they are gets 200', async () => {
    const draft = await createDraft(emulator);
    await syncParticipants(emulator, draft.id, [{ name: 'Ada', email: 'ada@example.test' }]);
    await uploadPdf(emulator, draft.id);
    const key = `send-${draft.id}`;
    const early = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/send`, { headers: { 'idempotency-key': key }, body: {} });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('ENVELOPE_DOCUMENTS_NOT_READY');
    expect(early.body.error.details.documents).toEqual([expect.objectContaining({ status: 'PROCESSING' })]);
    await waitForDocumentsReady(emulator, draft.id);
    const later = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/send`, { headers: { 'idempotency-key': key }, body: {} });
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.status).toBe('SENT');
  });

  it('a document registered but never uploaded is not ready either: 409 ENVELOPE_DOCUMENTS_NOT_READY', async () => {
    const draft = await createDraft(emulator);
    await syncParticipants(emulator, draft.id, [{ name: 'Ada', email: 'ada@example.test' }]);
    expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/documents`, { body: { fileName: 'later.pdf', contentType: 'application/pdf' } }), 201);
    const answer = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/send`, { idempotent: true, body: {} });
    expect(answer.status).toBe(409);
    expect(answer.body.error.details.documents).toEqual([expect.objectContaining({ fileName: 'later.pdf', status: 'AWAITING_UPLOAD' })]);
  });

  it('refuses to send without participants (422 ENVELOPE_HAS_NO_PARTICIPANTS) or without documents (422 ENVELOPE_HAS_NO_DOCUMENTS)', async () => {
    const empty = await createDraft(emulator);
    const noParticipants = await call(emulator, 'POST', `/v4/api/envelopes/${empty.id}/send`, { idempotent: true, body: {} });
    expect(noParticipants.status).toBe(422);
    expect(noParticipants.body.error.code).toBe('ENVELOPE_HAS_NO_PARTICIPANTS');
    await syncParticipants(emulator, empty.id, [{ name: 'Ada', email: 'ada@example.test' }]);
    const noDocuments = await call(emulator, 'POST', `/v4/api/envelopes/${empty.id}/send`, { idempotent: true, body: {} });
    expect(noDocuments.status).toBe(422);
    expect(noDocuments.body.error.code).toBe('ENVELOPE_HAS_NO_DOCUMENTS');
  });

  it('a sent envelope cannot be sent again with another key: 409 ENVELOPE_NOT_DRAFT', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(emulator, draft.id);
    const again = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/send`, { idempotent: true, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ENVELOPE_NOT_DRAFT');
  });

  it('signing order: only the lowest order is invited; the next when it is done; all done → COMPLETED and ENVELOPE_COMPLETED', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'First A', email: 'a@example.test', signingOrder: 1 },
      { name: 'First B', email: 'b@example.test', signingOrder: 1 },
      { name: 'Second', email: 'c@example.test', signingOrder: 2 },
    ]);
    const [a, b, c] = draft.participants;
    const sent = await send(emulator, draft.id);
    expect(sent.participants.map((participant: { status: string; isTurn: boolean }) => [participant.status, participant.isTurn])).toEqual([
      ['NOTIFIED', true],
      ['NOTIFIED', true],
      ['PENDING', false],
    ]);
    expect((await outbox(emulator, draft.id)).map((message) => message.participantId)).toEqual([a.id, b.id]);

    expect((await participantAction(emulator, draft.id, a.id, 'sign')).status).toBe(200);
    expect((await outbox(emulator, draft.id)).filter((message) => message.participantId === c.id)).toEqual([]);
    expect((await participantAction(emulator, draft.id, c.id, 'sign')).body.error.code).toBe('PARTICIPANT_NOT_IN_TURN');
    await participantAction(emulator, draft.id, b.id, 'sign');
    expect((await outbox(emulator, draft.id)).filter((message) => message.kind === 'INVITATION').map((message) => message.participantId)).toEqual([a.id, b.id, c.id]);

    const done = await participantAction(emulator, draft.id, c.id, 'sign');
    expect(done.body).toMatchObject({ status: 'COMPLETED', completedAt: expect.stringMatching(ISO_MS_UTC) });
    const history = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/history?limit=100`), 200).body.data;
    expect(history.map((entry: { action: string }) => entry.action)).toEqual(expect.arrayContaining(['ENVELOPE_SENT', 'PARTICIPANT_SIGNED', 'ENVELOPE_COMPLETED']));
    const [event] = await waitUntil(async () => eventsFor(draft.id, 'ENVELOPE_COMPLETED'), (events) => events.length === 1, 'ENVELOPE_COMPLETED delivery');
    expect(event!.data.envelope.status).toBe('COMPLETED');
  });

  it('a refusal from the link ends the envelope DECLINED and emits ENVELOPE_DECLINED', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(emulator, draft.id);
    const refused = await participantAction(emulator, draft.id, draft.participants[0].id, 'refuse', { reason: 'Wrong amount' });
    expect(refused.body.status).toBe('DECLINED');
    expect(refused.body.participants[0]).toMatchObject({ status: 'REFUSED', refusalReason: 'Wrong amount' });
    await waitUntil(async () => eventsFor(draft.id, 'ENVELOPE_DECLINED'), (events) => events.length === 1, 'ENVELOPE_DECLINED delivery');
  });
});

describe('void: POST /v4/api/envelopes/{envelopeId}/void', () => {
  it('voids a sent envelope: VOIDED, cancellationReason, history entry, ENVELOPE_VOIDED delivered, invited participants told', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(emulator, draft.id);
    const voided = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/void`, { body: { reason: 'Wrong recipient' } }), 200).body;
    expect(voided).toMatchObject({ status: 'VOIDED', cancellationReason: 'Wrong recipient' });
    const history = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/history?limit=100`), 200).body.data;
    expect(history).toContainEqual(expect.objectContaining({ action: 'ENVELOPE_VOIDED', details: { reason: 'Wrong recipient' } }));
    const [event] = await waitUntil(async () => eventsFor(draft.id, 'ENVELOPE_VOIDED'), (events) => events.length === 1, 'ENVELOPE_VOIDED delivery');
    expect(event!.data.envelope).toMatchObject({ id: draft.id, status: 'VOIDED', cancellationReason: 'Wrong recipient' });
    const deliveries = (await (await emulator.fetch('/_emulator/webhook-deliveries')).json()) as { data: any[] };
    expect(deliveries.data).toContainEqual(expect.objectContaining({ eventType: 'ENVELOPE_VOIDED', status: 'SUCCEEDED' }));
    expect((await outbox(emulator, draft.id)).map((message) => message.kind)).toEqual(['INVITATION', 'VOIDED']);
  });

  it('requires a reason (400) and a SENT envelope: a draft is deleted instead (409 ENVELOPE_NOT_SENT)', async () => {
    const draft = await createDraft(emulator);
    const noReason = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/void`, { body: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.details.issues).toContainEqual(expect.objectContaining({ path: 'reason' }));
    const notSent = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/void`, { body: { reason: 'Nope' } });
    expect(notSent.status).toBe(409);
    expect(notSent.body.error.code).toBe('ENVELOPE_NOT_SENT');
  });
});

describe('history: GET /v4/api/envelopes/{envelopeId}/history', () => {
  it('"actions made with a key appear as an API integration entry with the integration name"; "the key secret is never written to history"', async () => {
    const draft = await createDraft(emulator, { title: 'Audited' });
    expectStatus(await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { title: 'Audited twice' } }), 200);
    const page = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/history?limit=1`), 200).body;
    expect(page.data).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const all = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/history`), 200).body.data;
    expect(all.map((entry: { action: string }) => entry.action)).toEqual(['ENVELOPE_CREATED', 'SETTINGS_UPDATED']);
    for (const entry of all) {
      expect(entry.actor).toMatchObject({ type: 'API_INTEGRATION', integration: { name: expect.any(String) }, responsibleUser: { id: expect.any(String) } });
      expect(entry.at).toMatch(ISO_MS_UTC);
    }
    const secret = emulator.key.split('_').pop()!;
    expect(JSON.stringify(all)).not.toContain(secret);
  });
});

describe('download and move', () => {
  it('the ZIP download answers {url, expiresAt}: a signed address on the emulator that serves without a key', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    const { url, expiresAt } = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/download`), 200).body;
    expect(url.startsWith(emulator.url)).toBe(true);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const zip = await fetch(url);
    expect(zip.status).toBe(200);
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('moves an envelope to another folder; an unknown folder is 404', async () => {
    const [, second] = await folders(emulator);
    const draft = await createDraft(emulator);
    const moved = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/move`, { body: { folderId: second!.id } }), 200).body;
    expect(moved.folder).toEqual({ id: second!.id, name: second!.name });
    const unknown = await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/move`, { body: { folderId: 'missing' } });
    expect(unknown.status).toBe(404);
  });
});

describe('send-now: POST /v4/api/envelopes/send-now', () => {
  const anchoredPdf = () => simplePdf({ pages: [['Agreement', 'Sign here: {{sign}}', 'Initials: {{initials}}']] });

  function sendNowBody(fields: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
    return {
      title: 'Send now',
      participants: [{ ref: 'ada', name: 'Ada Signer', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
      documents: [{ ref: 'main', fileName: 'agreement.pdf', contentType: 'application/pdf' }],
      fields,
      ...extra,
    };
  }

  const anchorField = (text: string, extra: Record<string, unknown> = {}) => ({
    type: 'SIGNATURE',
    documentRef: 'main',
    signatoryRef: 'ada',
    anchor: { text, ...extra },
    size: { width: 120, height: 30 },
  });

  async function sendNow(body: Record<string, unknown>, target = emulator) {
    return call(target, 'POST', '/v4/api/envelopes/send-now', { idempotent: true, body });
  }

  async function uploadTo(created: any, bytes: Uint8Array) {
    const upload = await fetch(created.documents[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
    expect(upload.ok).toBe(true);
  }

  const settled = (envelope: any) => envelope.status !== 'DRAFT';

  it('"The 201 response returns upload addresses before any PDF exists"; after processing the anchors are placed and the envelope is sent', async () => {
    const answer = await sendNow(
      sendNowBody([anchorField('{{sign}}', { offset: { x: 0, y: -10 } }), { type: 'TEXT', documentRef: 'main', signatoryRef: 'ada', pageNumber: 1, position: { x: 72, y: 400 } }]),
    );
    expect(answer.status).toBe(201);
    const created = answer.body;
    expect(created).toMatchObject({ status: 'DRAFT', sendWhenReady: true, title: 'Send now' });
    expect(created.participants).toEqual([expect.objectContaining({ ref: 'ada', id: expect.any(String), status: 'PENDING' })]);
    expect(created.documents).toEqual([
      expect.objectContaining({ ref: 'main', documentId: expect.any(String), fileName: 'agreement.pdf', uploadUrl: expect.any(String), uploadExpiresAt: expect.stringMatching(ISO_MS_UTC) }),
    ]);
    await uploadTo(created, await anchoredPdf());
    const sent = await waitUntil(() => getEnvelope(emulator, created.id), settled, 'send-now envelope settled');
    expect(sent.status).toBe('SENT');
    const fields = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.id}/documents/${created.documents[0].documentId}/fields`), 200).body.fields;
    expect(fields.map((field: { type: string }) => field.type).sort()).toEqual(['SIGNATURE', 'TEXT']);
    expect(fields.every((field: { participantId: string }) => field.participantId === created.participants[0].id)).toBe(true);
    expect(await outbox(emulator, created.id)).toEqual([expect.objectContaining({ kind: 'INVITATION', participantId: created.participants[0].id })]);
  });

  it('"anchor search fails after documents finish processing": VOIDED, cancellationReason in history, ENVELOPE_VOIDED, no message to participants', async () => {
    const created = expectStatus(await sendNow(sendNowBody([anchorField('{{nowhere}}')])), 201).body;
    await uploadTo(created, await anchoredPdf());
    const voided = await waitUntil(() => getEnvelope(emulator, created.id), settled, 'send-now envelope settled');
    expect(voided.status).toBe('VOIDED');
    expect(voided.cancellationReason).toMatch(/^ANCHOR_NOT_FOUND: .*\{\{nowhere\}\}/);
    const history = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.id}/history?limit=100`), 200).body.data;
    expect(history).toContainEqual(expect.objectContaining({ action: 'ENVELOPE_VOIDED', details: expect.objectContaining({ reason: voided.cancellationReason, code: 'ANCHOR_NOT_FOUND' }) }));
    const [event] = await waitUntil(async () => eventsFor(created.id, 'ENVELOPE_VOIDED'), (events) => events.length === 1, 'ENVELOPE_VOIDED delivery');
    expect(event!.data.envelope.cancellationReason).toBe(voided.cancellationReason);
    expect(await outbox(emulator, created.id)).toEqual([]);
  });

  it('"With ifNotFound = ignore, the field is omitted and the envelope is sent with the rest"', async () => {
    const created = expectStatus(await sendNow(sendNowBody([anchorField('{{sign}}'), anchorField('{{absent}}', { ifNotFound: 'ignore' })])), 201).body;
    await uploadTo(created, await anchoredPdf());
    const sent = await waitUntil(() => getEnvelope(emulator, created.id), settled, 'send-now envelope settled');
    expect(sent.status).toBe('SENT');
    const fields = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.id}/documents/${created.documents[0].documentId}/fields`), 200).body.fields;
    expect(fields).toHaveLength(1);
  });

  it('a PDF without text layer voids with DOCUMENT_HAS_NO_TEXT; a document that fails processing voids with DOCUMENT_FAILED', async () => {
    const noText = expectStatus(await sendNow(sendNowBody([anchorField('{{sign}}')])), 201).body;
    const { noTextPdf } = await import('../support/pdfs.js');
    await uploadTo(noText, await noTextPdf());
    const first = await waitUntil(() => getEnvelope(emulator, noText.id), settled, 'no-text envelope settled');
    expect(first.cancellationReason).toMatch(/^DOCUMENT_HAS_NO_TEXT: /);

    const broken = expectStatus(await sendNow(sendNowBody([anchorField('{{sign}}')])), 201).body;
    await uploadTo(broken, new TextEncoder().encode('this is not a PDF'));
    const second = await waitUntil(() => getEnvelope(emulator, broken.id), settled, 'broken envelope settled');
    expect(second).toMatchObject({ status: 'VOIDED', cancellationReason: expect.stringMatching(/^DOCUMENT_FAILED: /) });
  });

  it('a coordinate field beyond its document voids it too, the cause naming the field by its place in the request', async () => {
    const coordinates = (documentRef: string, pageNumber: number) => ({ type: 'SIGNATURE', documentRef, signatoryRef: 'ada', pageNumber, position: { x: 10, y: 10 }, size: { width: 100, height: 30 } });
    const created = expectStatus(
      await sendNow(
        sendNowBody([coordinates('main', 1), coordinates('annex', 3)], {
          documents: [
            { ref: 'main', fileName: 'agreement.pdf', contentType: 'application/pdf' },
            { ref: 'annex', fileName: 'annex.pdf', contentType: 'application/pdf' },
          ],
        }),
      ),
      201,
    ).body;
    for (const document of created.documents) {
      const upload = await fetch(document.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: await anchoredPdf() });
      expect(upload.ok).toBe(true);
    }
    const voided = await waitUntil(() => getEnvelope(emulator, created.id), settled, 'send-now envelope settled');
    expect(voided.cancellationReason).toMatch(/^FIELD_PAGE_OUT_OF_BOUNDS: fields\[1\]: page 3 .*\(document annex\.pdf\)$/);
  });

  it.each([
    ['both pageNumber+position and anchor', { ...anchorField('{{sign}}'), pageNumber: 1, position: { x: 1, y: 1 } }],
    ['neither pageNumber+position nor anchor', { type: 'SIGNATURE', documentRef: 'main', signatoryRef: 'ada', size: { width: 10, height: 10 } }],
    ['pageNumber without position', { type: 'SIGNATURE', documentRef: 'main', signatoryRef: 'ada', pageNumber: 1 }],
    ['"CHECKBOX_GROUP and RADIO_GROUP take no anchor"', { ...anchorField('{{sign}}'), type: 'CHECKBOX_GROUP' }],
    ['an anchor without size ("size (required with anchor)")', { type: 'SIGNATURE', documentRef: 'main', signatoryRef: 'ada', anchor: { text: '{{sign}}' } }],
  ])('"Exactly one of (pageNumber + position) or anchor per field, else 400": %s → 400 FIELD_PLACEMENT_INVALID', async (_label, field) => {
    const answer = await sendNow(sendNowBody([field]));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'FIELD_PLACEMENT_INVALID', details: { fieldIndex: 0 } });
  });

  it('"At most 20 fields with anchor per call": 21 → 400 TOO_MANY_ANCHOR_FIELDS', async () => {
    const answer = await sendNow(sendNowBody(Array.from({ length: 21 }, () => anchorField('{{sign}}', { ifNotFound: 'ignore' }))));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'TOO_MANY_ANCHOR_FIELDS', details: { anchorFields: 21, limit: 20 } });
    expect((await sendNow(sendNowBody(Array.from({ length: 20 }, () => anchorField('{{sign}}', { ifNotFound: 'ignore' }))))).status).toBe(201);
  });

  it('refuses a field naming an unknown document or signatory (400 INVALID_FIELD_LINKING) and SMS without phone (400 PHONE_NUMBER_REQUIRED)', async () => {
    const unlinked = await sendNow(sendNowBody([{ ...anchorField('{{sign}}'), signatoryRef: 'bob' }]));
    expect(unlinked.status).toBe(400);
    expect(unlinked.body.error.code).toBe('INVALID_FIELD_LINKING');
    const sms = await sendNow(sendNowBody([], { participants: [{ ref: 'ada', name: 'Ada', email: 'ada@example.test', deliveryMethod: 'SMS' }] }));
    expect(sms.status).toBe(400);
    expect(sms.body.error.code).toBe('PHONE_NUMBER_REQUIRED');
  });

  it('"If anchor search is disabled in the environment, the POST answers 503 ANCHOR_SEARCH_UNAVAILABLE and no envelope is created"', async () => {
    await resetEmulator(limited);
    const answer = await sendNow(sendNowBody([anchorField('{{sign}}')]), limited);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('ANCHOR_SEARCH_UNAVAILABLE');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(expectStatus(await call(limited, 'GET', '/v4/api/envelopes/'), 200).body.data).toEqual([]);
    const coordinatesOnly = await sendNow(
      sendNowBody([{ type: 'SIGNATURE', documentRef: 'main', signatoryRef: 'ada', pageNumber: 1, position: { x: 72, y: 200 }, size: { width: 100, height: 30 } }]),
      limited,
    );
    expect(coordinatesOnly.status).toBe(201);
  });
});
