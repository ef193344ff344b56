import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { createSentEnvelope } from './support/envelope-flow.js';
import { parseJson, tempDir } from './support/cli.js';
import { esignOn } from './support/esign-on.js';
import { useEmulator } from './support/emulator.js';
import { simplePdf } from './support/pdfs.js';
import { addDocument, draftWithSigners, getFields, putFields } from './support/documents.js';

const emulator = useEmulator();

const { run: esign, json: esignJson } = esignOn(emulator);

async function participantsOf(envelopeId: string): Promise<{ id: string; name: string; email: string; status: string; isTurn: boolean }[]> {
  return expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/participants`), 200).body.data;
}

async function outbox(): Promise<{ envelopeId: string; participantId: string; to: string; kind: string }[]> {
  return ((await (await emulator.fetch('/_emulator/outbox')).json()) as { data: Awaited<ReturnType<typeof outbox>> }).data;
}

async function sign(envelopeId: string, participantId: string): Promise<void> {
  const answer = await emulator.fetch(`/_emulator/envelopes/${envelopeId}/participants/${participantId}/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(answer.status).toBe(200);
}

describe('participants set', () => {
  it('"SMS and WHATSAPP need phoneNumber (E.164)": refused at file:line:column before sending (exit 2)', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Phones']);
    const dir = tempDir();
    writeFileSync(join(dir, 'participants.yaml'), 'participants:\n  - name: Ada\n    email: ada@example.com\n    deliveryMethod: SMS\n');
    const result = await esign(['participants', 'set', draft.id, '--file', 'participants.yaml'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('participants.yaml:4:21: participants[0].deliveryMethod: phoneNumber (E.164) is required when deliveryMethod is SMS');
    expect(await participantsOf(draft.id)).toEqual([]);

    const flags = await esign(['participants', 'set', draft.id, '--add', 'Ada <ada@example.com>', '--delivery', 'WHATSAPP']);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('needs --phone');
  });

  it('--add with --delivery SMS --phone, and a file read from stdin', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Flags']);
    const added = await esignJson(['part', 'set', draft.id, '--add', 'Grace Hopper <grace@example.com>', '--delivery', 'sms', '--phone', '+15551234567', '--role', 'APPROVER']);
    expect(added.participants).toMatchObject([{ name: 'Grace Hopper', deliveryMethod: 'SMS', phoneNumber: '+15551234567', role: 'APPROVER' }]);

    const piped = await esignJson(['participants', 'set', draft.id, '--file', '-'], { input: '[{"name": "Ada", "email": "ada@example.com"}]' });
    expect(piped.participants).toMatchObject([{ name: 'Ada', deliveryMethod: 'EMAIL', role: 'SIGNER' }]);
  });

  it('a sent envelope: the 409 ENVELOPE_NOT_DRAFT comes with the way to correct one participant', async () => {
    const { id } = await createSentEnvelope(emulator);
    const result = await esign(['participants', 'set', id, '--add', 'Ada <ada@example.com>']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('ENVELOPE_NOT_DRAFT');
    expect(result.stderr).toContain(`esign participants correct ${id}`);
  });

  it('running the same file again keeps every participant and every field; a participant dropped with fields needs --yes', async () => {
    const { envelopeId, participantIds } = await draftWithSigners(emulator);
    const document = await addDocument(emulator, envelopeId, await simplePdf({ pages: [['Sign here']] }));
    const field = { id: '6f1d9c1e-1b9e-4c55-8a49-0c7d2a6d6c01', participantId: participantIds[0], type: 'SIGNATURE', pages: [1], position: { x: 72, y: 72 }, size: { width: 120, height: 30 } };
    expectStatus(await putFields(emulator, envelopeId, document.documentId, [field]), 200);
    const dir = tempDir();
    writeFileSync(join(dir, 'participants.yaml'), '- {name: Ada Signer, email: ADA@example.test}\n- {name: Bob Stone, email: bob@example.test}\n');

    const again = await esign(['participants', 'set', envelopeId, '--file', 'participants.yaml'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect((await participantsOf(envelopeId)).map((p) => [p.id, p.name])).toEqual([
      [participantIds[0], 'Ada Signer'],
      [participantIds[1], 'Bob Stone'],
    ]);
    expect(await getFields(emulator, envelopeId, document.documentId)).toHaveLength(1);

    const added = await esign(['participants', 'set', envelopeId, '--add', 'Ada Signer <ada@example.test>', '--add', 'Bob Signer <bob@example.test>']);
    expect(added.code, added.stderr).toBe(0);
    expect(await getFields(emulator, envelopeId, document.documentId)).toHaveLength(1);

    writeFileSync(join(dir, 'bob-only.yaml'), '- {name: Bob Stone, email: bob@example.test}\n');
    const dropped = await esign(['participants', 'set', envelopeId, '--file', 'bob-only.yaml'], { cwd: dir });
    expect(dropped.code).toBe(2);
    expect(dropped.stderr).toContain('Ada Signer <ada@example.test> is not in the new list: the service removes this participant and their field (1 on contract.pdf)');
    expect(dropped.stderr).toContain('Pass --yes');
    expect(await participantsOf(envelopeId)).toHaveLength(2);
    expect(await getFields(emulator, envelopeId, document.documentId)).toHaveLength(1);

    const confirmed = await esign(['--yes', 'participants', 'set', envelopeId, '--file', 'bob-only.yaml'], { cwd: dir });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await participantsOf(envelopeId)).map((p) => p.id)).toEqual([participantIds[1]]);
    expect(await getFields(emulator, envelopeId, document.documentId)).toEqual([]);
  });

  it('--file and --add together are refused', async () => {
    const result = await esign(['participants', 'set', 'x', '--file', 'p.yaml', '--add', 'Ada <ada@example.com>']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Use --file or --add, not both');
  });
});

describe('participants list', () => {
  it('lists every participant of a large envelope, following the pages (participants list, envelopes get)', async () => {
    const draft = expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { body: { title: 'Many people' }, idempotent: true }), 201).body;
    const people = Array.from({ length: 25 }, (_, index) => ({ name: `Person ${index}`, email: `p${index}@example.test`, role: 'SIGNER', deliveryMethod: 'EMAIL' }));
    expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, { body: { participants: people } }), 200);
    expect((await esignJson(['participants', 'list', draft.id])).data).toHaveLength(25);
    expect((await esignJson(['envelopes', 'get', draft.id])).participants).toHaveLength(25);

    const page = await esignJson(['participants', 'list', draft.id, '--limit', '10']);
    expect(page.data).toHaveLength(10);
    expect(typeof page.nextCursor).toBe('string');
    const next = await esignJson(['participants', 'list', draft.id, '--limit', '10', '--cursor', page.nextCursor]);
    expect(next.data[0].email).toBe('p10@example.test');
    const lines = await esign(['participants', 'list', draft.id, '--all', '--jsonl']);
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.stdout.trim().split('\n').map((line) => JSON.parse(line).email)).toEqual(people.map((person) => person.email));
    // --all --json is one array of every row, as with every other list; documents list alike.
    const all = await esignJson(['participants', 'list', draft.id, '--all', '--limit', '1']);
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((participant: { email: string }) => participant.email)).toEqual(people.map((person) => person.email));
    expect(Array.isArray(await esignJson(['documents', 'list', draft.id, '--all']))).toBe(true);
  });

  it('shows each status and whose turn it is', async () => {
    const envelope = await createSentEnvelope(emulator, {
      participants: [
        { name: 'Ada Signer', email: 'ada@example.test' },
        { name: 'Bob Signer', email: 'bob@example.test' },
      ],
    });
    await sign(envelope.id, envelope.participantIds[0]!);
    const result = await esign(['participants', 'list', envelope.id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Ada Signer .*SIGNED/);
    expect(result.stdout).toMatch(/Bob Signer .*NOTIFIED\s+← their turn/);
    expect(result.stdout).toContain('1/2 done · Their turn: Bob Signer <bob@example.test>');
    const json = await esignJson(['participants', 'list', envelope.id]);
    expect(json.data.map((p: { status: string }) => p.status)).toEqual(['SIGNED', 'NOTIFIED']);
  });
});

