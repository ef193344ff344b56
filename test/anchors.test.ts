import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { addDocument, draftWithSigners } from './support/documents.js';
import { useEmulator } from './support/emulator.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { advanceWidth, baselineOfLine, HELVETICA_ASCENT, manyPagesPdf, ndaPdf, noTextPdf, TEXT_LAYOUT } from './support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);
let dir: string;
let envelopeId: string;
let documentId: string;

const textTop = (line: number): number => Math.round((baselineOfLine(line) - HELVETICA_ASCENT * TEXT_LAYOUT.fontSize) * 100) / 100;

interface FindResult {
  pages: { page: number; width: number; height: number; rotate: number }[];
  truncated: boolean;
  matches: { key: string; page: number; x: number; y: number; width: number; height: number }[];
}

let helveticaWidth: (text: string) => number;

beforeAll(async () => {
  const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  helveticaWidth = (text) => advanceWidth(helvetica, text, TEXT_LAYOUT.fontSize);
  dir = tempDir('esign-anchors-');
  const nda = await ndaPdf();
  writeFileSync(join(dir, 'nda.pdf'), nda);
  writeFileSync(join(dir, 'scan.pdf'), await noTextPdf());
  ({ envelopeId } = await draftWithSigners(emulator));
  documentId = (await addDocument(emulator, envelopeId, nda)).documentId;
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

describe('anchors find on an envelope document', () => {
  it('prints page, x, y, width and height of every occurrence ("occurrence defaults to all" for anchors:find)', async () => {
    const result = await esign(['--json', 'anchors', 'find', envelopeId, documentId, '--text', '{{signature}}']);
    expect(result.code).toBe(0);
    const found = parseJson<FindResult>(result.stdout);
    expect(found.truncated).toBe(false);
    expect(found.pages).toEqual([{ page: 1, width: 612, height: 792, rotate: 0 }]);
    expect(found.matches.map((match) => [match.key, match.page, match.x, match.y])).toEqual([
      ['{{signature}}', 1, 72, textTop(7)],
      ['{{signature}}', 1, 72, textTop(12)],
    ]);

    const human = await esign(['anchors', 'find', envelopeId, documentId, '--text', '{{signature}}']);
    expect(human.stdout).toMatch(/KEY\s+PAGE\s+X\s+Y\s+WIDTH\s+HEIGHT/);
    expect(human.stdout).toContain(`{{signature}}  1     72.00  ${textTop(7).toFixed(2)}`);
  });

  it('applies --key, --occurrence N and --offset ("points added to top-left of found text")', async () => {
    const result = await esign(['--json', 'anchor', 'find', envelopeId, documentId, '--text', '{{signature}}', '--key', 'second', '--occurrence', '2', '--offset', '10,-12']);
    expect(result.code).toBe(0);
    expect(parseJson<FindResult>(result.stdout).matches).toEqual([expect.objectContaining({ key: 'second', page: 1, x: 82, y: Math.round((textTop(12) - 12) * 100) / 100 })]);
  });

  it('"A key with no occurrence is simply absent from matches": exit 0, and a warning names it', async () => {
    const result = await esign(['--json', 'anchors', 'find', envelopeId, documentId, '--text', '{{nowhere}}', '--text', 'Date:', '--whole-word']);
    expect(result.code).toBe(0);
    expect(parseJson<FindResult>(result.stdout).matches.map((match) => match.key)).toEqual(['Date:', 'Date:']);
    expect(result.stderr).toContain('No match for "{{nowhere}}"');
  });

  it('reads the searches from --file, each with its own options', async () => {
    writeFileSync(join(dir, 'searches.yaml'), ['searches:', '  - { key: sig, text: "{{SIGNATURE}}", caseSensitive: true }', '  - { key: first-sig, text: "{{signature}}", occurrence: first }', ''].join('\n'));
    const result = await esign(['--json', 'anchors', 'find', envelopeId, documentId, '--file', 'searches.yaml']);
    expect(result.code).toBe(0);
    expect(parseJson<FindResult>(result.stdout).matches.map((match) => [match.key, match.y])).toEqual([['first-sig', textTop(7)]]);
  });

  it('refuses bad searches before sending anything (exit 2)', async () => {
    writeFileSync(join(dir, 'bad-searches.yaml'), ['- text: "{{signature}}"', '- text: ""', ''].join('\n'));
    const fromFile = await esign(['anchors', 'find', envelopeId, documentId, '--file', 'bad-searches.yaml']);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain('bad-searches.yaml:2:9: [1].text: anchor text must be 1 to 200 characters');
    const keys = await esign(['anchors', 'find', envelopeId, documentId, '--text', 'a', '--text', 'b', '--key', 'only-one']);
    expect(keys.code).toBe(2);
    expect(keys.stderr).toContain('1 --key for 2 --text');
    const duplicate = await esign(['anchors', 'find', envelopeId, documentId, '--text', 'a', '--text', 'a']);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('is used twice');
    const empty = await esign(['anchors', 'find', envelopeId, documentId, '--text', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('text must be 1 to 200 characters');
    // The key nobody gave is not reported; a long text is named by its first 100 characters.
    expect(empty.stderr).not.toContain('.key must');
    const long = await esign(['anchors', 'find', envelopeId, documentId, '--text', 'x'.repeat(150)]);
    expect(long.code, long.stderr).toBe(0);
    for (const offset of ['0x10,0', '1e1,0', ',5', '1,2,3']) {
      const bad = await esign(['anchors', 'find', envelopeId, documentId, '--text', 'x', '--offset', offset]);
      expect(bad.code, offset).toBe(2);
      expect(bad.stderr).toContain('expected x,y in points');
    }
    const nothing = await esign(['anchors', 'find', envelopeId, documentId]);
    expect(nothing.code).toBe(2);
    expect((await esign(['anchors', 'find', envelopeId, '--text', 'x'])).code).toBe(2);
  });
});

describe('anchors find on a document still processing ("409 DOCUMENT_NOT_READY")', () => {
  const slow = useEmulator(['--processing-delay', '2000']);

  it('repeats the search until the document is processed, saying so once', async () => {
    const { envelopeId: slowEnvelope } = await draftWithSigners(slow);
    const registered = expectStatus(await call(slow, 'POST', `/v4/api/envelopes/${slowEnvelope}/documents`, { body: { fileName: 'nda.pdf', contentType: 'application/pdf' } }), 201).body;
    const upload = await fetch(registered.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: await ndaPdf() });
    expect(upload.ok).toBe(true);
    const result = await runEsign(['anchors', 'find', slowEnvelope, registered.documentId, '--text', '{{signature}}'], { cwd: dir, env: slow.env });
    expect(result.code).toBe(0);
    expect(result.stdout.match(/\{\{signature\}\}\s+1\s+72\.00/g)).toHaveLength(2);
    expect(result.stderr.match(/The document is not processed yet; trying again for up to 30s\./g)).toHaveLength(1);
  });
});

describe('anchors find --template', () => {
  it('searches a template document (findTemplateAnchors)', async () => {
    const templates = expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body.data as { id: string; name: string }[];
    const nda = templates.find((template) => template.name === 'Mutual NDA')!;
    const template = expectStatus(await call(emulator, 'GET', `/v4/api/templates/${nda.id}`), 200).body;
    const templateDocument: string = template.documents[0].documentId;
    const result = await esign(['--json', 'anchors', 'find', '--template', nda.id, templateDocument, '--text', '{{signature}}', '--text', '{{missing}}']);
    expect(result.code).toBe(0);
    const found = parseJson<FindResult>(result.stdout);
    expect(found.matches).toEqual([expect.objectContaining({ key: '{{signature}}', page: 1 })]);
    expect(result.stderr).toContain('No match for "{{missing}}"');

    const unknown = await esign(['anchors', 'find', '--template', nda.id, '00000000-0000-4000-8000-000000000000', '--text', 'x']);
    expect(unknown.code).toBe(4);

    // The positional is a document id here: a short hex one goes to the template route as given, never looked up as an envelope prefix.
    const short = await esign(['anchors', 'find', '--template', nda.id, 'deadbeef00', '--text', 'x']);
    expect(short.code).toBe(4);
    expect(short.stderr).not.toContain('No envelope id starts with');
  });

  it('takes a unique envelope id prefix of 8+ characters for an envelope document', async () => {
    const result = await esign(['anchors', 'find', envelopeId.slice(0, 8), documentId, '--text', '{{signature}}']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`is envelope ${envelopeId}`);
    expect(result.stdout).toMatch(/\{\{signature\}\}\s+1\s/);
  });
});

describe('anchors find --local (offline, no key)', () => {
  const offline = (args: readonly string[]) => runEsign(args, { cwd: dir });

  it('runs the same matcher as the service and prints the same JSON', async () => {
    const args = ['--text', '{{signature}}', '--text', 'Signed by:', '--text', '{{nowhere}}', '--offset', '0,-5'];
    const local = await offline(['--json', 'anchors', 'find', '--local', 'nda.pdf', ...args]);
    expect(local.code).toBe(0);
    const remote = await esign(['--json', 'anchors', 'find', envelopeId, documentId, ...args]);
    expect(parseJson(local.stdout)).toEqual(parseJson(remote.stdout));
    expect(parseJson<FindResult>(local.stdout).matches).toHaveLength(4);
    expect(local.stderr).toContain('No match for "{{nowhere}}"');
  });

  it('a PDF without text layer: DOCUMENT_HAS_NO_TEXT, exit 5, as the service answers', async () => {
    const result = await offline(['anchors', 'find', '--local', 'scan.pdf', '--text', '{{signature}}']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('DOCUMENT_HAS_NO_TEXT');
  });

  it('a long document is read on two threads with the same result: every page, in page order, at the drawn place', async () => {
    // 40 pages: past the size where a worker thread helps (src/pdf/text.ts PARALLEL_MIN_PAGES).
    writeFileSync(join(dir, 'long.pdf'), await manyPagesPdf(40, (page) => `page ${page} {{initials}}`));
    const result = await offline(['--json', 'anchors', 'find', '--local', 'long.pdf', '--text', '{{initials}}']);
    expect(result.code).toBe(0);
    const { matches } = parseJson<FindResult>(result.stdout);
    expect(matches.map((match) => match.page)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    for (const [index, match] of matches.entries()) {
      expect(match.x).toBeCloseTo(TEXT_LAYOUT.left + helveticaWidth(`page ${index + 1} `), 1);
      expect(match.y).toBe(textTop(0));
    }
    // "occurrence N" is the N-th in the whole document, whichever thread read its page.
    const nth = await offline(['--json', 'anchors', 'find', '--local', 'long.pdf', '--text', '{{initials}}', '--occurrence', '25']);
    expect(parseJson<FindResult>(nth.stdout).matches).toEqual([matches[24]]);
  });

  it('takes no envelope, document or --template with --local; a missing file is exit 2', async () => {
    expect((await offline(['anchors', 'find', 'e', 'd', '--local', 'nda.pdf', '--text', 'x'])).code).toBe(2);
    const missing = await offline(['anchors', 'find', '--local', 'missing.pdf', '--text', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing.pdf: no such file');
  });
});
