import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEsign, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { createDraft, syncParticipants, uploadPdf, waitForDocumentsReady } from './support/envelope-flow.js';

const emulator = useEmulator(['--processing-delay', '20']);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-hints-');
});

function esign(args: readonly string[]) {
  return runEsign(args, { cwd: dir, env: emulator.env });
}

/** An API path shown to a person: a method and a path, or the contract's `.../` shorthand. */
const apiPath = /\b(GET|PUT|POST|PATCH|DELETE) [./]|\.\.\.\/|\/v4\/api/;

describe('error hints name esign commands, never API paths', () => {
  it('sending a draft without participants points at `esign participants set`', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['send', id]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('ENVELOPE_HAS_NO_PARTICIPANTS');
    expect(result.stderr).toContain(`hint: Add participants first: esign participants set ${id} --file participants.yaml`);
    expect(result.stderr).not.toMatch(apiPath);
  });

  it('sending a draft without documents points at `esign documents upload`', async () => {
    const { id } = await createDraft(emulator);
    await syncParticipants(emulator, id, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    const result = await esign(['send', id]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`hint: Upload a document first: esign documents upload ${id} contract.pdf`);
    expect(result.stderr).not.toMatch(apiPath);
  });

  it('a field for someone who is not a participant points at `esign participants list` and `set`', async () => {
    const { id } = await createDraft(emulator);
    await syncParticipants(emulator, id, [{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    const documentId = await uploadPdf(emulator, id);
    await waitForDocumentsReady(emulator, id);
    writeFileSync(
      join(dir, 'fields.yaml'),
      ['fields:', `  - participantId: ${randomUUID()}`, '    type: SIGNATURE', '    pages: [1]', '    position: { x: 100, y: 100 }', '    size: { width: 150, height: 40 }', ''].join('\n'),
    );
    const result = await esign(['fields', 'put', id, documentId, '--file', 'fields.yaml']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('FIELD_PARTICIPANT_UNKNOWN');
    expect(result.stderr).toContain(`esign participants list ${id}`);
    expect(result.stderr).not.toMatch(apiPath);
  });
});
