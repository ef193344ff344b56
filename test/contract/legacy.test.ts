import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus, type ApiAnswer } from '../support/api-call.js';
import { useEmulator, withEmulator, type EmulatorProcess } from '../support/emulator.js';
import { simplePdf } from '../support/pdfs.js';

const emulator = useEmulator();
let accountId: string;
const sessionToken = 'sess_0123456789abcdefXYZ';

beforeAll(async () => {
  accountId = expectStatus(await call(emulator, 'GET', '/v4/api/me'), 200).body.account.id;
});

/** A /v2 call with its own auth: a session token and x-account-id, never the API key. */
async function createV2(body: unknown, headers: Record<string, string> = {}, target: EmulatorProcess = emulator, account = accountId): Promise<ApiAnswer> {
  return call(target, 'POST', '/v2/envelopes/', {
    body,
    key: false,
    headers: { authorization: `Bearer ${sessionToken}`, 'x-account-id': account, ...headers },
  });
}

function validBody(overrides: Record<string, unknown> = {}) {
  const documentId: string = randomUUID();
  return {
    title: 'Legacy lease',
    message: 'Please sign',
    documents: [{ id: documentId, fileName: 'lease.pdf', contentType: 'application/pdf' }],
    signatories: [{ id: 'sig-1', name: 'Lee Legacy', email: 'lee@example.test', qualification: 'SES', authMethod: 'EMAIL' }],
    observers: [{ email: 'watcher@example.test' }],
    fields: [{ type: 'SIGNATURE', documentId, signatoryId: 'sig-1', pageNumber: 1, position: { x: 72, y: 600, width: 150, height: 40 } }],
    ...overrides,
  };
}

function expectError(answer: ApiAnswer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error.code).toBe(code);
  expect(answer.body.error.message).toEqual(expect.any(String));
}

