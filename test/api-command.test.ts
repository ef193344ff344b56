import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/api/operations.js';
import { call, expectStatus } from './support/api-call.js';
import { parseJson, tempDir, type RunOptions } from './support/cli.js';
import { addDocument, DOCX, minimalDocx } from './support/documents.js';
import { useEmulator } from './support/emulator.js';
import { createDraft, createSentEnvelope, readyDraft, send, syncParticipants, uploadPdf, waitUntil } from './support/envelope-flow.js';
import { esignOn } from './support/esign-on.js';
import { simplePdf } from './support/pdfs.js';

const emulator = useEmulator(['--webhook-retry-delays', '100']);
const esign = (args: readonly string[], options: RunOptions = {}) => esignOn(emulator).run(args, options);

/**
 * The operations the contract names, by resource: the 16 with a stated method and path and those "named without
 * method or path", plus the participant list and the legacy create it describes. `esign api --list` must show each.
 */
const contractOperations = {
  account: ['getMe', 'getAccount', 'getEffectiveCapabilities', 'getCapabilityCatalog', 'listApiCalls'],
  envelopes: ['createEnvelope', 'updateEnvelopeSettings', 'sendEnvelope', 'getEnvelope', 'sendNow', 'deleteEnvelope', 'getEnvelopeHistory', 'getEnvelopeDownload', 'listEnvelopes', 'moveEnvelope', 'voidEnvelope'],
  participants: ['syncParticipants', 'correctParticipant', 'listParticipants', 'approveParticipant', 'refuseParticipant', 'remindParticipant'],
  documents: ['registerDocument', 'putFields', 'listDocuments', 'listFields', 'confirmConversion', 'findAnchors', 'getDocumentDownloadUrl', 'validateSealedDocument'],
  contacts: ['createContact', 'listContacts', 'getContact', 'updateContact', 'patchContact', 'deleteContact', 'listContactEnvelopes', 'listContactLists', 'getContactList'],
  team: ['listGroups', 'listMembers'],
  folders: ['listFolders', 'createFolder', 'listFolderContent', 'getFolderAccess', 'deleteFolder', 'renameFolder', 'moveFolder'],
  invites: ['listInvites'],
  webhooks: ['createWebhook', 'listWebhooks', 'updateWebhook', 'deleteWebhook', 'listWebhookDeliveries', 'getWebhookDelivery', 'resendWebhookDelivery', 'rotateWebhookSecret'],
  templates: ['listTemplates', 'getTemplate', 'createEnvelopeFromTemplate', 'findTemplateAnchors'],
  reports: ['listVoidedEnvelopes', 'getEnvelopeReport', 'getUsageByGroup'],
  legacy: ['createEnvelopeV2'],
};

describe('esign api --list', () => {
  it('prints every operation of the table, as many as the contract names, with method, path and Idempotency-Key', async () => {
    const listed = await esignOn(emulator).json<any[]>(['api', '--list']);
    const named = Object.values(contractOperations).flat();
    expect(listed).toHaveLength(named.length);
    expect(listed.map((op) => op.operationId).sort()).toEqual([...named].sort());
    expect(listed.find((op) => op.operationId === 'sendNow')).toEqual({ operationId: 'sendNow', resource: 'envelopes', method: 'POST', path: '/v4/api/envelopes/send-now', idempotencyKey: true, paginated: false });
    const human = await esign(['api', '--list']);
    expect(human.stdout).toMatch(/createWebhook +POST +\/v4\/api\/webhooks\/ +required/);
  });
});

