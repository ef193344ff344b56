/**
 * Questions the contract leaves open that a third-party run found the emulator deciding silently (issue #24): each
 * decision is a row of docs/contract-assumptions.md ("Where the contract is ambiguous") and is held here, or in the
 * test that row names.
 */
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { addDocument, draftWithSigners, findAnchors, putBytes } from '../support/documents.js';
import { useEmulator } from '../support/emulator.js';
import { createDraft, getEnvelope, syncParticipants, waitUntil } from '../support/envelope-flow.js';
import { simplePdf } from '../support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);

function issuePaths(answer: { body: any }): string[] {
  return answer.body.error.details.issues.map((issue: { path: string }) => issue.path);
}

describe('names and titles', () => {
  it('a title or name of spaces only is refused like an empty one (400 VALIDATION_ERROR)', async () => {
    const title = await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: '   ' } });
    expect(title.status).toBe(400);
    expect(issuePaths(title)).toEqual(['title']);
    const draft = await createDraft(emulator);
    const name = await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, {
      body: { participants: [{ name: ' \t ', email: 'pat@example.test', deliveryMethod: 'EMAIL', role: 'SIGNER' }] },
    });
    expect(name.status).toBe(400);
    expect(issuePaths(name)).toEqual(['participants[0].name']);
    const folder = await call(emulator, 'POST', '/v4/api/folders/', { body: { name: '  ' } });
    expect(folder.status).toBe(400);
  });

  it('a folder name holding "/" is refused (a folder path is its names joined by "/"); a participant name may hold one', async () => {
    const folder = await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'Sales/2026' } });
    expect(folder.status).toBe(400);
    expect(issuePaths(folder)).toEqual(['name']);
    const draft = await createDraft(emulator);
    const [participant] = await syncParticipants(emulator, draft.id, [{ name: 'Ada / Legal', email: 'ada@example.test' }]);
    expect(participant.name).toBe('Ada / Legal');
  });
});

describe('phone numbers', () => {
  it('E.164 is "+" and 7 to 15 digits, the first not 0: +1234567 is the shortest number taken', async () => {
    const draft = await createDraft(emulator);
    const sms = (phoneNumber: string) => ({ participants: [{ name: 'Pat', email: 'pat@example.test', deliveryMethod: 'SMS', phoneNumber, role: 'SIGNER' }] });
    expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, { body: sms('+1234567') }), 200);
    expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, { body: sms('+123456789012345') }), 200);
    for (const refused of ['+123456', '+1234567890123456', '+0123456789']) {
      const answer = await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, { body: sms(refused) });
      expect(answer.status, refused).toBe(400);
      expect(answer.body.error.code, refused).toBe('PHONE_NUMBER_REQUIRED');
    }
    const contact = await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Short', email: 'short@example.test', phoneNumber: '+123456' } });
    expect(contact.status).toBe(400);
  });
});

describe('anchor search options', () => {
  it('anchors:find reads null as "not given": offset null is {x: 0, y: 0}, occurrence null is its default', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const { documentId } = await addDocument(emulator, envelopeId, await simplePdf({ pages: [['Signature']] }));
    const searches = (extra: Record<string, unknown>) => [{ key: 'k', text: 'Signature', ...extra }];
    const plain = expectStatus(await findAnchors(emulator, envelopeId, documentId, searches({})), 200).body.matches;
    const nulls = expectStatus(await findAnchors(emulator, envelopeId, documentId, searches({ offset: null, occurrence: null, caseSensitive: null })), 200).body.matches;
    expect(nulls).toEqual(plain);
  });

  it('send-now reads them so too: an anchored field with null options is placed with the defaults', async () => {
    const body = {
      title: 'Null options',
      participants: [{ ref: 'a', name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
      documents: [{ ref: 'd', fileName: 'a.pdf', contentType: 'application/pdf' }],
      fields: [
        {
          type: 'SIGNATURE',
          documentRef: 'd',
          signatoryRef: 'a',
          size: { width: 100, height: 30 },
          anchor: { text: 'Signature', occurrence: null, caseSensitive: null, matchWholeWord: null, offset: null, ifNotFound: null },
        },
      ],
    };
    const created = expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/send-now', { idempotent: true, body }), 201).body;
    expectStatus(await putBytes(created.documents[0].uploadUrl, await simplePdf({ pages: [['Signature']] })), 200);
    const sent = await waitUntil(() => getEnvelope(emulator, created.id), (envelope) => envelope.status !== 'DRAFT', 'send-now to finish');
    expect(sent.status).toBe('SENT');
  });
});

describe('required fields of send-now and of creation from a template', () => {
  it('send-now needs title, participants (ref, name, email, deliveryMethod) and documents (ref, fileName, contentType); fields may be left out', async () => {
    const answer = await call(emulator, 'POST', '/v4/api/envelopes/send-now', { idempotent: true, body: { participants: [{ ref: 'a' }], documents: [{}] } });
    expect(answer.status).toBe(400);
    expect(issuePaths(answer).sort()).toEqual(
      ['documents[0].contentType', 'documents[0].fileName', 'documents[0].ref', 'participants[0].deliveryMethod', 'participants[0].email', 'participants[0].name', 'title'].sort(),
    );
    const minimal = {
      title: 'Minimal',
      participants: [{ ref: 'a', name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
      documents: [{ ref: 'd', fileName: 'a.pdf', contentType: 'application/pdf' }],
    };
    expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/send-now', { idempotent: true, body: minimal }), 201);
  });

  it('creation from a template needs participants (templateParticipantId, name, email, deliveryMethod); title defaults to the template\'s name, send to false', async () => {
    const template = expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body.data.find((each: { name: string }) => each.name === 'Mutual NDA');
    const path = `/v4/api/templates/${template.id}/envelopes`;
    const missing = await call(emulator, 'POST', path, { idempotent: true, body: { participants: [{}] } });
    expect(missing.status).toBe(400);
    expect(issuePaths(missing).sort()).toEqual(['participants[0].deliveryMethod', 'participants[0].email', 'participants[0].name', 'participants[0].templateParticipantId']);
    expect(issuePaths(await call(emulator, 'POST', path, { idempotent: true, body: {} }))).toEqual(['participants']);
    const detail = expectStatus(await call(emulator, 'GET', `/v4/api/templates/${template.id}`), 200).body;
    const participants = detail.participants.map((slot: { templateParticipantId: string }, index: number) => ({
      templateParticipantId: slot.templateParticipantId,
      name: `Person ${index}`,
      email: `person${index}@example.test`,
      deliveryMethod: 'EMAIL',
    }));
    const created = expectStatus(await call(emulator, 'POST', path, { idempotent: true, body: { participants } }), 201).body;
    expect(created).toMatchObject({ title: 'Mutual NDA', status: 'DRAFT' });
  });
});
