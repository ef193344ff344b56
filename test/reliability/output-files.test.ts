/*
 * Files esign writes for the person (`fields preview --out`, `batch run --journal/--report`) and for itself (config,
 * credentials). Issue #7: "fields preview --out equal to the input destroyed the input; a failed write left a truncated
 * file in place of the old one".
 * An existing target is replaced only with --force, an input never; a failed write leaves the old file as it was.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { beforeEach, describe, expect, it } from 'vitest';
import { runEsign, tempDir, type RunOptions } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { ndaPdf } from '../support/pdfs.js';

const FIELDS = ['- participantId: alice', '  type: SIGNATURE', '  pages: [1]', '  position: { x: 100, y: 100 }', '  size: { width: 150, height: 30 }', ''].join('\n');
const OLD_PREVIEW = 'the preview from yesterday';

let dir: string;
let options: RunOptions;
beforeEach(async () => {
  dir = tempDir('esign-preview-');
  options = { cwd: dir };
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
  writeFileSync(join(dir, 'fields.yaml'), FIELDS);
});

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function preview(out: string, ...extra: string[]) {
  return runEsign(['fields', 'preview', '--local', 'nda.pdf', '--file', 'fields.yaml', '--out', out, ...extra], options);
}

describe('fields preview --out', () => {
  it.each([['nda.pdf'], ['./nda.pdf'], ['fields.yaml']])('--out %s names one of its inputs: refused (exit 2) even with --force, the input unchanged', async (out) => {
    const before = { pdf: sha256(join(dir, 'nda.pdf')), fields: sha256(join(dir, 'fields.yaml')) };
    const result = await preview(out, '--force');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out ${out} is also an input of this command`);
    expect({ pdf: sha256(join(dir, 'nda.pdf')), fields: sha256(join(dir, 'fields.yaml')) }).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['fields.yaml', 'nda.pdf']);
  });

  it('an existing --out without --force: exit 2 naming it, the file unchanged', async () => {
    writeFileSync(join(dir, 'preview.pdf'), OLD_PREVIEW);
    const result = await preview('preview.pdf');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--out preview.pdf already exists');
    expect(result.stderr).toContain('Pass --force to replace it');
    expect(readFileSync(join(dir, 'preview.pdf'), 'utf8')).toBe(OLD_PREVIEW);
  });

  it('an existing --out with --force: replaced by the preview, no temporary file left', async () => {
    writeFileSync(join(dir, 'preview.pdf'), OLD_PREVIEW);
    const result = await preview('preview.pdf', '--force');
    expect(result.code, result.stderr).toBe(0);
    expect((await PDFDocument.load(new Uint8Array(readFileSync(join(dir, 'preview.pdf'))))).getPageCount()).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['fields.yaml', 'nda.pdf', 'preview.pdf']);
  });

  it('a write that fails (ulimit -f) says why, exits 1, and leaves the old preview and no temporary file', async () => {
    writeFileSync(join(dir, 'preview.pdf'), OLD_PREVIEW);
    const result = await runEsign(['fields', 'preview', '--local', 'nda.pdf', '--file', 'fields.yaml', '--out', 'preview.pdf', '--force'], { ...options, fileSizeLimitKiB: 1 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('Cannot write --out preview.pdf: the file is larger than this process may write (ulimit -f) (EFBIG).');
    expect(result.stderr).toContain('Nothing was replaced');
    expect(readFileSync(join(dir, 'preview.pdf'), 'utf8')).toBe(OLD_PREVIEW);
    expect(readdirSync(dir).sort()).toEqual(['fields.yaml', 'nda.pdf', 'preview.pdf']);
  });
});

describe('batch run --journal and --report', () => {
  const SPEC = [
    'version: 1',
    'envelopes:',
    '  - ref: acme',
    '    title: Output files acme',
    '    participants:',
    '      - { ref: ada, name: Ada, email: ada@example.com }',
    '    documents:',
    '      - { ref: nda, file: nda.pdf }',
    '    fields:',
    '      - { type: SIGNATURE, documentRef: nda, participantRef: ada, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }',
    '',
  ].join('\n');
  const emulator = useEmulator();

  async function envelopeCount(): Promise<number> {
    return ((await (await emulator.fetch('/v4/api/envelopes/?limit=100')).json()) as { data: unknown[] }).data.length;
  }

  // Issue #7: "every later writer: journals, reports"; "a target that is one of the command's inputs is refused".
  it.each([
    ['--journal', 'batch.yaml', ['--force']],
    ['--journal', 'nda.pdf', ['--resume']],
    ['--report', 'batch.yaml', ['--force']],
    ['--report', 'nda.pdf', ['--force']],
  ])('%s %s names one of its inputs: refused (exit 2) before any envelope is sent, the inputs unchanged', async (flag, out, extra) => {
    writeFileSync(join(dir, 'batch.yaml'), SPEC);
    const before = { spec: sha256(join(dir, 'batch.yaml')), pdf: sha256(join(dir, 'nda.pdf')) };
    const envelopes = await envelopeCount();
    const result = await runEsign(['batch', 'run', 'batch.yaml', flag, out, ...extra], { ...options, env: emulator.env });
    expect(result.code, result.stderr).toBe(2);
    // A PDF given as the journal to resume is refused as no journal before its path is compared with the inputs.
    expect(result.stderr).toMatch(new RegExp(`${flag} ${out} is (also an input of this command|not a journal esign wrote)`));
    expect({ spec: sha256(join(dir, 'batch.yaml')), pdf: sha256(join(dir, 'nda.pdf')) }).toEqual(before);
    expect(await envelopeCount()).toBe(envelopes);
  });

  it('an existing --report without --force: exit 2 naming it before any envelope is sent, the file unchanged', async () => {
    writeFileSync(join(dir, 'batch.yaml'), SPEC);
    writeFileSync(join(dir, 'junit.xml'), OLD_PREVIEW);
    const envelopes = await envelopeCount();
    const result = await runEsign(['batch', 'run', 'batch.yaml', '--report', 'junit.xml'], { ...options, env: emulator.env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('--report junit.xml already exists');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe(OLD_PREVIEW);
    expect(await envelopeCount()).toBe(envelopes);
  });
});

describe("esign's own files", () => {
  it('a failed write of credentials.json or config.json leaves both as they were, 0600, and no temporary file', async () => {
    const configDir = tempDir('esign-config-');
    const env = { ESIGN_CONFIG_DIR: configDir, ESIGN_NO_KEYRING: '1' };
    const add = (name: string, key: string, fileSizeLimitKiB?: number) =>
      runEsign(['profiles', 'add', name, '--test-key-stdin', '--sandbox-base-url', 'http://127.0.0.1:9'], {
        env,
        input: `${key}\n`,
        ...(fileSizeLimitKiB === undefined ? {} : { fileSizeLimitKiB }),
      });
    const first = await add('first', 'hx_test_firstprofilekey0000000001');
    expect(first.code, first.stderr).toBe(0);
    const files = ['config.json', 'credentials.json'].map((name) => join(configDir, name));
    // Padded past the limit below: the next write of either file cannot fit, whatever it changes.
    const pad = (path: string) => writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), padding: 'x'.repeat(4096) }, null, 2));
    files.forEach(pad);
    const before = files.map(sha256);

    const second = await add('second', 'hx_test_secondprofilekey000000002', 4);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('the file is larger than this process may write (ulimit -f)');
    const set = await runEsign(['profiles', 'set', 'first', '--sandbox-base-url', 'http://127.0.0.1:10'], { env, fileSizeLimitKiB: 4 });
    expect(set.code).not.toBe(0);
    expect(set.stderr).toContain(`Cannot write ${files[0]}: the file is larger than this process may write (ulimit -f)`);

    expect(files.map(sha256)).toEqual(before);
    expect(statSync(files[1]!).mode & 0o777).toBe(0o600);
    expect(readdirSync(configDir).sort()).toEqual(['config.json', 'credentials.json']);
  });
});
