/**
 * `esign batch convert-v2`: legacy `POST /v2/envelopes/` bodies, the same ones the emulator's /v2 route takes, become
 * v4 specs that `batch validate` accepts; the envelope `batch run` makes from the spec has the participants, fields and
 * deadline the legacy route gives the same body; what has no v4 counterpart is listed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { call, expectStatus } from './support/api-call.js';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { simplePdf } from './support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);
let dir: string;
let pdf: Uint8Array;

beforeAll(async () => {
  dir = tempDir('esign-convert-');
  pdf = await simplePdf({ pages: [['Supplier agreement', '', 'Signatures below.'], ['Page two']] });
  writeFileSync(join(dir, 'agreement.pdf'), pdf);
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

/** A body as a /v2 integration sends it: two signatories (one by SMS), an observer, three placed fields. */
function legacyBody(documentId: string = randomUUID(), overrides: Record<string, unknown> = {}) {
  return {
    title: 'Supplier agreement',
    message: 'Please sign the supplier agreement.',
    documents: [{ id: documentId, fileName: 'agreement.pdf', contentType: 'application/pdf' }],
    signatories: [
      { id: 'sig-ada', name: 'Ada Lovelace', email: 'ada@example.test', qualification: 'SES', authMethod: 'EMAIL', signingOrder: 1 },
      { id: 'sig-bob', name: 'Bob Stone', email: 'bob@example.test', qualification: 'AES', authMethod: 'SMS', phoneNumber: '+33612345678', signingOrder: 2 },
    ],
    observers: [{ email: 'legal@example.test', notifyOnSent: true }],
    fields: [
      { type: 'SIGNATURE', documentId, signatoryId: 'sig-ada', pageNumber: 1, position: { x: 72, y: 300, width: 180, height: 40 } },
      { type: 'SIGNATURE', documentId, signatoryId: 'sig-bob', pageNumber: 2, position: { x: 72, y: 400, width: 180, height: 40 } },
      { type: 'TEXT', documentId, signatoryId: 'sig-bob', pageNumber: 2, position: { x: 300, y: 400, width: 120, height: 18 }, properties: { label: 'Company' } },
    ],
    ...overrides,
  };
}

function writeJson(name: string, value: unknown): string {
  writeFileSync(join(dir, name), JSON.stringify(value, null, 2));
  return name;
}

