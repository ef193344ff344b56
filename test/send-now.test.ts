import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { minimalDocx } from './support/documents.js';
import { useEmulator } from './support/emulator.js';
import { getEnvelope, waitUntil } from './support/envelope-flow.js';
import { ndaPdf } from './support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '50']);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-send-now-');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'nda.pdf'), await ndaPdf());
  writeFileSync(join(dir, 'docs', 'letter.docx'), minimalDocx(['Offer letter', 'Candidate signature: {{candidate}}']));
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

function spec(name: string, lines: readonly string[]): string {
  writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  return name;
}

const participantsBlock = [
  'participants:',
  '  - { ref: alice, name: Alice Martin, email: alice@example.com }',
  '  - { ref: bob, name: Bob Stone, email: bob@example.com, signingOrder: 2 }',
];

async function envelopeCount(): Promise<number> {
  return (expectStatus(await call(emulator, 'GET', '/v4/api/envelopes/?limit=100'), 200).body.data as unknown[]).length;
}

async function requests(): Promise<number> {
  return ((await (await emulator.fetch('/_emulator/request-log')).json()) as { requests: number }).requests;
}

describe('envelopes send-now', () => {
  it('creates the envelope in one call, uploads its documents and with --wait follows it until SENT', async () => {
    const file = spec('envelope.yaml', [
      'title: Mutual NDA',
      'message: Please sign',
      'deadline: 14d',
      ...participantsBlock,
      'documents:',
      '  - { ref: nda, file: docs/nda.pdf }',
      'fields:',
      '  - type: SIGNATURE',
      '    documentRef: nda',
      '    participantRef: alice',
      '    anchor: { text: "{{signature}}", occurrence: 1, offset: { x: 0, y: -20 } }',
      '    size: { width: 150, height: 30 }',
      '  - type: SIGNATURE',
      '    documentRef: nda',
      '    participantRef: bob',
      '    anchor: { text: "{{signature}}", occurrence: 2, offset: { x: 0, y: -20 } }',
      '    size: { width: 150, height: 30 }',
      '  - type: TEXT',
      '    documentRef: nda',
      '    participantRef: bob',
      '    pageNumber: 1',
      '    position: { x: 300, y: 700 }',
      '    size: { width: 120, height: 20 }',
    ]);
    const result = await esign(['--json', 'envelopes', 'send-now', '--file', file, '--wait']);
    expect(result.stderr).not.toContain('✗');
    expect(result.code).toBe(0);
    const envelope = parseJson<{ id: string; status: string; title: string; deadline: string; participants: { name: string; status: string }[] }>(result.stdout);
    expect(envelope).toMatchObject({ status: 'SENT', title: 'Mutual NDA' });
    expect(Date.parse(envelope.deadline) - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    expect(envelope.participants.map((participant) => [participant.name, participant.status])).toEqual([
      ['Alice Martin', 'NOTIFIED'],
      ['Bob Stone', 'PENDING'],
    ]);
    const [document] = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents`), 200).body.data;
    expect(document).toMatchObject({ fileName: 'nda.pdf', status: 'READY' });
    const fields = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents/${document.documentId}/fields`), 200).body.fields;
    expect(fields).toHaveLength(3);
    const log = (await (await emulator.fetch('/_emulator/request-log')).json()) as { authorizationOnSignedAddresses: number };
    expect(log.authorizationOnSignedAddresses).toBe(0);
  });

  it('without --wait returns once the documents are uploaded; the service sends the envelope when they are processed', async () => {
    const file = spec('positions.yaml', [
      'title: Positions only',
      ...participantsBlock,
      'documents:',
      '  - { ref: nda, file: docs/nda.pdf, fileName: Agreement.pdf }',
      'fields:',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: alice, pageNumber: 1, position: { x: 72, y: 600 }, size: { width: 150, height: 30 } }',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: bob, pageNumber: 1, position: { x: 300, y: 600 }, size: { width: 150, height: 30 } }',
    ]);
    const result = await esign(['--json', 'env', 'send-now', '-f', file]);
    expect(result.code).toBe(0);
    const created = parseJson<{ id: string; documents: { fileName: string; documentId: string }[] }>(result.stdout);
    expect(created.documents).toEqual([expect.objectContaining({ fileName: 'Agreement.pdf' })]);
    expect(JSON.stringify(created)).not.toContain('uploadUrl');
    const sent = await waitUntil(() => getEnvelope(emulator, created.id), (envelope) => envelope.status !== 'DRAFT', 'the envelope to be sent');
    expect(sent.status).toBe('SENT');
  });

  it('catches an anchor missing from the PDF before sending: exit 5, the place in the spec, no envelope created', async () => {
    const file = spec('missing-anchor.yaml', [
      'title: Will not be sent',
      ...participantsBlock,
      'documents:',
      '  - { ref: nda, file: docs/nda.pdf }',
      'fields:',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: alice, anchor: { text: "{{signature}}" }, size: { width: 150, height: 30 } }',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: bob, anchor: { text: "{{witness}}" }, size: { width: 150, height: 30 } }',
    ]);
    const before = await envelopeCount();
    const result = await esign(['envelopes', 'send-now', '--file', file, '--wait']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('PREFLIGHT_FAILED: Not sent: the service would void this envelope (1 problem)');
    expect(result.stderr).toContain('missing-anchor.yaml:9:5: ANCHOR_NOT_FOUND: anchor text "{{witness}}" not found in nda.pdf');
    expect(await envelopeCount()).toBe(before);
  });

  it('catches a field leaving the page before sending (exit 5)', async () => {
    const file = spec('off-page.yaml', [
      'title: Off the page',
      ...participantsBlock,
      'documents:',
      '  - { ref: nda, file: docs/nda.pdf }',
      'fields:',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: alice, pageNumber: 1, position: { x: 500, y: 780 }, size: { width: 150, height: 30 } }',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: bob, pageNumber: 3, position: { x: 72, y: 100 }, size: { width: 150, height: 30 } }',
    ]);
    const before = await envelopeCount();
    const result = await esign(['--json', 'envelopes', 'send-now', '--file', file]);
    expect(result.code).toBe(5);
    const { error } = parseJson<{ error: { details: { problems: { where: string; code: string }[]; warnings: { code: string }[] } } }>(result.stderr);
    expect(error.details.problems.map((problem) => [problem.where, problem.code])).toEqual([
      ['off-page.yaml:8:5', 'FIELD_GEOMETRY_INVALID'],
      ['off-page.yaml:9:5', 'FIELD_PAGE_OUT_OF_BOUNDS'],
    ]);
    // Their signatures are refused, not missing: no "signer without a signature" besides.
    expect(error.details.warnings.map((warning) => warning.code)).not.toContain('SIGNER_WITHOUT_SIGNATURE');
    expect(await envelopeCount()).toBe(before);
  });

  it('warns (without refusing) about a signer who has no SIGNATURE field', async () => {
    const file = spec('no-signature.yaml', [
      'title: Bob only fills in the date',
      ...participantsBlock,
      'documents:',
      '  - { ref: nda, file: docs/nda.pdf }',
      'fields:',
      '  - { type: SIGNATURE, documentRef: nda, participantRef: alice, anchor: { text: "{{signature}}" }, size: { width: 150, height: 30 } }',
      '  - { type: TEXT, documentRef: nda, participantRef: bob, pageNumber: 1, position: { x: 300, y: 600 }, size: { width: 100, height: 20 } }',
    ]);
    const result = await esign(['envelopes', 'send-now', '--file', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('SIGNER_WITHOUT_SIGNATURE: signer Bob Stone has no SIGNATURE field');
  });

  it('reports the cancellationReason when the service voids the envelope ("On failure the envelope is voided"), exit 5', async () => {
    // A .docx cannot be searched offline: the service finds the anchor missing after conversion and voids.
    const file = spec('docx.yaml', [
      'title: Offer',
      'participants:',
      '  - { ref: candidate, name: Casey Candidate, email: casey@example.com }',
      'documents:',
      '  - { ref: offer, file: docs/letter.docx }',
      'fields:',
      '  - { type: SIGNATURE, documentRef: offer, participantRef: candidate, anchor: { text: "{{employer}}" }, size: { width: 150, height: 30 } }',
    ]);
    const result = await esign(['envelopes', 'send-now', '--file', file, '--wait', '--confirm-conversion']);
    expect(result.stderr).toContain('Fields on document offer are not checked offline: a .docx is converted by the service');
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/ENVELOPE_VOIDED: The service voided envelope [0-9a-f-]+: .*\{\{employer\}\}/);
  });

  describe('the spec is checked before anything is sent (exit 2, file:line:column)', () => {
    const cases: [string, string[], string][] = [
      [
        'a field naming an unknown participant',
        ['title: T', ...participantsBlock, 'documents:', '  - { ref: nda, file: docs/nda.pdf }', 'fields:', '  - { type: SIGNATURE, documentRef: nda, participantRef: carol, pageNumber: 1, position: { x: 1, y: 1 }, size: { width: 10, height: 10 } }'],
        'unknown-ref.yaml:8:58: no participant has ref "carol" (fields[0].participantRef)',
      ],
      [
        'a document file that does not exist',
        ['title: T', ...participantsBlock, 'documents:', '  - { ref: nda, file: docs/missing.pdf }'],
        'missing-file.yaml:6:23: no such file',
      ],
      [
        '"Exactly one of (pageNumber + position) or anchor per field"',
        ['title: T', ...participantsBlock, 'documents:', '  - { ref: nda, file: docs/nda.pdf }', 'fields:', '  - { type: SIGNATURE, documentRef: nda, participantRef: alice, pageNumber: 1, size: { width: 10, height: 10 } }'],
        'half-position.yaml:8:77: fields[0].pageNumber: pageNumber needs position {x, y} with it',
      ],
      [
        '"At most 20 fields with anchor per call"',
        [
          'title: T',
          ...participantsBlock,
          'documents:',
          '  - { ref: nda, file: docs/nda.pdf }',
          'fields:',
          ...Array.from({ length: 21 }, () => '  - { type: INITIALS, documentRef: nda, participantRef: alice, anchor: { text: "{{signature}}" }, size: { width: 10, height: 10 } }'),
        ],
        'too-many-anchors.yaml:8:3: 21 fields use an anchor; send-now takes at most 20',
      ],
      [
        '"SMS and WHATSAPP need phoneNumber"',
        ['title: T', 'participants:', '  - { ref: a, name: A, email: a@example.com, deliveryMethod: sms }', 'documents:', '  - { ref: nda, file: docs/nda.pdf }'],
        'sms.yaml:3:62: participants[0].deliveryMethod: phoneNumber (E.164) is required when deliveryMethod is SMS',
      ],
      ['a deadline in the past', ['title: T', 'deadline: 2020-01-01T00:00:00Z', ...participantsBlock, 'documents:', '  - { ref: nda, file: docs/nda.pdf }'], 'past.yaml:2:11: "2020-01-01T00:00:00Z" is in the past'],
      [
        'a deadline on a day that does not exist (not rolled into March)',
        ['title: T', 'deadline: 2030-02-30', ...participantsBlock, 'documents:', '  - { ref: nda, file: docs/nda.pdf }'],
        'no-such-day.yaml:2:11: "2030-02-30" is not a valid date: February 2030 has 28 days',
      ],
      [
        'a relative deadline past the last four-digit year',
        ['title: T', 'deadline: 99999999d', ...participantsBlock, 'documents:', '  - { ref: nda, file: docs/nda.pdf }'],
        'far-deadline.yaml:2:11: "99999999d" is after 9999-12-31T23:59:59.999Z',
      ],
    ];
    const names = ['unknown-ref.yaml', 'missing-file.yaml', 'half-position.yaml', 'too-many-anchors.yaml', 'sms.yaml', 'past.yaml', 'no-such-day.yaml', 'far-deadline.yaml'];
    cases.forEach(([rule, lines, expected], index) => {
      it(rule, async () => {
        spec(names[index]!, lines);
        const before = await requests();
        const result = await esign(['envelopes', 'send-now', '--file', names[index]!]);
        expect(result.stderr).toContain(expected);
        expect(result.code).toBe(2);
        expect(await requests()).toBe(before);
      });
    });
  });
});
