import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { useEmulator } from '../support/emulator.js';
import { inDays, outbox, participantAction, resetEmulator } from '../support/envelope-flow.js';

const emulator = useEmulator(['--processing-delay', '20']);

async function templates(): Promise<any[]> {
  return expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body.data;
}

async function templateNamed(name: string): Promise<any> {
  const summary = (await templates()).find((template) => template.name === name);
  return expectStatus(await call(emulator, 'GET', `/v4/api/templates/${summary.id}`), 200).body;
}

function cast(template: any, people: Record<string, { name: string; email: string }>) {
  return template.participants.map((participant: { templateParticipantId: string; label: string }) => ({
    templateParticipantId: participant.templateParticipantId,
    deliveryMethod: 'EMAIL',
    ...people[participant.label],
  }));
}

async function createFromTemplate(templateId: string, body: Record<string, unknown>) {
  return call(emulator, 'POST', `/v4/api/templates/${templateId}/envelopes`, { idempotent: true, body });
}

describe('seeded templates: list and get', () => {
  it('the account starts with two templates, an NDA and a two-signer contract, with participant roles and real PDFs', async () => {
    const listed = await templates();
    expect(listed.map((template) => template.name)).toEqual(['Mutual NDA', 'Service agreement']);
    const [nda, contract] = listed;
    expect(nda.participants).toEqual([expect.objectContaining({ templateParticipantId: expect.any(String), role: 'SIGNER', label: 'Recipient', signingOrder: 1 })]);
    expect(contract.participants.map((participant: { label: string; signingOrder: number }) => [participant.label, participant.signingOrder])).toEqual([
      ['Client', 1],
      ['Provider', 2],
    ]);
    expect(nda.documents).toEqual([expect.objectContaining({ fileName: 'mutual-nda.pdf', pageCount: 1, pages: [{ page: 1, width: 612, height: 792, rotate: 0 }] })]);
    expect(contract.documents[0].pageCount).toBe(2);
  });

  it('GET answers the template with its fields, each for a template participant; an unknown template is 404', async () => {
    const contract = await templateNamed('Service agreement');
    const roles = contract.participants.map((participant: { templateParticipantId: string }) => participant.templateParticipantId);
    expect(contract.fields).toHaveLength(2);
    for (const field of contract.fields) {
      expect(field).toMatchObject({ type: 'SIGNATURE', pages: [2], documentId: contract.documents[0].documentId });
      expect(roles).toContain(field.templateParticipantId);
    }
    expect((await call(emulator, 'GET', '/v4/api/templates/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('the seeded PDFs carry a text layer: anchors:find on the NDA finds {{signature}}', async () => {
    const nda = await templateNamed('Mutual NDA');
    const answer = await call(emulator, 'POST', `/v4/api/templates/${nda.id}/documents/${nda.documents[0].documentId}/anchors:find`, {
      body: { searches: [{ key: 'sig', text: '{{signature}}' }] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.matches).toEqual([expect.objectContaining({ key: 'sig', page: 1 })]);
  });

  it('a reset brings the same templates back, with the same ids', async () => {
    const before = (await templates()).map((template) => template.id);
    await resetEmulator(emulator);
    expect((await templates()).map((template) => template.id)).toEqual(before);
  });
});

describe('create from a template: POST /v4/api/templates/{templateId}/envelopes', () => {
  it('"send false leaves a draft": the answer is the envelope read shape, with the template\'s documents READY and its fields given to the new participants', async () => {
    const contract = await templateNamed('Service agreement');
    const deadline = inDays(14);
    const answer = await createFromTemplate(contract.id, {
      title: 'ACME services',
      deadline,
      participants: cast(contract, { Client: { name: 'Cleo Client', email: 'cleo@example.test' }, Provider: { name: 'Pia Provider', email: 'pia@example.test' } }),
      send: false,
    });
    expect(answer.status).toBe(201);
    const envelope = answer.body;
    expect(envelope).toMatchObject({ title: 'ACME services', status: 'DRAFT', deadline, templateId: contract.id, folder: { id: expect.any(String) }, sender: { id: expect.any(String) } });
    expect(envelope.participants.map((participant: { name: string; signingOrder: number }) => [participant.name, participant.signingOrder])).toEqual([
      ['Cleo Client', 1],
      ['Pia Provider', 2],
    ]);
    expect(envelope.documents).toEqual([expect.objectContaining({ fileName: 'service-agreement.pdf', status: 'READY', pageCount: 2 })]);
    const documentId = envelope.documents[0].documentId;
    expect(documentId).not.toBe(contract.documents[0].documentId);
    const fields = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents/${documentId}/fields`), 200).body.fields;
    expect(fields.map((field: { participantId: string }) => field.participantId).sort()).toEqual(envelope.participants.map((participant: { id: string }) => participant.id).sort());
    const download = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents/${documentId}/download-url`), 200).body;
    const bytes = Buffer.from(await (await fetch(download.url)).arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await outbox(emulator, envelope.id)).toEqual([]);
  });

  it('"send true sends": SENT, and only the first signing order is notified', async () => {
    const contract = await templateNamed('Service agreement');
    const envelope = expectStatus(
      await createFromTemplate(contract.id, {
        participants: cast(contract, { Client: { name: 'Cleo', email: 'cleo@example.test' }, Provider: { name: 'Pia', email: 'pia@example.test' } }),
        send: true,
      }),
      201,
    ).body;
    expect(envelope).toMatchObject({ status: 'SENT', title: 'Service agreement' });
    const [client, provider] = envelope.participants;
    expect((await outbox(emulator, envelope.id)).map((message) => message.participantId)).toEqual([client.id]);
    await participantAction(emulator, envelope.id, client.id, 'sign');
    const done = await participantAction(emulator, envelope.id, provider.id, 'sign');
    expect(done.body.status).toBe('COMPLETED');
  });

  it.each([
    ['a template participant left out', (template: any) => cast(template, { Client: { name: 'Cleo', email: 'cleo@example.test' } }).slice(0, 1)],
    [
      'an unknown templateParticipantId',
      (template: any) => [
        ...cast(template, { Client: { name: 'Cleo', email: 'cleo@example.test' }, Provider: { name: 'Pia', email: 'pia@example.test' } }),
        { templateParticipantId: 'nobody', name: 'X', email: 'x@example.test', deliveryMethod: 'EMAIL' },
      ],
    ],
    [
      'the same templateParticipantId twice',
      (template: any) => {
        const people = cast(template, { Client: { name: 'Cleo', email: 'cleo@example.test' }, Provider: { name: 'Pia', email: 'pia@example.test' } });
        return [...people, people[0]];
      },
    ],
  ])('refuses %s: 400 VALIDATION_ERROR, nothing created', async (_label, participantsOf) => {
    const contract = await templateNamed('Service agreement');
    const before = expectStatus(await call(emulator, 'GET', '/v4/api/envelopes/?limit=100'), 200).body.data.length;
    const answer = await createFromTemplate(contract.id, { participants: participantsOf(contract) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(expectStatus(await call(emulator, 'GET', '/v4/api/envelopes/?limit=100'), 200).body.data.length).toBe(before);
  });

  it('PHONE_NUMBER_REQUIRED for an SMS participant without a number; 404 for an unknown template', async () => {
    const nda = await templateNamed('Mutual NDA');
    const [recipient] = cast(nda, { Recipient: { name: 'Rita', email: 'rita@example.test' } });
    const sms = await createFromTemplate(nda.id, { participants: [{ ...recipient, deliveryMethod: 'SMS' }] });
    expect(sms.status).toBe(400);
    expect(sms.body.error.code).toBe('PHONE_NUMBER_REQUIRED');
    const unknown = await createFromTemplate('00000000-0000-4000-8000-000000000000', { participants: [] });
    expect(unknown.status).toBe(404);
  });
});