async function waitForStatus(envelopeId: string, status: string): Promise<Record<string, any>> {
  for (let tries = 0; tries < 200; tries++) {
    const envelope = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}`), 200).body;
    if (envelope.status === status) return envelope;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`envelope ${envelopeId} never became ${status}`);
}

/** The placed fields of an envelope's only document, as the v4 API lists them, in a comparable form. */
async function placedFields(envelopeId: string, participantIds: Record<string, string>): Promise<unknown[]> {
  const documents = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents`), 200).body.data as { documentId: string }[];
  const fields = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${documents[0]!.documentId}/fields`), 200).body.fields as Record<string, any>[];
  return fields
    .map((field) => ({ participant: participantIds[field.participantId], type: field.type, pages: field.pages, position: field.position, size: field.size, label: field.properties?.label }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('batch convert-v2', () => {
  it('turns a legacy body into a spec that validates, and lists what has no v4 counterpart', async () => {
    const legacy = writeJson('legacy.json', { ...legacyBody(), callbackUrl: 'https://example.test/hook' });
    const converted = await esign(['--json', 'batch', 'convert-v2', legacy]);
    expect(converted.code, converted.stderr).toBe(0);
    const { spec, notConverted } = parseJson<{ spec: Record<string, any>; notConverted: { path: string; reason: string }[] }>(converted.stdout);
    // signatories → participants, authMethod → deliveryMethod; position {x, y, width, height} → position + size.
    expect(spec.participants).toEqual([
      { ref: 'sig-ada', name: 'Ada Lovelace', email: 'ada@example.test', deliveryMethod: 'EMAIL', role: 'SIGNER', signingOrder: 1 },
      { ref: 'sig-bob', name: 'Bob Stone', email: 'bob@example.test', deliveryMethod: 'SMS', phoneNumber: '+33612345678', role: 'SIGNER', signingOrder: 2 },
    ]);
    expect(spec.fields[2]).toEqual({ type: 'TEXT', documentRef: expect.any(String), participantRef: 'sig-bob', pageNumber: 2, position: { x: 300, y: 400 }, size: { width: 120, height: 18 }, properties: { label: 'Company' } });
    // The legacy contract: "Without `deadline`, the signing deadline is 7 days after creation".
    expect(spec.deadline).toBe('7d');
    expect(notConverted.map((item) => item.path)).toEqual(['callbackUrl', 'signatories[0].qualification', 'signatories[1].qualification', 'observers[0]']);

    const yaml = await esign(['batch', 'convert-v2', legacy, '--out', 'converted.yaml']);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stderr).toContain('not converted: observers[0]');
    const text = readFileSync(join(dir, 'converted.yaml'), 'utf8');
    expect(text).toMatch(/^# Converted by `esign batch convert-v2`/);
    expect(text).toContain('#   observers[0] = {"email":"legal@example.test","notifyOnSent":true}');
    expect(parse(text)).toEqual(spec);
    const validated = await esign(['--json', 'batch', 'validate', 'converted.yaml']);
    expect(validated.code, validated.stderr).toBe(0);
  });

  it('the envelope batch run makes from the converted spec matches the one the /v2 route makes from the same body', { timeout: 60_000 }, async () => {
    const accountId = expectStatus(await call(emulator, 'GET', '/v4/api/me'), 200).body.account.id as string;
    const body = legacyBody();
    const legacy = expectStatus(
      await call(emulator, 'POST', '/v2/envelopes/', { body, key: false, headers: { authorization: 'Bearer sess_0123456789abcdefXYZ', 'x-account-id': accountId } }),
      201,
    ).body;
    const uploaded = await fetch(legacy.uploadDetails[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf', 'x-emulator-meta-documentid': body.documents[0]!.id }, body: pdf });
    expect(uploaded.status).toBeLessThan(300);
    const fromV2 = await waitForStatus(legacy.envelopeId, 'SENT');

    const converted = await esign(['batch', 'convert-v2', writeJson('same.json', body), '--out', 'same.yaml']);
    expect(converted.code, converted.stderr).toBe(0);
    const ran = await esign(['--json', 'batch', 'run', 'same.yaml', '--wait', 'sent']);
    expect(ran.code, ran.stderr).toBe(0);
    const fromSpec = await waitForStatus(parseJson<{ envelopes: { envelopeId: string }[] }>(ran.stdout).envelopes[0]!.envelopeId, 'SENT');

    const people = (envelope: Record<string, any>) =>
      (envelope.participants as Record<string, any>[]).map(({ name, email, deliveryMethod, phoneNumber, role, signingOrder }) => ({ name, email, deliveryMethod, phoneNumber, role, signingOrder }));
    expect(people(fromSpec)).toEqual(people(fromV2));
    expect({ title: fromSpec.title, message: fromSpec.message }).toEqual({ title: fromV2.title, message: fromV2.message });
    // Both deadlines are 7 days after their creation.
    for (const envelope of [fromV2, fromSpec]) expect(Math.abs(Date.parse(envelope.deadline) - Date.parse(envelope.createdAt) - 7 * 24 * 3600_000)).toBeLessThan(60_000);
    const byName = (envelope: Record<string, any>) => Object.fromEntries((envelope.participants as { id: string; name: string }[]).map((participant) => [participant.id, participant.name]));
    const placed = await placedFields(fromSpec.id, byName(fromSpec));
    expect(placed).toHaveLength(3);
    expect(placed).toEqual(await placedFields(fromV2.id, byName(fromV2)));
  });

  it('refuses what the legacy service refuses, at file:line:column, and writes nothing', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['bad-type.json', legacyBody('d1', { fields: [{ type: 'CHECKBOX', documentId: 'd1', signatoryId: 'sig-ada', pageNumber: 1, position: { x: 1, y: 1, width: 10, height: 10 } }] }), /bad-type\.json:\d+:\d+: fields\[0\]\.type: type must be one of SIGNATURE, INITIALS, TEXT/],
      ['bad-link.json', legacyBody('d1', { fields: [{ type: 'SIGNATURE', documentId: 'd2', signatoryId: 'sig-ada', pageNumber: 1, position: { x: 1, y: 1, width: 10, height: 10 } }] }), /bad-link\.json:\d+:\d+: no document has id "d2" \(fields\[0\]\.documentId\)/],
      ['no-phone.json', legacyBody('d1', { signatories: [{ id: 's', name: 'S', email: 's@example.test', qualification: 'SES', authMethod: 'WHATSAPP' }] }), /no-phone\.json:\d+:\d+: .*phoneNumber \(E\.164\) is required when deliveryMethod is WHATSAPP/],
      ['no-documents.json', legacyBody('d1', { documents: [] }), /no-documents\.json:\d+:\d+: documents: documents needs at least one document/],
    ];
    for (const [name, body, message] of cases) {
      const result = await esign(['batch', 'convert-v2', writeJson(name, body), '--out', `${name}.yaml`]);
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(() => readFileSync(join(dir, `${name}.yaml`))).toThrow();
    }
  });

  it('keeps an existing --out unless --force', async () => {
    const legacy = writeJson('keep.json', legacyBody());
    writeFileSync(join(dir, 'keep.yaml'), 'mine\n');
    const refused = await esign(['batch', 'convert-v2', legacy, '--out', 'keep.yaml']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'keep.yaml'), 'utf8')).toBe('mine\n');
    const forced = await esign(['batch', 'convert-v2', legacy, '--out', 'keep.yaml', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(parse(readFileSync(join(dir, 'keep.yaml'), 'utf8')).title).toBe('Supplier agreement');
  });
});