describe('esign api: every operation of the table answers', () => {
  it('walks the operation table: each operation is called through esign api and answers as the contract says', async () => {
    const dir = tempDir();
    const file = (name: string, content: string | Uint8Array) => {
      writeFileSync(join(dir, name), content);
      return name;
    };
    const sent = await createSentEnvelope(emulator, { title: 'Coverage' });
    const toVoid = await createSentEnvelope(emulator, { title: 'Coverage void' });
    const draft = await readyDraft(emulator, [{ name: 'Ada Signer', email: 'ada@example.test' }], { title: 'Coverage draft' });
    const documentId = (await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/documents`)).body.data[0].documentId;
    const toSend = await readyDraft(emulator, [{ name: 'Ada Signer', email: 'ada@example.test' }], { title: 'Coverage send' });
    const toDelete = await createDraft(emulator, { title: 'Coverage delete' });
    const docxDraft = await createDraft(emulator, { title: 'Coverage docx' });
    const docx = await addDocument(emulator, docxDraft.id, minimalDocx(['Letter', 'Sign: {{sign}}']), { fileName: 'letter.docx', contentType: DOCX });
    const approvals = async () => {
      const envelope = await createDraft(emulator, { title: 'Coverage approval' });
      const [approver] = await syncParticipants(emulator, envelope.id, [
        { name: 'Ann Approver', email: 'ann@example.test', role: 'APPROVER', signingOrder: 1 },
        { name: 'Sid Signer', email: 'sid@example.test', signingOrder: 2 },
      ]);
      await uploadPdf(emulator, envelope.id);
      await waitUntil(() => call(emulator, 'GET', `/v4/api/envelopes/${envelope.id}`), (answer) => answer.body.documents.every((d: any) => d.status === 'READY'), 'ready');
      await send(emulator, envelope.id);
      return { envelopeId: envelope.id as string, approverId: approver.id as string };
    };
    const toApprove = await approvals();
    const toRefuse = await approvals();
    const folders = (await call(emulator, 'GET', '/v4/api/folders/')).body.data;
    const contact = expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Cov Contact', email: 'cov@example.test' } }), 201).body;
    const doomedContact = expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Doomed', email: 'doomed@example.test' } }), 201).body;
    const contactList = (await call(emulator, 'GET', '/v4/api/contact-lists/')).body.data[0];
    const folder = expectStatus(await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'Coverage' } }), 201).body;
    const doomedFolder = expectStatus(await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'Doomed' } }), 201).body;
    const group = (await call(emulator, 'GET', '/v4/api/team/groups')).body.data[0];
    const receiver = { url: `${emulator.url}/_emulator/health` };
    const webhook = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body: { url: 'http://127.0.0.1:9/unreachable', events: ['ENVELOPE_VOIDED'], isActive: true } }), 201).body;
    const doomedWebhook = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body: { url: 'https://hooks.example.com/x', events: ['ENVELOPE_VOIDED'], isActive: true } }), 201).body;
    await call(emulator, 'POST', `/v4/api/envelopes/${toVoid.id}/void`, { body: { reason: 'Coverage' } });
    const delivery: any = await waitUntil(async () => (await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries`)).body.data[0], Boolean, 'a delivery');
    const template = (await call(emulator, 'GET', '/v4/api/templates/')).body.data[0];
    const templateFull = (await call(emulator, 'GET', `/v4/api/templates/${template.id}`)).body;
    const templateDocumentId = templateFull.documents[0].documentId ?? templateFull.documents[0].id;
    const templateParticipants = templateFull.participants.map((participant: any, index: number) => ({
      templateParticipantId: participant.templateParticipantId,
      name: `Person ${index}`,
      email: `person${index}@example.test`,
      deliveryMethod: 'EMAIL',
    }));
    const searches = JSON.stringify({ searches: [{ key: 'sign', text: 'sign' }] });

    const cases: Record<string, string[]> = {
      getMe: ['getMe'],
      getAccount: ['GET', '/v4/api/account'],
      getEffectiveCapabilities: ['getEffectiveCapabilities'],
      getCapabilityCatalog: ['getCapabilityCatalog'],
      listApiCalls: ['listApiCalls', '-F', 'limit=5'],
      createEnvelope: ['createEnvelope', '-f', 'title=Via api'],
      listEnvelopes: ['GET', '/v4/api/envelopes/?status=SENT'],
      getEnvelope: ['getEnvelope', '-f', `envelopeId=${sent.id}`],
      updateEnvelopeSettings: ['PATCH', `/v4/api/envelopes/${draft.id}/settings`, '-f', 'title=Renamed'],
      deleteEnvelope: ['deleteEnvelope', '-f', `envelopeId=${toDelete.id}`],
      sendEnvelope: ['sendEnvelope', '-f', `envelopeId=${toSend.id}`, '--input', file('empty.json', '{}')],
      sendNow: [
        'sendNow',
        '--input',
        file(
          'send-now.json',
          JSON.stringify({
            title: 'Via api',
            participants: [{ ref: 'ada', name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
            documents: [{ ref: 'main', fileName: 'a.pdf', contentType: 'application/pdf' }],
            fields: [{ type: 'SIGNATURE', documentRef: 'main', signatoryRef: 'ada', pageNumber: 1, position: { x: 72, y: 72 }, size: { width: 100, height: 30 } }],
          }),
        ),
      ],
      voidEnvelope: ['voidEnvelope', '-f', `envelopeId=${sent.id}`, '-f', 'reason=Covered'],
      getEnvelopeHistory: ['getEnvelopeHistory', '-f', `envelopeId=${sent.id}`],
      getEnvelopeDownload: ['getEnvelopeDownload', '-f', `envelopeId=${sent.id}`],
      moveEnvelope: ['moveEnvelope', '-f', `envelopeId=${draft.id}`, '-f', `folderId=${folders[0].id}`],
      syncParticipants: ['syncParticipants', '-f', `envelopeId=${docxDraft.id}`, '--input', file('participants.json', JSON.stringify({ participants: [] }))],
      listParticipants: ['listParticipants', '-f', `envelopeId=${sent.id}`],
      correctParticipant: ['correctParticipant', '-f', `envelopeId=${toApprove.envelopeId}`, '-f', `participantId=${toApprove.approverId}`, '-f', 'name=Ann A. Approver'],
      approveParticipant: ['approveParticipant', '-f', `envelopeId=${toApprove.envelopeId}`, '-f', `participantId=${toApprove.approverId}`, '--input', file('empty2.json', '{}')],
      refuseParticipant: ['refuseParticipant', '-f', `envelopeId=${toRefuse.envelopeId}`, '-f', `participantId=${toRefuse.approverId}`, '-f', 'reason=Not mine'],
      remindParticipant: ['remindParticipant', '-f', `envelopeId=${toApprove.envelopeId}`, '-f', `participantId=${(await call(emulator, 'GET', `/v4/api/envelopes/${toApprove.envelopeId}`)).body.participants[1].id}`, '--input', 'empty.json'],
      registerDocument: ['registerDocument', '-f', `envelopeId=${draft.id}`, '-f', 'fileName=more.pdf', '-f', 'contentType=application/pdf'],
      listDocuments: ['listDocuments', '-f', `envelopeId=${draft.id}`],
      putFields: ['putFields', '-f', `envelopeId=${draft.id}`, '-f', `documentId=${documentId}`, '--input', file('fields.json', JSON.stringify({ fields: [] }))],
      listFields: ['listFields', '-f', `envelopeId=${draft.id}`, '-f', `documentId=${documentId}`],
      confirmConversion: ['confirmConversion', '-f', `envelopeId=${docxDraft.id}`, '-f', `documentId=${docx.documentId}`, '--input', 'empty.json'],
      findAnchors: ['findAnchors', '-f', `envelopeId=${draft.id}`, '-f', `documentId=${documentId}`, '--input', file('searches.json', searches)],
      getDocumentDownloadUrl: ['getDocumentDownloadUrl', '-f', `envelopeId=${draft.id}`, '-f', `documentId=${documentId}`],
      validateSealedDocument: ['validateSealedDocument', '--input', file('plain.pdf', await simplePdf({ pages: [['Not sealed']] }))],
      createContact: ['createContact', '-f', 'name=Api Contact', '-f', 'email=api.contact@example.test'],
      listContacts: ['listContacts'],
      getContact: ['getContact', '-f', `contactId=${contact.id}`],
      updateContact: ['PUT', `/v4/api/contacts/${contact.id}`, '-f', 'name=Cov Two', '-f', 'email=cov@example.test'],
      patchContact: ['patchContact', '-f', `contactId=${contact.id}`, '-F', 'company=null'],
      deleteContact: ['DELETE', `/v4/api/contacts/${doomedContact.id}`],
      listContactEnvelopes: ['listContactEnvelopes', '-f', `contactId=${contact.id}`],
      listContactLists: ['listContactLists'],
      getContactList: ['getContactList', '-f', `listId=${contactList.id}`],
      listGroups: ['listGroups'],
      listMembers: ['listMembers', '-f', `groupId=${group.id}`],
      listFolders: ['GET', '/v4/api/folders'],
      createFolder: ['createFolder', '-f', 'name=Api folder'],
      listFolderContent: ['listFolderContent', '-f', `folderId=${folders[0].id}`],
      getFolderAccess: ['getFolderAccess', '-f', `folderId=${folder.id}`],
      renameFolder: ['renameFolder', '-f', `folderId=${folder.id}`, '-f', 'name=Coverage 2'],
      deleteFolder: ['deleteFolder', '-f', `folderId=${doomedFolder.id}`],
      moveFolder: ['moveFolder', '-f', `folderId=${folder.id}`, '-F', `parentId=null`],
      listInvites: ['listInvites'],
      createWebhook: ['createWebhook', '--input', file('webhook.json', JSON.stringify({ url: receiver.url, events: ['ENVELOPE_COMPLETED'], isActive: false }))],
      listWebhooks: ['listWebhooks'],
      updateWebhook: ['updateWebhook', '-f', `webhookId=${webhook.id}`, '-F', 'isActive=false'],
      deleteWebhook: ['deleteWebhook', '-f', `webhookId=${doomedWebhook.id}`],
      listWebhookDeliveries: ['listWebhookDeliveries', '-f', `webhookId=${webhook.id}`],
      getWebhookDelivery: ['getWebhookDelivery', '-f', `webhookId=${webhook.id}`, '-f', `deliveryId=${delivery.id}`],
      resendWebhookDelivery: ['POST', `/v4/api/webhooks/${webhook.id}/deliveries/${delivery.id}/resend`, '--input', 'empty.json'],
      rotateWebhookSecret: ['rotateWebhookSecret', '-f', `webhookId=${webhook.id}`, '--input', 'empty.json'],
      listTemplates: ['listTemplates'],
      getTemplate: ['getTemplate', '-f', `templateId=${template.id}`],
      createEnvelopeFromTemplate: ['createEnvelopeFromTemplate', '-f', `templateId=${template.id}`, '--input', file('from-template.json', JSON.stringify({ title: 'From template', participants: templateParticipants, send: false }))],
      findTemplateAnchors: ['findTemplateAnchors', '-f', `templateId=${template.id}`, '-f', `documentId=${templateDocumentId}`, '--input', 'searches.json'],
      listVoidedEnvelopes: ['listVoidedEnvelopes'],
      getEnvelopeReport: ['getEnvelopeReport', '-f', `envelopeId=${sent.id}`],
      getUsageByGroup: ['getUsageByGroup'],
      createEnvelopeV2: ['createEnvelopeV2', '--input', 'empty.json'],
    };
    expect(Object.keys(cases).sort()).toEqual(operations.map((op) => op.id).sort());

    const answered: Record<string, string> = {};
    for (const op of operations) {
      const result = await esign(['api', ...cases[op.id]!, '--include'], { cwd: dir });
      const status = /^HTTP (\d+)/.exec(result.stdout)?.[1] ?? `exit ${result.code}: ${result.stderr.split('\n')[0]}`;
      answered[op.id] = status;
    }
    const expected = Object.fromEntries(
      operations.map((op) => {
        if (op.id === 'createEnvelopeV2') return [op.id, expect.stringContaining('INVALID_SESSION_TOKEN')];
        return [op.id, expect.stringMatching(/^20[014]$/)];
      }),
    );
    // The legacy /v2 create takes a session token, never an API key: it answers 401 INVALID_SESSION_TOKEN, as documented.
    expect(answered).toEqual(expected);
  }, 300_000);
});