describe('legacy POST /v2/envelopes/', () => {
  it('"Observers of an envelope can be notified on sending and on completion": notifyOnSent defaults to false, notifyOnCompletion to true', async () => {
    const body = validBody({ observers: [{ email: 'loud@example.test', notifyOnSent: true }, { email: 'quiet@example.test' }] });
    const created = expectStatus(await createV2(body), 201).body;
    const upload = await fetch(created.uploadDetails[0].uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'x-emulator-meta-documentid': created.uploadDetails[0].documentId },
      body: await simplePdf({ pages: [['Lease']] }),
    });
    expect(upload.status).toBeLessThan(300);
    const observerMessages = async () =>
      ((await (await emulator.fetch('/_emulator/outbox')).json()) as { data: { envelopeId: string; kind: string; to: string }[] }).data
        .filter((message) => message.envelopeId === created.envelopeId && message.kind.startsWith('OBSERVER'))
        .map((message) => `${message.kind} ${message.to}`);
    for (let tries = 0; tries < 100 && (await observerMessages()).length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await observerMessages()).toEqual(['OBSERVER_SENT loud@example.test']);
    const signed = await emulator.fetch(`/_emulator/envelopes/${created.envelopeId}/participants/sig-1/sign`, { method: 'POST' });
    expect(signed.status).toBeLessThan(300);
    expect(await observerMessages()).toEqual(['OBSERVER_SENT loud@example.test', 'OBSERVER_COMPLETED loud@example.test', 'OBSERVER_COMPLETED quiet@example.test']);
  });

  it('creates an envelope (201 {envelopeId, uploadDetails}), every requested document with an upload address; the upload carries x-emulator-meta-documentid and the envelope is then sent', async () => {
    const body = validBody();
    const created = await createV2(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const documentId = body.documents[0]!.id;
    expect(created.body).toEqual({
      envelopeId: expect.any(String),
      uploadDetails: [{ documentId, fileName: 'lease.pdf', uploadUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) }],
    });

    const envelope = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.body.envelopeId}`), 200).body;
    expect(envelope).toMatchObject({ title: 'Legacy lease', message: 'Please sign' });
    expect(Date.parse(envelope.deadline) - Date.parse(envelope.createdAt)).toBeGreaterThan(7 * 24 * 3600 * 1000 - 5000);
    expect(Date.parse(envelope.deadline) - Date.parse(envelope.createdAt)).toBeLessThanOrEqual(7 * 24 * 3600 * 1000 + 5000);
    expect(envelope.participants).toEqual([expect.objectContaining({ id: 'sig-1', name: 'Lee Legacy', deliveryMethod: 'EMAIL' })]);

    // The address is signed for that header, as signed storage's are: without it, or with another id, 403.
    const pdf = await simplePdf({ pages: [['Lease agreement']] });
    for (const wrong of [{}, { 'x-emulator-meta-documentid': 'another-document' }] as Record<string, string>[]) {
      const refused = await fetch(created.body.uploadDetails[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf', ...wrong }, body: pdf });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('SIGNED_HEADER_MISMATCH');
    }
    const upload = await fetch(created.body.uploadDetails[0].uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'x-emulator-meta-documentid': documentId },
      body: pdf,
    });
    expect(upload.status, await upload.clone().text()).toBeLessThan(300);

    let status = envelope.status;
    for (let tries = 0; tries < 100 && status !== 'SENT'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.body.envelopeId}`), 200).body.status;
    }
    expect(status).toBe('SENT');
    const fields = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.body.envelopeId}/documents/${documentId}/fields`), 200).body.fields;
    expect(fields).toEqual([
      expect.objectContaining({ participantId: 'sig-1', type: 'SIGNATURE', pages: [1], position: { x: 72, y: 600 }, size: { width: 150, height: 40 } }),
    ]);
  });

  it('keeps a deadline that is given', async () => {
    const deadline = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    const created = expectStatus(await createV2(validBody({ deadline })), 201).body;
    const envelope = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${created.envelopeId}`), 200).body;
    expect(envelope.deadline).toBe(deadline);
  });

  describe('authentication: a session bearer token plus header x-account-id', () => {
    it('answers 401 without a token', async () => {
      expectError(await createV2(validBody(), { authorization: '' }), 401, 'UNAUTHENTICATED');
    });

    it('answers 401 to an API key: /v2 takes a session token', async () => {
      expectError(await createV2(validBody(), { authorization: `Bearer ${emulator.key}` }), 401, 'INVALID_SESSION_TOKEN');
    });

    it('answers 404 RESOURCE_NOT_FOUND for another account id, 400 without one', async () => {
      expectError(await createV2(validBody(), {}, emulator, randomUUID()), 404, 'RESOURCE_NOT_FOUND');
      const without = await call(emulator, 'POST', '/v2/envelopes/', { body: validBody(), key: false, headers: { authorization: `Bearer ${sessionToken}` } });
      expectError(without, 400, 'VALIDATION_ERROR');
    });
  });

  describe('body rules', () => {
    it('400 INVALID_FIELD_TYPE: a field type outside SIGNATURE, INITIALS, TEXT', async () => {
      const body = validBody();
      body.fields[0]!.type = 'CHECKBOX_GROUP';
      expectError(await createV2(body), 400, 'INVALID_FIELD_TYPE');
    });

    it('400 INVALID_FIELD_LINKING: a field refers to an unknown document or signatory', async () => {
      const unknownDocument = validBody();
      unknownDocument.fields[0]!.documentId = 'not-a-listed-document';
      expectError(await createV2(unknownDocument), 400, 'INVALID_FIELD_LINKING');
      const unknownSignatory = validBody();
      unknownSignatory.fields[0]!.signatoryId = 'sig-404';
      expectError(await createV2(unknownSignatory), 400, 'INVALID_FIELD_LINKING');
    });

    it.each(['SMS', 'WHATSAPP'])('400 PHONE_NUMBER_REQUIRED: authMethod %s without an E.164 phoneNumber', async (authMethod) => {
      const body = validBody();
      Object.assign(body.signatories[0]!, { authMethod });
      expectError(await createV2(body), 400, 'PHONE_NUMBER_REQUIRED');
      Object.assign(body.signatories[0]!, { phoneNumber: '0612345678' });
      expectError(await createV2(body), 400, 'PHONE_NUMBER_REQUIRED');
      Object.assign(body.signatories[0]!, { phoneNumber: '+33612345678' });
      expect((await createV2(body)).status).toBe(201);
    });

    it.each([
      ['message over 500 characters', { message: 'x'.repeat(501) }],
      ['no documents', { documents: [] }],
      ['no signatories', { signatories: [] }],
      ['a document without contentType', { documents: [{ id: 'd', fileName: 'a.pdf' }], fields: [] }],
      ['a signatory without qualification', { signatories: [{ id: 's', name: 'N', email: 'n@example.test', authMethod: 'EMAIL' }], fields: [] }],
      ['an authMethod outside EMAIL, SMS, WHATSAPP', { signatories: [{ id: 's', name: 'N', email: 'n@example.test', qualification: 'SES', authMethod: 'FAX' }], fields: [] }],
      ['an observer without email', { observers: [{ notifyOnSent: true }] }],
    ])('400 VALIDATION_ERROR: %s', async (_label, overrides) => {
      expectError(await createV2(validBody(overrides)), 400, 'VALIDATION_ERROR');
    });

    it('accepts a message of exactly 500 characters', async () => {
      expect((await createV2(validBody({ message: 'x'.repeat(500) }))).status).toBe(201);
    });

    it('404 RESOURCE_NOT_FOUND: an unknown folder', async () => {
      expectError(await createV2(validBody({ folderId: 'no-such-folder' })), 404, 'RESOURCE_NOT_FOUND');
    });

    it('409 DOCUMENT_ID_TAKEN: a document id already used by another document', async () => {
      const first = validBody();
      expect((await createV2(first)).status).toBe(201);
      expectError(await createV2(validBody({ documents: first.documents, fields: [] })), 409, 'DOCUMENT_ID_TAKEN');
    });
  });

  it('403 ENVELOPES_QUOTA_EXCEEDED: the account reached its envelope limit', async () => {
    await withEmulator(['--envelope-quota', '1'], async (limited) => {
      const account = expectStatus(await call(limited, 'GET', '/v4/api/me'), 200).body.account.id;
      expect((await createV2(validBody(), {}, limited, account)).status).toBe(201);
      expectError(await createV2(validBody(), {}, limited, account), 403, 'ENVELOPES_QUOTA_EXCEEDED');
    });
  });
});
