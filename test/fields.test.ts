import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIELD_ID_NAMESPACE } from '../src/input/fields.js';
import { findAnchors as matchText } from '../src/pdf/anchors.js';
import { loadPdfText } from '../src/pdf/text.js';
import { uuidV5 } from '../src/shared/uuid.js';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { addDocument, draftWithSigners } from './support/documents.js';
import { useEmulator } from './support/emulator.js';
import { baselineOfLine, HELVETICA_ASCENT, manyOccurrencesPdf, ndaPdf, noTextPdf, REPEATED_WORD, TEXT_LAYOUT } from './support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);
let dir: string;

/** Top of the text on NDA line `line`, as anchors find it. */
const textTop = (line: number): number => baselineOfLine(line) - HELVETICA_ASCENT * TEXT_LAYOUT.fontSize;

beforeAll(async () => {
  dir = tempDir('esign-fields-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
  writeFileSync(join(dir, 'scan.pdf'), await noTextPdf());
  writeFileSync(join(dir, 'initials.pdf'), await manyOccurrencesPdf(201));
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

function write(name: string, lines: readonly string[]): string {
  writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  return name;
}

async function requests(): Promise<number> {
  return ((await (await emulator.fetch('/_emulator/request-log')).json()) as { requests: number }).requests;
}

interface Setup {
  envelopeId: string;
  documentId: string;
  signer: string;
  other: string;
}

async function setup(): Promise<Setup> {
  const { envelopeId, participantIds } = await draftWithSigners(emulator);
  const document = await addDocument(emulator, envelopeId, await ndaPdf());
  expect(document.status).toBe('READY');
  return { envelopeId, documentId: document.documentId, signer: participantIds[0]!, other: participantIds[1]! };
}

describe('fields put', () => {
  it('derives stable ids from envelope, document and position in the file, so a second run updates instead of creating', async () => {
    const { envelopeId, documentId, signer, other } = await setup();
    write('fields.yaml', [
      'fields:',
      `  - participantId: ${signer}`,
      '    type: SIGNATURE',
      '    anchor: { text: "{{signature}}", occurrence: 1 }',
      '    size: { width: 150, height: 30 }',
      `  - participantId: ${other}`,
      '    type: TEXT',
      '    pages: [1]',
      '    position: { x: 72, y: 500 }',
      '    size: { width: 120, height: 20 }',
      '    properties: { label: Date }',
    ]);
    const first = await esign(['fields', 'put', envelopeId, documentId, '--file', 'fields.yaml']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe('created 2, updated 0, deleted 0');

    const second = await esign(['--json', 'fields', 'put', envelopeId, documentId, '-f', 'fields.yaml']);
    expect(second.code).toBe(0);
    expect(parseJson(second.stdout)).toEqual({ created: 0, updated: 2, deleted: 0 });

    const listed = await esign(['--json', 'fields', 'list', envelopeId, documentId]);
    const { fields } = parseJson<{ fields: { id: string; type: string; pages: number[]; position: { x: number; y: number } }[] }>(listed.stdout);
    expect(fields.map((field) => field.id).sort()).toEqual(
      [0, 1].map((index) => uuidV5(`${envelopeId}:${documentId}:${index}`, FIELD_ID_NAMESPACE)).sort(),
    );
    // "Reading fields returns resolved coordinates as whole points."
    expect(fields.find((field) => field.type === 'SIGNATURE')).toMatchObject({ pages: [1], position: { x: 72, y: Math.round(textTop(7)) } });

    const human = await esign(['fields', 'list', envelopeId, documentId]);
    expect(human.stdout).toMatch(/ID\s+TYPE\s+PARTICIPANT\s+PAGES\s+X,Y\s+SIZE/);
    expect(human.stdout).toMatch(/TEXT\s+\S+\s+1\s+72,500\s+120×20/);
  });

  it('keeps ids given in the file, reads JSON and standard input, and an empty list deletes every field', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const id = '0b7f3c1e-2a4d-4c8e-9f10-1234567890ab';
    const json = JSON.stringify([{ id, participantId: signer, type: 'INITIALS', pages: [1], position: { x: 400, y: 700 }, size: { width: 40, height: 20 } }]);
    writeFileSync(join(dir, 'fields.json'), json);
    expect((await esign(['fields', 'put', envelopeId, documentId, '--file', 'fields.json'])).stdout.trim()).toBe('created 1, updated 0, deleted 0');
    const listed = parseJson<{ fields: { id: string }[] }>((await esign(['--json', 'fields', 'list', envelopeId, documentId])).stdout);
    expect(listed.fields.map((field) => field.id)).toEqual([id]);
    const emptied = await esign(['fields', 'put', envelopeId, documentId, '--file', '-'], { input: 'fields: []\n' });
    expect(emptied.stdout.trim()).toBe('created 0, updated 0, deleted 1');
  });

  it('on 422 ANCHOR_NOT_FOUND lists each missing anchor with its place in the file, exit 5, nothing stored', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const file = write('missing-anchor.yaml', [
      `- participantId: ${signer}`,
      '  type: SIGNATURE',
      '  anchor: { text: "{{signature}}" }',
      '  size: { width: 150, height: 30 }',
      `- participantId: ${signer}`,
      '  type: INITIALS',
      '  anchor: { text: "{{initials}}" }',
      '  size: { width: 40, height: 20 }',
    ]);
    const result = await esign(['fields', 'put', envelopeId, documentId, '--file', file]);
    expect(result.code).toBe(5);
    const missingId = uuidV5(`${envelopeId}:${documentId}:1`, FIELD_ID_NAMESPACE);
    expect(result.stderr).toContain('422 ANCHOR_NOT_FOUND');
    expect(result.stderr).toContain(`anchor not found: field ${missingId} text "{{initials}}"`);
    expect(result.stderr).toContain(`missing-anchor.yaml:5:3 (field ${missingId})`);
    const listed = parseJson<{ fields: unknown[] }>((await esign(['--json', 'fields', 'list', envelopeId, documentId])).stdout);
    expect(listed.fields).toEqual([]);
  });

  describe('client-side checks: exit 2 with file:line:column, nothing sent', () => {
    const signer = 'participant-1';
    const cases: [string, string[], string][] = [
      [
        '"Each field carries exactly one of (pages + position) or anchor; both ... gives 400"',
        ['fields:', `  - participantId: ${signer}`, '    type: SIGNATURE', '    pages: [1]', '    position: { x: 1, y: 1 }', '    anchor: { text: "x" }', '    size: { width: 10, height: 10 }'],
        'both.yaml:6:13: fields[0].anchor: give either pages + position or anchor, not both',
      ],
      [
        '"... or neither gives 400"',
        ['fields:', `  - participantId: ${signer}`, '    type: SIGNATURE', '    size: { width: 10, height: 10 }'],
        'neither.yaml:2:5: fields[0]: give pages + position, or anchor',
      ],
      [
        '"size is always required"',
        ['fields:', `  - participantId: ${signer}`, '    type: SIGNATURE', '    pages: [1]', '    position: { x: 1, y: 1 }'],
        'no-size.yaml:2:5: fields[0]: size {width, height} is required (PDF points)',
      ],
      [
        '"CHECKBOX_GROUP and RADIO_GROUP do not accept anchor"',
        ['fields:', `  - participantId: ${signer}`, '    type: RADIO_GROUP', '    anchor: { text: "x" }', '    size: { width: 10, height: 10 }'],
        'group-anchor.yaml:4:13: fields[0].anchor: RADIO_GROUP fields take pages + position, not an anchor',
      ],
      [
        '"text to look for, 1 to 200 characters"',
        ['fields:', `  - participantId: ${signer}`, '    type: SIGNATURE', `    anchor: { text: "${'x'.repeat(201)}" }`, '    size: { width: 10, height: 10 }'],
        'long-anchor.yaml:4:21: fields[0].anchor.text: anchor text must be 1 to 200 characters',
      ],
      [
        'a known type: SIGNATURE, INITIALS, TEXT, CHECKBOX_GROUP, RADIO_GROUP',
        ['fields:', `  - participantId: ${signer}`, '    type: STAMP', '    pages: [1]', '    position: { x: 1, y: 1 }', '    size: { width: 10, height: 10 }'],
        'bad-type.yaml:3:11: fields[0].type: must be one of "SIGNATURE", "INITIALS", "TEXT", "CHECKBOX_GROUP", "RADIO_GROUP", found "STAMP"',
      ],
      [
        '"id: string (UUID)"',
        ['fields:', '  - id: field-1', `    participantId: ${signer}`, '    type: TEXT', '    pages: [1]', '    position: { x: 1, y: 1 }', '    size: { width: 10, height: 10 }'],
        'bad-id.yaml:2:9: fields[0].id: id must be a UUID',
      ],
      ['YAML syntax', ['fields:', '  - participantId: [unclosed', '    type: TEXT'], 'syntax.yaml:'],
    ];
    for (const [rule, lines, expected] of cases) {
      it(rule, async () => {
        const name = expected.split(':')[0]!;
        write(name, lines);
        const before = await requests();
        const result = await esign(['fields', 'put', 'envelope-1', 'document-1', '--file', name]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(expected);
        expect(result.stderr).not.toMatch(/\n\s+at /);
        expect(await requests()).toBe(before);
      });
    }

    it('a missing --file is a usage error', async () => {
      const result = await esign(['fields', 'put', 'envelope-1', 'document-1']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--file is required');
    });
  });
});

describe('fields check --local (offline, no key)', () => {
  const offline = (args: readonly string[]) => runEsign(args, { cwd: dir });

  it('resolves anchors and positions like the service and exits 0, warning about overlapping fields', async () => {
    write('check-ok.yaml', [
      'fields:',
      '  - participantId: alice',
      '    type: SIGNATURE',
      '    anchor: { text: "{{signature}}", occurrence: all }',
      '    size: { width: 150, height: 30 }',
      '  - participantId: alice',
      '    type: TEXT',
      '    pages: [1]',
      `    position: { x: 100, y: ${Math.round(textTop(7))} }`,
      '    size: { width: 50, height: 20 }',
    ]);
    const result = await offline(['--json', 'fields', 'check', '--local', 'nda.pdf', '--file', 'check-ok.yaml']);
    expect(result.code).toBe(0);
    const report = parseJson<{ ok: boolean; fields: { type: string; page: number; x: number; y: number }[]; warnings: { code: string; where: string; message: string }[] }>(result.stdout);
    expect(report.fields.filter((field) => field.type === 'SIGNATURE').map((field) => [field.page, field.x, Math.round(field.y * 100) / 100])).toEqual([
      [1, 72, Math.round(textTop(7) * 100) / 100],
      [1, 72, Math.round(textTop(12) * 100) / 100],
    ]);
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'FIELDS_OVERLAP', where: 'check-ok.yaml:2:5', message: expect.stringContaining('check-ok.yaml:6:5') })]);
    expect(result.stderr).toContain('FIELDS_OVERLAP');
  });

  it('warns about a signer without a SIGNATURE field, from the participants file', async () => {
    write('check-signers.yaml', ['- participantId: p-alice', '  type: SIGNATURE', '  pages: [1]', '  position: { x: 72, y: 600 }', '  size: { width: 150, height: 30 }']);
    write('participants.yaml', [
      'participants:',
      '  - { id: p-alice, name: Alice, email: alice@example.com }',
      '  - { id: p-bob, name: Bob, email: bob@example.com }',
      '  - { id: p-carol, name: Carol, email: carol@example.com, role: APPROVER }',
    ]);
    const result = await offline(['fields', 'check', '--local', 'nda.pdf', '--file', 'check-signers.yaml', '--participants', 'participants.yaml']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('SIGNER_WITHOUT_SIGNATURE: signer Bob has no SIGNATURE field');
    expect(result.stderr).not.toContain('Carol');
    expect(result.stdout).toMatch(/FIELD\s+TYPE\s+PARTICIPANT\s+PAGE/);
    expect(result.stdout).toContain('the service would accept them (1 warning)');
  });

  const refusals: [string, string, string[], string[]][] = [
    [
      '"ANCHOR_NOT_FOUND lists all anchors not found"',
      'nda.pdf',
      ['- { participantId: a, type: SIGNATURE, anchor: { text: "{{nowhere}}" }, size: { width: 10, height: 10 } }'],
      ['refuse-anchor.yaml:1:3: ANCHOR_NOT_FOUND: anchor text "{{nowhere}}" not found in nda.pdf'],
    ],
    [
      '"If position + size ... leaves the page, the answer is 400 FIELD_GEOMETRY_INVALID"',
      'nda.pdf',
      ['- { participantId: a, type: SIGNATURE, pages: [1], position: { x: 550, y: 100 }, size: { width: 150, height: 30 } }'],
      ['refuse-geometry.yaml:1:3: FIELD_GEOMETRY_INVALID: the box at x 550'],
    ],
    [
      '"400 FIELD_PAGE_OUT_OF_BOUNDS: field page beyond the document"',
      'nda.pdf',
      ['- { participantId: a, type: SIGNATURE, pages: [2], position: { x: 72, y: 100 }, size: { width: 150, height: 30 } }'],
      ['refuse-page.yaml:1:3: FIELD_PAGE_OUT_OF_BOUNDS: page 2 is beyond the document, which has 1 page'],
    ],
    [
      '"A PDF without text layer gives DOCUMENT_HAS_NO_TEXT"',
      'scan.pdf',
      ['- { participantId: a, type: SIGNATURE, anchor: { text: "{{signature}}" }, size: { width: 10, height: 10 } }'],
      ['scan.pdf: DOCUMENT_HAS_NO_TEXT'],
    ],
    [
      '"At most 200 fields generated by anchors in one PUT, else 422 ANCHOR_TOO_MANY_MATCHES"',
      'initials.pdf',
      [`- { participantId: a, type: INITIALS, anchor: { text: ${REPEATED_WORD}, occurrence: all }, size: { width: 10, height: 10 } }`],
      ['ANCHOR_TOO_MANY_MATCHES: anchors would generate 201 fields'],
    ],
  ];
  for (const [rule, pdf, lines, expected] of refusals) {
    it(`exits 5 when the service would refuse: ${rule}`, async () => {
      const name = `refuse-${rule.includes('ANCHOR_NOT') ? 'anchor' : rule.includes('GEOMETRY') ? 'geometry' : rule.includes('PAGE_OUT') ? 'page' : rule.includes('NO_TEXT') ? 'scan' : 'many'}.yaml`;
      write(name, lines);
      const result = await offline(['fields', 'check', '--local', pdf, '--file', name]);
      expect(result.code).toBe(5);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('PREFLIGHT_FAILED: The service would refuse these fields (1 problem)');
      for (const text of expected) expect(result.stderr).toContain(text);
    });
  }

  it('reports every problem at once, with the warnings about the fields that could be placed', async () => {
    write('every-problem.yaml', [
      '- { participantId: p-ada, type: SIGNATURE, anchor: { text: NoSuchText }, size: { width: 150, height: 30 } }',
      '- { participantId: p-ada, type: TEXT, pages: [9], position: { x: 72, y: 72 }, size: { width: 100, height: 20 } }',
      '- { participantId: p-bob, type: TEXT, pages: [1], position: { x: 72, y: 600 }, size: { width: 100, height: 20 } }',
      '- { participantId: p-bob, type: TEXT, pages: [1], position: { x: 80, y: 605 }, size: { width: 100, height: 20 } }',
    ]);
    const result = await offline(['--json', 'fields', 'check', '--local', 'nda.pdf', '--file', 'every-problem.yaml']);
    expect(result.code).toBe(5);
    const { details } = parseJson<{ error: { details: { problems: { where: string; code: string }[]; warnings: { code: string }[] } } }>(result.stderr).error;
    expect(details.problems.map((problem) => [problem.where, problem.code])).toEqual([
      ['every-problem.yaml:2:3', 'FIELD_PAGE_OUT_OF_BOUNDS'],
      ['every-problem.yaml:1:3', 'ANCHOR_NOT_FOUND'],
    ]);
    expect(details.warnings.map((warning) => warning.code).sort()).toEqual(['FIELDS_OVERLAP', 'SIGNER_WITHOUT_SIGNATURE']);
    expect(JSON.stringify(details.warnings)).toContain('p-bob');
    expect(JSON.stringify(details.warnings)).not.toContain('p-ada');
  });

  it('with --json the refusal is one JSON error whose details list the problems', async () => {
    const result = await offline(['--json', 'fields', 'check', '--local', 'nda.pdf', '--file', 'refuse-anchor.yaml']);
    expect(result.code).toBe(5);
    expect(parseJson<{ error: unknown }>(result.stderr).error).toMatchObject({
      code: 'PREFLIGHT_FAILED',
      details: { problems: [{ where: 'refuse-anchor.yaml:1:3', code: 'ANCHOR_NOT_FOUND' }], warnings: [] },
    });
  });

  it('needs --local, and a PDF that can be read (exit 2)', async () => {
    expect((await offline(['fields', 'check', '--file', 'check-ok.yaml'])).code).toBe(2);
    writeFileSync(join(dir, 'garbage.pdf'), 'garbage');
    const unreadable = await offline(['fields', 'check', '--local', 'garbage.pdf', '--file', 'check-ok.yaml']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('garbage.pdf: not a readable PDF: ');
    expect(unreadable.stderr.match(/not a readable PDF/g)).toHaveLength(1);
  });
});

describe('fields preview --local', () => {
  it('writes a copy of the PDF with each field drawn as a labelled box where the service would place it', async () => {
    write('preview.yaml', [
      '- participantId: alice',
      '  type: SIGNATURE',
      '  anchor: { text: "{{signature}}", occurrence: 2, offset: { x: 0, y: -4 } }',
      '  size: { width: 150, height: 30 }',
      '- participantId: bob',
      '  type: TEXT',
      '  pages: [1]',
      '  position: { x: 300, y: 600 }',
      '  size: { width: 120, height: 20 }',
    ]);
    const result = await runEsign(['fields', 'preview', '--local', 'nda.pdf', '--file', 'preview.yaml', '--out', 'preview.pdf'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Wrote preview.pdf: 2 field boxes on 1 page.');

    const preview = new Uint8Array(readFileSync(join(dir, 'preview.pdf')));
    expect((await PDFDocument.load(preview)).getPageCount()).toBe(1);
    // Each box carries its label at its top-left corner (2 points inside): find the labels in the text layer.
    const text = await loadPdfText(preview);
    const labels = matchText(text, [
      { key: 'signature', text: 'SIGNATURE alice', occurrence: 'all' },
      { key: 'text', text: 'TEXT bob', occurrence: 'all' },
    ]);
    const at = (key: string) => labels.filter((label) => label.key === key).map((label) => [Math.round(label.x), Math.round(label.y)]);
    expect(at('signature')).toEqual([[74, Math.round(textTop(12) - 4 + 2)]]);
    expect(at('text')).toEqual([[302, 602]]);
  });

  it('refuses to draw fields the service would refuse (exit 5) and writes nothing', async () => {
    write('preview-refused.yaml', ['- { participantId: a, type: SIGNATURE, anchor: { text: "{{nowhere}}" }, size: { width: 10, height: 10 } }']);
    const result = await runEsign(['fields', 'preview', '--local', 'nda.pdf', '--file', 'preview-refused.yaml', '--out', 'never.pdf'], { cwd: dir });
    expect(result.code).toBe(5);
    expect(() => readFileSync(join(dir, 'never.pdf'))).toThrow();
  });
});
