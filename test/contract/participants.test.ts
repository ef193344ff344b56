import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { useEmulators, type EmulatorProcess } from '../support/emulator.js';
import { createDraft, getEnvelope, outbox, participantAction, readyDraft, resetEmulator, send, syncParticipants } from '../support/envelope-flow.js';

/** `oneMessage`: an account allowed a single message (`--message-limit 1`). */
const [emulator, oneMessage] = useEmulators(['--processing-delay', '20'], ['--processing-delay', '20', '--message-limit', '1']);

function participantsPath(envelopeId: string, participantId?: string): string {
  return `/v4/api/envelopes/${envelopeId}/participants${participantId ? `/${participantId}` : ''}`;
}

async function history(target: EmulatorProcess, envelopeId: string): Promise<any[]> {
  return expectStatus(await call(target, 'GET', `/v4/api/envelopes/${envelopeId}/history?limit=100`), 200).body.data;
}

async function correct(target: EmulatorProcess, envelopeId: string, participantId: string, body: Record<string, unknown>) {
  return call(target, 'PATCH', participantsPath(envelopeId, participantId), { body });
}

describe('synchronize participants: PUT /v4/api/envelopes/{envelopeId}/participants', () => {
  it('answers 200 {participants} with ids and status PENDING', async () => {
    const draft = await createDraft(emulator);
    const participants = await syncParticipants(emulator, draft.id, [
      { name: 'Ada Signer', email: 'ada@example.test', signingOrder: 1 },
      { name: 'Bob Approver', email: 'bob@example.test', role: 'APPROVER', signingOrder: 2, deliveryMethod: 'SMS', phoneNumber: '+14155550123' },
    ]);
    expect(participants).toEqual([
      expect.objectContaining({ id: expect.any(String), name: 'Ada Signer', role: 'SIGNER', deliveryMethod: 'EMAIL', signingOrder: 1, status: 'PENDING', isTurn: false }),
      expect.objectContaining({ id: expect.any(String), name: 'Bob Approver', role: 'APPROVER', deliveryMethod: 'SMS', phoneNumber: '+14155550123', signingOrder: 2, status: 'PENDING' }),
    ]);
  });

  it('"Lists (every collection)": the participants list pages with limit (1-100, default 20) and cursor, in the envelope\'s order', async () => {
    const draft = await createDraft(emulator);
    const synced = await syncParticipants(emulator, draft.id, Array.from({ length: 25 }, (_, index) => ({ name: `Person ${index}`, email: `p${index}@example.test` })));
    const first = expectStatus(await call(emulator, 'GET', participantsPath(draft.id)), 200).body;
    expect(first.data).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = expectStatus(await call(emulator, 'GET', `${participantsPath(draft.id)}?cursor=${first.nextCursor}`), 200).body;
    expect(rest).toMatchObject({ nextCursor: null });
    expect([...first.data, ...rest.data].map((participant: { id: string }) => participant.id)).toEqual(synced.map((participant) => participant.id));
    expect((await call(emulator, 'GET', `${participantsPath(draft.id)}?limit=0`)).status).toBe(400);
    expect(expectStatus(await call(emulator, 'GET', `${participantsPath(draft.id)}?limit=1`), 200).body.data).toHaveLength(1);
  });

  it('replaces the whole list: an entry with id updates, one without is added, one left out is removed', async () => {
    const draft = await createDraft(emulator);
    const [ada, bob] = await syncParticipants(emulator, draft.id, [
      { name: 'Ada', email: 'ada@example.test' },
      { name: 'Bob', email: 'bob@example.test' },
    ]);
    const next = await syncParticipants(emulator, draft.id, [
      { id: ada.id, name: 'Ada Lovelace', email: 'ada@example.test' },
      { name: 'Cy', email: 'cy@example.test' },
    ]);
    expect(next.map((participant) => participant.name)).toEqual(['Ada Lovelace', 'Cy']);
    expect(next[0].id).toBe(ada.id);
    expect(next.map((participant) => participant.id)).not.toContain(bob.id);
    const listed = expectStatus(await call(emulator, 'GET', participantsPath(draft.id)), 200).body.data;
    expect(listed.map((participant: { id: string }) => participant.id)).toEqual(next.map((participant) => participant.id));
  });

  it('an id that is not a participant of the envelope: 404 RESOURCE_NOT_FOUND', async () => {
    const draft = await createDraft(emulator);
    const answer = await call(emulator, 'PUT', participantsPath(draft.id), {
      body: { participants: [{ id: 'not-a-participant', name: 'X', email: 'x@example.test', deliveryMethod: 'EMAIL', role: 'SIGNER' }] },
    });
    expect(answer.status).toBe(404);
  });

  it.each([
    ['SMS without phoneNumber', { deliveryMethod: 'SMS' }],
    ['WHATSAPP with a number not in E.164', { deliveryMethod: 'WHATSAPP', phoneNumber: '0612345678' }],
  ])('"400 PHONE_NUMBER_REQUIRED: delivery method requires a phone number": %s', async (_label, delivery) => {
    const draft = await createDraft(emulator);
    const answer = await call(emulator, 'PUT', participantsPath(draft.id), {
      body: { participants: [{ name: 'Pat', email: 'pat@example.test', role: 'SIGNER', ...delivery }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'PHONE_NUMBER_REQUIRED', details: { path: 'participants[0].phoneNumber' } });
  });

  it('refuses a bad e-mail or role with 400 VALIDATION_ERROR naming the field', async () => {
    const draft = await createDraft(emulator);
    const answer = await call(emulator, 'PUT', participantsPath(draft.id), {
      body: { participants: [{ name: 'Pat', email: 'not-an-email', deliveryMethod: 'EMAIL', role: 'OBSERVER' }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['participants[0].email', 'participants[0].role']);
  });

  it('takes every valid e-mail address of WHATWG\'s rule (`?` and `%` in the local part, a domain without a dot)', async () => {
    const draft = await createDraft(emulator);
    const addresses = ['?x%y@ae.example', "o'brien+tag@mail.example", 'root@localhost'];
    const synced = await syncParticipants(emulator, draft.id, addresses.map((email, index) => ({ name: `Person ${index}`, email })));
    expect(synced.map((participant: { email: string }) => participant.email)).toEqual(addresses);
  });

  it('only while DRAFT: after sending, 409 ENVELOPE_NOT_DRAFT (a correction is the way)', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(emulator, draft.id);
    const answer = await call(emulator, 'PUT', participantsPath(draft.id), {
      body: { participants: [{ name: 'Other', email: 'other@example.test', deliveryMethod: 'EMAIL', role: 'SIGNER' }] },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('ENVELOPE_NOT_DRAFT');
  });
});

describe('correct a participant: PATCH /v4/api/envelopes/{envelopeId}/participants/{participantId}', () => {
  it('"Response 204 with no body"; before sending the change is simply applied', async () => {
    const draft = await createDraft(emulator);
    const [ada] = await syncParticipants(emulator, draft.id, [{ name: 'Ada', email: 'ada@example.test' }]);
    const answer = await correct(emulator, draft.id, ada.id, { name: 'Ada Lovelace', email: 'ada.l@example.test' });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect((await getEnvelope(emulator, draft.id)).participants[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada.l@example.test' });
    expect(await outbox(emulator, draft.id)).toEqual([]);
  });

  it('"A participant who already signed or approved cannot be changed": 409 PARTICIPANT_ALREADY_SIGNED', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'Ada', email: 'ada@example.test', signingOrder: 1 },
      { name: 'Bob', email: 'bob@example.test', signingOrder: 2 },
    ]);
    await send(emulator, draft.id);
    const [ada] = draft.participants;
    expect((await participantAction(emulator, draft.id, ada.id, 'sign')).status).toBe(200);
    const answer = await correct(emulator, draft.id, ada.id, { email: 'new@example.test' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('PARTICIPANT_ALREADY_SIGNED');
    expect((await getEnvelope(emulator, draft.id)).participants[0].email).toBe('ada@example.test');
  });

  it('"changing e-mail or phone of the participant in turn invalidates the earlier link and resends the invitation"', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(emulator, draft.id);
    const [ada] = draft.participants;
    const [first] = await outbox(emulator, draft.id);
    expect(first).toMatchObject({ kind: 'INVITATION', to: 'ada@example.test', linkVersion: 1 });

    expect((await correct(emulator, draft.id, ada.id, { email: 'ada.new@example.test' })).status).toBe(204);
    const messages = await outbox(emulator, draft.id);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ kind: 'INVITATION', participantId: ada.id, to: 'ada.new@example.test', linkVersion: 2 });

    const oldLink = await participantAction(emulator, draft.id, ada.id, 'sign', { linkVersion: first.linkVersion });
    expect(oldLink.status).toBe(410);
    expect(oldLink.body.error.code).toBe('SIGNING_LINK_INVALID');
    const newLink = await participantAction(emulator, draft.id, ada.id, 'sign', { linkVersion: 2 });
    expect(newLink.status).toBe(200);
    expect(newLink.body.status).toBe('COMPLETED');
  });

  it('a name-only correction, or one of a participant not yet in turn, sends nothing', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'Ada', email: 'ada@example.test', signingOrder: 1 },
      { name: 'Bob', email: 'bob@example.test', signingOrder: 2 },
    ]);
    await send(emulator, draft.id);
    const [ada, bob] = draft.participants;
    expect((await correct(emulator, draft.id, ada.id, { name: 'Ada L.' })).status).toBe(204);
    expect((await correct(emulator, draft.id, bob.id, { email: 'bob.new@example.test' })).status).toBe(204);
    expect((await outbox(emulator, draft.id)).map((message) => message.to)).toEqual(['ada@example.test']);
    await participantAction(emulator, draft.id, ada.id, 'sign');
    expect((await outbox(emulator, draft.id)).map((message) => message.to)).toEqual(['ada@example.test', 'bob.new@example.test']);
  });

  it('e-mails are compared case-insensitively: a change of letter case only is no new address (no new link, no invitation, no message counted)', async () => {
    await resetEmulator(oneMessage);
    const draft = await readyDraft(oneMessage, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(oneMessage, draft.id);
    const [ada] = draft.participants;
    expect((await correct(oneMessage, draft.id, ada.id, { email: 'ADA@Example.TEST' })).status).toBe(204);
    expect(await outbox(oneMessage, draft.id)).toHaveLength(1);
    expect((await getEnvelope(oneMessage, draft.id)).participants[0].email).toBe('ADA@Example.TEST');
    const corrections = (await history(oneMessage, draft.id)).filter((entry) => entry.action === 'PARTICIPANT_CORRECTED');
    expect(corrections).toEqual([expect.objectContaining({ details: { participantId: ada.id, changed: ['email'], linkInvalidated: false } })]);
    // A real change of address is a new invitation, which the limit (its one message went to the first) refuses.
    expect((await correct(oneMessage, draft.id, ada.id, { email: 'other@example.test' })).status).toBe(403);
    expect((await participantAction(oneMessage, draft.id, ada.id, 'sign', { linkVersion: 1 })).status).toBe(200);
  });

  it('a correction that changes nothing is answered 204 and does nothing: no history entry, no invitation, no message counted', async () => {
    await resetEmulator(oneMessage);
    const draft = await readyDraft(oneMessage, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(oneMessage, draft.id);
    const [ada] = draft.participants;
    const entries = (await history(oneMessage, draft.id)).length;
    expect((await correct(oneMessage, draft.id, ada.id, { name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL' })).status).toBe(204);
    expect((await history(oneMessage, draft.id)).length).toBe(entries);
    expect(await outbox(oneMessage, draft.id)).toHaveLength(1);
    expect((await participantAction(oneMessage, draft.id, ada.id, 'sign', { linkVersion: 1 })).status).toBe(200);
  });

  it('PHONE_NUMBER_REQUIRED when switching to SMS without a number', async () => {
    const draft = await createDraft(emulator);
    const [ada] = await syncParticipants(emulator, draft.id, [{ name: 'Ada', email: 'ada@example.test' }]);
    const answer = await correct(emulator, draft.id, ada.id, { deliveryMethod: 'SMS' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('PHONE_NUMBER_REQUIRED');
    const withPhone = await correct(emulator, draft.id, ada.id, { deliveryMethod: 'SMS', phoneNumber: '+33612345678' });
    expect(withPhone.status).toBe(204);
  });

  it('"it counts toward the account\'s message limit": with none left, 403 MESSAGE_LIMIT_REACHED and nothing changes', async () => {
    await resetEmulator(oneMessage);
    const draft = await readyDraft(oneMessage, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(oneMessage, draft.id);
    const [ada] = draft.participants;
    const answer = await correct(oneMessage, draft.id, ada.id, { email: 'ada.new@example.test' });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'MESSAGE_LIMIT_REACHED', details: { messageLimit: 1, messagesSent: 1 } });
    expect((await getEnvelope(oneMessage, draft.id)).participants[0].email).toBe('ada@example.test');
    expect(await outbox(oneMessage, draft.id)).toHaveLength(1);
    expect((await participantAction(oneMessage, draft.id, ada.id, 'sign', { linkVersion: 1 })).status).toBe(200);
  });
});

describe('approve, refuse, remind', () => {
  it('an approver in turn approves; the next signer is then invited', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'Legal', email: 'legal@example.test', role: 'APPROVER', signingOrder: 1 },
      { name: 'Ada', email: 'ada@example.test', signingOrder: 2 },
    ]);
    await send(emulator, draft.id);
    const [legal, ada] = draft.participants;
    const approved = expectStatus(await call(emulator, 'POST', `${participantsPath(draft.id, legal.id)}/approve`, { body: {} }), 200).body;
    expect(approved.participants.map((participant: { status: string }) => participant.status)).toEqual(['APPROVED', 'NOTIFIED']);
    expect((await outbox(emulator, draft.id)).map((message) => message.participantId)).toEqual([legal.id, ada.id]);
    const history = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/history?limit=100`), 200).body.data;
    expect(history).toContainEqual(expect.objectContaining({ action: 'PARTICIPANT_APPROVED', actor: expect.objectContaining({ type: 'API_INTEGRATION' }) }));
  });

  it('an approver refuses with a reason: the envelope is DECLINED', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Legal', email: 'legal@example.test', role: 'APPROVER' }]);
    await send(emulator, draft.id);
    const [legal] = draft.participants;
    expect((await call(emulator, 'POST', `${participantsPath(draft.id, legal.id)}/refuse`, { body: {} })).status).toBe(400);
    const refused = expectStatus(await call(emulator, 'POST', `${participantsPath(draft.id, legal.id)}/refuse`, { body: { reason: 'Clause 4 is wrong' } }), 200).body;
    expect(refused).toMatchObject({ status: 'DECLINED', participants: [expect.objectContaining({ status: 'REFUSED', refusalReason: 'Clause 4 is wrong' })] });
  });

  it('approve is for an APPROVER whose turn it is: a signer gets 409 PARTICIPANT_ROLE_MISMATCH, a later approver 409 PARTICIPANT_NOT_IN_TURN', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'Ada', email: 'ada@example.test', signingOrder: 1 },
      { name: 'Legal', email: 'legal@example.test', role: 'APPROVER', signingOrder: 2 },
    ]);
    await send(emulator, draft.id);
    const [ada, legal] = draft.participants;
    const signer = await call(emulator, 'POST', `${participantsPath(draft.id, ada.id)}/approve`, { body: {} });
    expect(signer.status).toBe(409);
    expect(signer.body.error.code).toBe('PARTICIPANT_ROLE_MISMATCH');
    const early = await call(emulator, 'POST', `${participantsPath(draft.id, legal.id)}/approve`, { body: {} });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('PARTICIPANT_NOT_IN_TURN');
  });

  it('a reminder goes to the participant in turn (outbox REMINDER); one not in turn gets 409', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'Ada', email: 'ada@example.test', signingOrder: 1 },
      { name: 'Bob', email: 'bob@example.test', signingOrder: 2 },
    ]);
    await send(emulator, draft.id);
    const [ada, bob] = draft.participants;
    const reminded = expectStatus(await call(emulator, 'POST', `${participantsPath(draft.id, ada.id)}/remind`, { body: {} }), 200).body;
    expect(reminded).toMatchObject({ participantId: ada.id, channel: 'EMAIL' });
    expect((await outbox(emulator, draft.id)).map((message) => message.kind)).toEqual(['INVITATION', 'REMINDER']);
    expect((await call(emulator, 'POST', `${participantsPath(draft.id, bob.id)}/remind`, { body: {} })).status).toBe(409);
  });

  it('a reminder counts toward the message limit: 403 MESSAGE_LIMIT_REACHED', async () => {
    await resetEmulator(oneMessage);
    const draft = await readyDraft(oneMessage, [{ name: 'Ada', email: 'ada@example.test' }]);
    await send(oneMessage, draft.id);
    const answer = await call(oneMessage, 'POST', `${participantsPath(draft.id, draft.participants[0].id)}/remind`, { body: {} });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('MESSAGE_LIMIT_REACHED');
  });

  it('send needs as many messages as first invitations: 403 MESSAGE_LIMIT_REACHED and the envelope stays DRAFT', async () => {
    await resetEmulator(oneMessage);
    const draft = await readyDraft(oneMessage, [
      { name: 'Ada', email: 'ada@example.test' },
      { name: 'Bob', email: 'bob@example.test' },
    ]);
    const answer = await call(oneMessage, 'POST', `/v4/api/envelopes/${draft.id}/send`, { idempotent: true, body: {} });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('MESSAGE_LIMIT_REACHED');
    expect((await getEnvelope(oneMessage, draft.id)).status).toBe('DRAFT');
  });
});

describe('list participants: GET /v4/api/envelopes/{envelopeId}/participants', () => {
  it('answers {data} with each participant\'s status and isTurn', async () => {
    const draft = await readyDraft(emulator, [
      { name: 'Ada', email: 'ada@example.test', signingOrder: 1 },
      { name: 'Bob', email: 'bob@example.test', signingOrder: 2 },
    ]);
    await send(emulator, draft.id);
    const listed = expectStatus(await call(emulator, 'GET', participantsPath(draft.id)), 200).body;
    expect(listed.data.map((participant: { status: string; isTurn: boolean }) => [participant.status, participant.isTurn])).toEqual([
      ['NOTIFIED', true],
      ['PENDING', false],
    ]);
  });
});
