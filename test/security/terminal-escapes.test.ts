/*
 * Text a server stores and gives back (an envelope's title and message, a participant's name) is shown with its
 * control characters made visible: it cannot clear the screen, retitle the terminal or forge a line of output.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { parseJson, tempDir } from '../support/cli.js';
import { esignOn } from '../support/esign-on.js';
import { useEmulator } from '../support/emulator.js';
import { createSentEnvelope, voidEnvelope } from '../support/envelope-flow.js';
import { ndaPdf } from '../support/pdfs.js';

const title = `Q3 \u001b[2J\u001b]0;pwned\u0007\r✓ Envelope voided\nFORGED LINE \u202eFDP.exe`;
const rawControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

const emulator = useEmulator();
let envelopeId: string;

beforeAll(async () => {
  const created = expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { body: { title, message: `hello\u001b[31m\rsigned` }, idempotent: true }), 201);
  envelopeId = created.body.id ?? created.body.envelopeId;
});

describe('an envelope whose title holds escape sequences (real emulator)', () => {
  it('envelopes get shows the title on its own line, escapes visible', async () => {
    const result = await esignOn(emulator).run(['envelopes', 'get', envelopeId]);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(rawControl);
    expect(result.stdout).toMatch(/^Title: +Q3 \\u001b\[2J\\u001b\]0;pwned\\u0007\\r✓ Envelope voided\\nFORGED LINE \\u202eFDP\.exe$/m);
    expect(result.stdout).toMatch(/^Message: +hello\\u001b\[31m\\rsigned$/m);
    expect(result.stdout).not.toMatch(/^(✓ Envelope voided|FORGED LINE)/m);
  });

  it('envelopes list keeps the row on one line', async () => {
    const result = await esignOn(emulator).run(['envelopes', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(rawControl);
    expect(result.stdout.split('\n').filter((line) => line.includes(envelopeId))).toEqual([expect.stringContaining('Q3 \\u001b[2J')]);
  });

  it('--json gives the title back exactly, escaped by JSON', async () => {
    const result = await esignOn(emulator).run(['envelopes', 'get', envelopeId, '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(rawControl);
    expect(parseJson<{ title: string }>(result.stdout).title).toBe(title);
  });
});

describe('text from the service inside an error message (real emulator)', () => {
  it('stays on the line of the message, with its line breaks made visible, for one envelope and for several', async () => {
    const reason = 'AAA\rBBB\n✓ fake success\u001b[2K';
    const { id } = await createSentEnvelope(emulator);
    await voidEnvelope(emulator, id, reason);
    const other = await createSentEnvelope(emulator);
    await voidEnvelope(emulator, other.id, reason);
    for (const ids of [[id], [id, other.id]]) {
      const result = await esignOn(emulator).run(['envelopes', 'wait', ...ids, '--until', 'SENT']);
      expect(result.code).toBe(5);
      expect(result.stderr).not.toMatch(rawControl);
      expect(result.stderr).not.toMatch(/^✓ fake success/m);
      expect(result.stderr).toContain('(AAA\\rBBB\\n✓ fake success\\u001b[2K)');
    }
  });
});

describe('names a command was given or got back, in its confirmation line (real emulator)', () => {
  it('folders create and rename show the folder name with its escapes visible', async () => {
    const esign = esignOn(emulator);
    const created = await esign.run(['folders', 'create', 'Z\u001b[2J\rY']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).not.toMatch(rawControl);
    expect(created.stderr).toContain('✓ Folder Z\\u001b[2J\\rY created');
    const folderId = /created \(([^)]+)\)/.exec(created.stderr)![1]!;
    const renamed = await esign.run(['folders', 'rename', folderId, '--name', 'W\u009b2J\u202eX']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stderr).not.toMatch(rawControl);
    expect(renamed.stderr).toContain('W\\u009b2J\\u202eX');
  });
});

describe('a batch spec whose text holds control characters', () => {
  it('batch plan shows titles in request bodies and file names with them made visible', async () => {
    const dir = tempDir('esign-escapes-');
    const fileName = 'nda\u001b[2J.pdf';
    writeFileSync(join(dir, fileName), await ndaPdf());
    writeFileSync(
      join(dir, 'spec.yaml'),
      [
        'ref: escapes',
        'title: "Q3 \\u202eFDP\\u2028line\\u0085next"',
        `documents: [{ ref: nda, file: "nda\\e[2J.pdf" }]`,
        'participants: [{ ref: p, name: Pat, email: pat@example.com }]',
        'fields: [{ type: SIGNATURE, documentRef: nda, participantRef: p, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }]',
        '',
      ].join('\n'),
    );
    const result = await esignOn(emulator).run(['batch', 'plan', 'spec.yaml'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/);
    expect(result.stdout).toContain('Q3 \\u202eFDP\\u2028line\\u0085next');
    expect(result.stdout).toContain('nda\\u001b[2J.pdf');
  });
});