describe('participants correct', () => {
  it('"A participant who already signed or approved cannot be changed": the 409 is explained (exit 5)', async () => {
    const envelope = await createSentEnvelope(emulator);
    const [participantId] = envelope.participantIds;
    await sign(envelope.id, participantId!);
    const result = await esign(['participants', 'correct', envelope.id, participantId!, '--email', 'new@example.test']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('Ada Signer <ada@example.test> has already signed');
    expect(result.stderr).toContain('cannot be corrected');
    expect((await participantsOf(envelope.id))[0]!.email).toBe('ada@example.test');
  });

  it('"changing e-mail of the participant in turn resends the invitation; it counts toward the message limit"', async () => {
    const envelope = await createSentEnvelope(emulator);
    const [participantId] = envelope.participantIds;
    const result = await esign(['--json', 'participants', 'correct', envelope.id, participantId!, '--email', 'ada.new@example.test']);
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson(result.stdout)).toEqual({
      envelopeId: envelope.id,
      participantId,
      changes: { email: 'ada.new@example.test' },
      invitationResent: true,
    });
    expect(result.stderr).toContain("counts toward the account's message limit");
    const invitations = (await outbox()).filter((message) => message.envelopeId === envelope.id && message.kind === 'INVITATION');
    expect(invitations.map((message) => message.to)).toEqual(['ada@example.test', 'ada.new@example.test']);
  });

  it('a name change resends nothing and says nothing about the message limit', async () => {
    const envelope = await createSentEnvelope(emulator);
    const result = await esign(['participants', 'correct', envelope.id, envelope.participantIds[0]!, '--name', 'Ada King']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Participant Ada Signer <ada@example.test> corrected: name Ada Signer → Ada King.');
    expect(result.stderr).not.toContain('message limit');
    expect((await participantsOf(envelope.id))[0]!.name).toBe('Ada King');
  });

  it('a value the participant already has (the e-mail in any case) is not sent, and resends nothing', async () => {
    const envelope = await createSentEnvelope(emulator);
    const [participantId] = envelope.participantIds;
    const same = await esign(['participants', 'correct', envelope.id, participantId!, '--email', 'ADA@example.test']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('Nothing to correct: Ada Signer <ada@example.test> already has email ada@example.test. Nothing was sent.');
    expect(same.stderr).not.toContain('→');
    const partly = await esign(['participants', 'correct', envelope.id, participantId!, '--email', 'ada@example.test', '--name', 'Ada King']);
    expect(partly.stderr).toContain('corrected: name Ada Signer → Ada King.');
    expect(partly.stderr).not.toMatch(/email|message limit/);
    const history = await esignJson(['envelopes', 'history', envelope.id]);
    expect(history.filter((entry: { action: string }) => entry.action === 'PARTICIPANT_CORRECTED')).toHaveLength(1);
    expect((await outbox()).filter((message) => message.envelopeId === envelope.id && message.kind === 'INVITATION')).toHaveLength(1);
  });

  it('without the participant id and without a terminal: exit 2 naming <participantId>', async () => {
    const envelope = await createSentEnvelope(emulator);
    const result = await esign(['participants', 'correct', envelope.id, '--name', 'Ada King']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('<participantId> is required');
    expect((await participantsOf(envelope.id))[0]!.name).toBe('Ada Signer');
  });

  it('checks the new values before sending', async () => {
    const bad = await esign(['participants', 'correct', 'e', 'p', '--phone', '0612345678']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not an E.164 phone number');
    expect((await esign(['participants', 'correct', 'e', 'p'])).stderr).toContain('Nothing to correct');
  });
});

describe('participants approve, refuse, remind', () => {
  async function sentWithApprover() {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Approval']);
    const dir = tempDir();
    writeFileSync(
      join(dir, 'participants.yaml'),
      '- {name: Ann Approver, email: ann@example.test, role: APPROVER, signingOrder: 1}\n- {name: Sid Signer, email: sid@example.test, signingOrder: 2}\n',
    );
    const { participants } = await esignJson(['participants', 'set', draft.id, '--file', 'participants.yaml'], { cwd: dir });
    const document = expectStatus(
      await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/documents`, { body: { fileName: 'a.pdf', contentType: 'application/pdf' } }),
      201,
    ).body;
    await fetch(document.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: await simplePdf({ pages: [['Approve']] }) });
    const sent = await esign(['send', draft.id]);
    expect(sent.code, sent.stderr).toBe(0);
    return { envelopeId: draft.id as string, approver: participants[0].id as string, signer: participants[1].id as string };
  }

  it('approve moves the turn on; remind goes to the participant in turn and is counted', async () => {
    const { envelopeId, approver, signer } = await sentWithApprover();
    expect((await esign(['participants', 'approve', envelopeId, approver])).code).toBe(0);
    const [ann, sid] = await participantsOf(envelopeId);
    expect(ann!.status).toBe('APPROVED');
    expect(sid!.isTurn).toBe(true);

    const reminded = await esign(['participants', 'remind', envelopeId, signer]);
    expect(reminded.code, reminded.stderr).toBe(0);
    expect(reminded.stderr).toContain("counts toward the account's message limit");
    expect((await outbox()).filter((message) => message.envelopeId === envelopeId && message.kind === 'REMINDER').map((m) => m.participantId)).toEqual([signer]);
  });

  it('refuse needs --reason, then records it', async () => {
    const { envelopeId, approver } = await sentWithApprover();
    const missing = await esign(['participants', 'refuse', envelopeId, approver]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--reason is required');
    const refused = await esignJson(['participants', 'refuse', envelopeId, approver, '--reason', 'Amount is wrong']);
    expect(refused.status).toBe('DECLINED');
    expect((await participantsOf(envelopeId))[0]!.status).toBe('REFUSED');
  });
});
