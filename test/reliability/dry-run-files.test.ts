/*
 * `--dry-run` changes nothing: besides the requests it does not send, the files a command would write (--out) are
 * described and not written, after the same checks of the input and the target as a real run.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { createSentEnvelope } from '../support/envelope-flow.js';
import { ndaPdf } from '../support/pdfs.js';

const emulator = useEmulator();
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-dry-run-files-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
  writeFileSync(join(dir, 'fields.yaml'), '- { participantId: alice, type: SIGNATURE, pages: [1], position: { x: 100, y: 100 }, size: { width: 150, height: 30 } }\n');
  writeFileSync(
    join(dir, 'legacy.json'),
    JSON.stringify({
      title: 'Supplier agreement',
      documents: [{ id: 'doc-1', fileName: 'nda.pdf', contentType: 'application/pdf' }],
      signatories: [{ id: 'sig-ada', name: 'Ada Lovelace', email: 'ada@example.test', qualification: 'SES', authMethod: 'EMAIL', signingOrder: 1 }],
      fields: [{ type: 'SIGNATURE', documentId: 'doc-1', signatoryId: 'sig-ada', pageNumber: 1, position: { x: 72, y: 300, width: 180, height: 40 } }],
    }),
  );
});

const esign = (args: readonly string[]) => runEsign(args, { cwd: dir, env: emulator.env });

describe('--dry-run with --out', () => {
  it.each([
    ['fields preview', () => ['fields', 'preview', '--local', 'nda.pdf', '--file', 'fields.yaml', '--out', 'preview.pdf'], 'write preview.pdf with 1 field box'],
    ['batch convert-v2', () => ['batch', 'convert-v2', 'legacy.json', '--out', 'spec.yaml'], 'write the envelope spec to spec.yaml'],
  ])('%s: says what it would write, writes nothing, exit 0', async (_, args, change) => {
    const before = readdirSync(dir).sort();
    const human = await esign(['--dry-run', ...args()]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toContain(`Dry run: would ${change}. Nothing was changed.`);
    const json = await esign(['--json', '--dry-run', ...args()]);
    expect(json.code, json.stderr).toBe(0);
    expect(parseJson(json.stdout)).toMatchObject({ dryRun: true, change });
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('envelopes download: the target is checked as for a real run, nothing is saved', async () => {
    const { id } = await createSentEnvelope(emulator);
    const result = await esign(['--dry-run', 'envelopes', 'download', id, '--out', 'envelope.zip']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`would download the ZIP of envelope ${id} and save it to envelope.zip`);
    expect(existsSync(join(dir, 'envelope.zip'))).toBe(false);
    const onInput = await esign(['--dry-run', 'batch', 'convert-v2', 'legacy.json', '--out', 'legacy.json']);
    expect(onInput.code).toBe(2);
    expect(onInput.stderr).toContain('OUTPUT_IS_INPUT');
  });
});