describe('esign api: fields, placeholders, pagination, dry run, refusals', () => {
  it('-F types values, {placeholders} come from fields, --paginate follows every page, and a short envelope id resolves', async () => {
    const folder = await esignOn(emulator).json(['api', 'createFolder', '-f', 'name=Typed']);
    const moved = await esign(['api', 'moveFolder', '-f', `folderId=${folder.id}`, '-F', 'parentId=null']);
    expect(parseJson(moved.stdout)).toMatchObject({ id: folder.id, parentId: null });
    const all = await esign(['api', 'listFolders', '-F', 'limit=1', '--paginate']);
    // Every page, as `--all --json` prints a list: one array of the rows.
    const rows = parseJson<{ id: string }[]>(all.stdout);
    expect(rows.length).toBeGreaterThan(2);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);

    const envelope = await createSentEnvelope(emulator, { title: 'Short id' });
    const short = await esign(['api', 'getEnvelope', '-f', `envelopeId=${envelope.id.slice(0, 13)}`]);
    expect(short.code, short.stderr).toBe(0);
    expect(parseJson(short.stdout)).toMatchObject({ id: envelope.id });
  });

  it('fills {placeholders} of a METHOD path from fields, builds arrays from key[]=value, and reads -F key=@- from standard input, as gh api does', async () => {
    const envelope = await createDraft(emulator, { title: 'Placeholder' });
    const byPlaceholder = await esign(['api', 'GET', '/v4/api/envelopes/{envelopeId}', '-f', `envelopeId=${envelope.id}`]);
    expect(byPlaceholder.code, byPlaceholder.stderr).toBe(0);
    expect(parseJson(byPlaceholder.stdout)).toMatchObject({ id: envelope.id, title: 'Placeholder' });
    const renamed = await esign(['api', 'GET', '/v4/api/envelopes/{id}/history', '-f', `id=${envelope.id}`, '-F', 'limit=1']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(parseJson<any>(renamed.stdout).data).toHaveLength(1);
    const unfilled = await esign(['api', 'GET', '/v4/api/envelopes/{envelopeId}']);
    expect(unfilled.code).toBe(2);
    expect(unfilled.stderr).toContain('PATH_PARAMETER_MISSING: getEnvelope needs {envelopeId}.');
    const unsafe = await esign(['api', 'GET', '/v4/api/envelopes/{envelopeId}', '-f', 'envelopeId=../me']);
    expect(unsafe.code, unsafe.stderr).toBe(2);

    const created = await esign(['api', 'createWebhook', '-f', 'url=https://hooks.example.com/arrays', '-f', 'events[]=ENVELOPE_COMPLETED', '-f', 'events[]=ENVELOPE_VOIDED', '-F', 'isActive=false']);
    expect(created.code, created.stderr).toBe(0);
    expect(parseJson(created.stdout)).toMatchObject({ url: 'https://hooks.example.com/arrays', events: ['ENVELOPE_COMPLETED', 'ENVELOPE_VOIDED'], isActive: false });
    const inQuery = await esign(['api', 'listFolders', '-f', 'limit[]=3']);
    expect(inQuery.code).toBe(2);
    expect(inQuery.stderr).toContain('FIELD_INVALID: limit[]: a query parameter of listFolders takes one value');

    const contact = await esign(['api', 'createContact', '-F', 'name=@-', '-f', 'email=stdin.contact@example.test'], { input: 'Ada From Stdin' });
    expect(contact.code, contact.stderr).toBe(0);
    expect(parseJson(contact.stdout)).toMatchObject({ name: 'Ada From Stdin', email: 'stdin.contact@example.test' });
    const twice = await esign(['api', 'createContact', '-F', 'name=@-', '-F', 'company=@-', '-f', 'email=x@example.test'], { input: 'x' });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('STDIN_TWICE: Standard input is read once, but -F name=@- and -F company=@- each ask for it.');
  });

  it('an answer without content (204) is null with --json, so stdout holds one JSON document; a person is told it had none', async () => {
    const contact = async (email: string) => (await esignOn(emulator).json<{ id: string }>(['api', 'createContact', '-f', 'name=Gone Soon', '-f', `email=${email}`])).id;
    const asJson = await esign(['--json', 'api', 'deleteContact', '-f', `contactId=${await contact('gone.json@example.test')}`]);
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(asJson.stdout).toBe('null\n');
    const human = await esign(['api', 'deleteContact', '-f', `contactId=${await contact('gone.human@example.test')}`]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain('deleteContact: HTTP 204, no content.');
  });

  it('refuses a device as an input (-F x=@/dev/zero, --input /dev/zero) with exit 2 before reading it, sending nothing', async () => {
    for (const [args, what] of [
      [['api', 'createEnvelope', '-F', 'title=@/dev/zero'], '-F title=@/dev/zero is a device, not a regular file'],
      [['api', 'createEnvelope', '--input', '/dev/zero'], '--input /dev/zero is a device, not a regular file'],
    ] as const) {
      const result = await esign([...args]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`INPUT_UNREADABLE: ${what}`);
    }
  });

  it('--dry-run prints the request (even a GET) with the key redacted and an Idempotency-Key where one is needed, and sends nothing', async () => {
    const before = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=1')).body.data[0].id;
    const dry = await esign(['--dry-run', 'api', 'createWebhook', '-f', 'url=https://hooks.example.com/dry', '-f', 'events=ENVELOPE_COMPLETED', '-F', 'isActive=true', '-H', 'X-Trace: abc']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(parseJson(dry.stdout)).toEqual({
      dryRun: true,
      operationId: 'createWebhook',
      method: 'POST',
      url: `${emulator.url}/v4/api/webhooks/`,
      headers: expect.objectContaining({ authorization: 'Bearer [REDACTED]', 'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/), 'x-trace': 'abc' }),
      body: { url: 'https://hooks.example.com/dry', events: 'ENVELOPE_COMPLETED', isActive: true },
    });
    const get = await esign(['--dry-run', 'api', 'GET', '/v4/api/me']);
    expect(parseJson(get.stdout)).toMatchObject({ method: 'GET', url: `${emulator.url}/v4/api/me` });
    expect(dry.stdout + get.stdout).not.toContain(emulator.key);
    // The api-calls log of the key shows nothing new: nothing reached the service.
    const after = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=2')).body.data;
    expect(after[1].id).toBe(before);
  });

  it('refuses, before sending: an unknown operation, a URL instead of a path, a missing placeholder, Authorization in -H, a bad --input', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{"title": ');
    const checks: [string[], RegExp][] = [
      [['api', 'getEnvelop'], /No operation "getEnvelop"[\s\S]*Did you mean getEnvelope/],
      [['api', 'GET', 'https://evil.example.com/v4/api/me'], /Give the path only, not a URL/],
      [['api', 'GET', '/v4/api/nothing-here'], /No operation GET \/v4\/api\/nothing-here/],
      [['api', 'getEnvelope'], /getEnvelope needs \{envelopeId\}[\s\S]*-f envelopeId=<id>/],
      [['api', 'getMe', '-H', 'Authorization: Bearer x'], /-H Authorization is not accepted/],
      [['api', 'createEnvelope', '--input', 'bad.json'], /--input bad.json: not JSON/],
      [['api', 'getMe', '--paginate'], /--paginate: getMe is not a list/],
    ];
    for (const [args, message] of checks) {
      const result = await esign(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });

  it('refuses an -H that esign owns, that would change where the request goes, or that is not a valid header: exit 2 at once, nothing sent', async () => {
    // The log shows a call once it is answered: this read is the next entry, and the one before it stays second.
    const before = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=1')).body.data[0]?.id;
    const checks: [string[], RegExp][] = [
      [['-H', 'x-account-id: 1'], /-H x-account-id is not accepted[\s\S]*never sends x-account-id/],
      [['-H', 'X-Trace: abc', '-H', 'HOST: evil.example.com'], /-H HOST is not accepted[\s\S]*origin it is bound to/],
      [['-H', 'X-Forwarded-Host: evil.example.com'], /-H X-Forwarded-Host is not accepted/],
      [['-H', 'Cookie: session=1'], /-H Cookie is not accepted/],
      [['-H', 'Proxy-Authorization: Basic eA=='], /-H Proxy-Authorization is not accepted[\s\S]*ESIGN_API_KEY/],
      [['-H', 'Content-Length: 5'], /-H Content-Length is not accepted[\s\S]*frames the request/],
      [['-H', 'transfer-encoding: chunked'], /-H transfer-encoding is not accepted/],
      [['-H', 'Connection: close'], /-H Connection is not accepted/],
      [['-H', 'Idempotency-Key: k-12345678'], /-H Idempotency-Key is not accepted[\s\S]*--idempotency-key/],
      [['-H', 'X-Foo: a\u0001'], /-H X-Foo: the value "a\\u0001" holds a character a header cannot carry/],
      [['-H', 'X-Foo: a\r\nX-Injected: 1'], /-H X-Foo: the value "a\\r\\nX-Injected: 1" holds a character/],
      [['-H', 'X-Foo: a\n'], /-H X-Foo: the value "a\\n" holds a character/],
      [['-H', 'X Foo: a'], /-H "X Foo": not a valid header name/],
      [['-H', 'no colon'], /-H "no colon": expected "Name: value"/],
      [['-H', ': value'], /-H ": value": expected "Name: value"/],
    ];
    for (const [headers, message] of checks) {
      const result = await esign(['api', 'getMe', ...headers]);
      expect(result.code, headers.join(' ')).toBe(2);
      expect(result.stderr, headers.join(' ')).toMatch(message);
      expect(result.stderr).not.toMatch(/NETWORK_ERROR|at .*\.js:\d+/);
    }
    // The api-calls log of the key shows nothing new: not one of them reached the service.
    const after = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=2')).body.data;
    expect(after[1]?.id).toBe(before);
  });

  it('refuses a path that a URL parser would read as another host or quietly rewrite, and a method the API does not take: exit 2, nothing sent', async () => {
    const before = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=1')).body.data[0]?.id;
    const asUrl = /API_PATH_IS_URL: Give the path only, not a URL/;
    const checks: [string[], RegExp][] = [
      [['GET', '//evil.example.com/v4/api/me'], asUrl],
      [['GET', '/\\evil.example.com/v4/api/me'], asUrl],
      [['GET', '\\\\evil.example.com/v4/api/me'], asUrl],
      [['GET', '/%2F%2Fevil.example.com/v4/api/me'], asUrl],
      [['GET', '%2f%2fevil.example.com/v4/api/me'], asUrl],
      [['GET', '/%5Cevil.example.com/v4/api/me'], asUrl],
      [['GET', 'https%3A//evil.example.com/v4/api/me'], asUrl],
      [['GET', '/v4/api\\me'], /The path "\/v4\/api\\\\me" holds a backslash/],
      [['GET', '/v4/ap\ti/me'], /The path "\/v4\/ap\\ti\/me" holds a space or a control character/],
      [['GET', '/v4/api/me\n'], /holds a space or a control character/],
      [['GET', ' /v4/api/me'], /holds a space or a control character/],
      [['GET', '/v4/api/me\u0001'], /holds a space or a control character/],
      [['GET', '/v4/api/me#top'], /holds a fragment/],
      [['GET', '/v4/api/envelopes/%E0%A4%A'], /has a % that does not start a valid escape/],
      [['TRACE', '/v4/api/me'], /"TRACE" is neither a method of the v4 API \(GET, POST, PUT, PATCH, DELETE\) nor an operationId/],
      [['options', '/v4/api/me'], /"options" is neither a method/],
      [['getMe', '/v4/api/me'], /an operationId takes no path/],
    ];
    for (const [args, message] of checks) {
      const result = await esign(['api', ...args]);
      expect(result.code, JSON.stringify(args)).toBe(2);
      expect(result.stderr, JSON.stringify(args)).toMatch(message);
    }
    const after = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=2')).body.data;
    expect(after[1]?.id).toBe(before);
    // A relative path, percent-escapes and a query are still read as before.
    expect((await esign(['api', 'GET', 'v4/api/me'])).code).toBe(0);
    expect((await esign(['api', 'GET', '/v4/api/contacts/no%20such'])).stderr).toContain('RESOURCE_NOT_FOUND');
    expect(parseJson<{ data: unknown[] }>((await esign(['api', 'GET', '/v4/api/folders/?limit=1'])).stdout).data).toHaveLength(1);
  });

  it('refuses an option it would otherwise ignore or a value given twice, and sends --idempotency-key with any POST', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty.json'), '{}');
    const before = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=1')).body.data[0]?.id;
    const checks: [string[], RegExp][] = [
      [['api', 'listFolders', '--paginate', '--include'], /--paginate and --include cannot be combined/],
      [['api', '--list', 'getMe'], /--list takes nothing else/],
      [['api', '--list', '-H', 'X-Trace: abc'], /--list takes nothing else/],
      [['api', 'getMe', '--input', 'empty.json'], /--input: getMe is a GET, which takes no body/],
      [['api', 'DELETE', '/v4/api/contacts/c1', '--input', 'empty.json'], /--input: deleteContact is a DELETE, which takes no body/],
      [['--idempotency-key', 'k-123456789', 'api', 'getMe'], /--idempotency-key: getMe is a GET; an Idempotency-Key goes with a POST only/],
      [['api', 'getMe', '-H', 'X-Trace: a', '-H', 'x-trace: b'], /-H x-trace is given twice \(also as X-Trace\)/],
      [['api', 'GET', '/v4/api/folders/?limit=5', '-F', 'limit=7'], /limit is given twice/],
      [['api', 'GET', '/v4/api/contacts/c1', '-f', 'contactId=c2'], /contactId is given twice/],
      [['api', 'createFolder', '-f', 'name=a', '-f', 'name=b'], /name is given twice/],
    ];
    for (const [args, message] of checks) {
      const result = await esign(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    const after = (await call(emulator, 'GET', '/v4/api/account/api-calls?limit=2')).body.data;
    expect(after[1]?.id).toBe(before);
    // createFolder needs no Idempotency-Key, but one given is sent: the same key twice is one folder.
    const first = await esignOn(emulator).json(['--idempotency-key', 'k-api-folder-1', 'api', 'createFolder', '-f', 'name=Once']);
    const again = await esignOn(emulator).json(['--idempotency-key', 'k-api-folder-1', 'api', 'createFolder', '-f', 'name=Once']);
    expect(again.id).toBe(first.id);
  });

  it('--include prints the status and headers before the body; with --json, all three in one JSON document', async () => {
    const human = await esign(['api', 'getMe', '--include']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^HTTP 200\n[\s\S]*content-type: application\/json/);
    const json = await esign(['--json', 'api', 'getMe', '--include']);
    expect(json.code, json.stderr).toBe(0);
    expect(parseJson(json.stdout)).toMatchObject({ status: 200, headers: { 'content-type': expect.stringContaining('application/json') }, body: { account: expect.any(Object) } });
  });

  it('API errors keep their exit codes (404 → 4)', async () => {
    const missing = await esign(['api', 'getContact', '-f', 'contactId=no-such-contact']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('RESOURCE_NOT_FOUND');
  });
});
