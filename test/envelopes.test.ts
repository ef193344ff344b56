import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { createSentEnvelope, signAll } from './support/envelope-flow.js';
import { parseJson, tempDir, type RunOptions } from './support/cli.js';
import { esignOn } from './support/esign-on.js';
import { useEmulator, type EmulatorProcess } from './support/emulator.js';
import { simplePdf } from './support/pdfs.js';

const emulator = useEmulator();

/** `esign` against the shared emulator, or `{on}` another one. */
function esign(args: readonly string[], options: RunOptions & { on?: EmulatorProcess } = {}) {
  return esignOn(options.on ?? emulator).run(args, options);
}

function esignJson<T = any>(args: readonly string[], options: RunOptions & { on?: EmulatorProcess } = {}): Promise<T> {
  return esignOn(options.on ?? emulator).json<T>(args, options);
}

/** A one-page PDF in a fresh directory, for `esign documents upload`. */
async function pdfDir(): Promise<string> {
  const dir = tempDir();
  writeFileSync(join(dir, 'contract.pdf'), await simplePdf({ pages: [['Please sign below']] }));
  return dir;
}

async function getEnvelope(on: EmulatorProcess, envelopeId: string) {
  return expectStatus(await call(on, 'GET', `/v4/api/envelopes/${envelopeId}`), 200).body;
}

describe("the contract's typical flow: me → create → settings → participants → upload → fields → send → get", () => {
  it('ends with a SENT envelope whose participants are notified', async () => {
    const me = await esignJson(['me']);
    expect(me.environment).toBe('sandbox');

    const draft = await esignJson(['envelopes', 'create', '--title', 'NDA Acme', '--deadline', '7d']);
    expect(draft.status).toBe('DRAFT');
    expect(Date.parse(draft.deadline) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const id: string = draft.id;

    const updated = await esignJson(['env', 'settings', id, '--title', 'NDA Acme v2', '--message', 'Please sign']);
    expect(updated).toMatchObject({ title: 'NDA Acme v2', message: 'Please sign' });

    const dir = tempDir();
    writeFileSync(
      join(dir, 'participants.yaml'),
      ['participants:', '  - name: Ada Lovelace', '    email: ada@example.com', '  - name: Alan Turing', '    email: alan@example.com', '    signingOrder: 2', ''].join('\n'),
    );
    const synced = await esignJson(['participants', 'set', id, '--file', 'participants.yaml'], { cwd: dir });
    expect(synced.participants.map((p: { name: string; role: string; deliveryMethod: string }) => [p.name, p.role, p.deliveryMethod])).toEqual([
      ['Ada Lovelace', 'SIGNER', 'EMAIL'],
      ['Alan Turing', 'SIGNER', 'EMAIL'],
    ]);

    const uploaded = await esignJson(['documents', 'upload', id, 'contract.pdf'], { cwd: await pdfDir() });
    const documentId: string = uploaded.documents[0].documentId;
    const fieldsYaml = synced.participants
      .map(
        (participant: { id: string }, index: number) =>
          `  - participantId: ${participant.id}\n    type: SIGNATURE\n    pages: [1]\n    position: {x: 72, y: ${200 + index * 60}}\n    size: {width: 150, height: 40}\n`,
      )
      .join('');
    writeFileSync(join(dir, 'fields.yaml'), `fields:\n${fieldsYaml}`);
    expect(await esignJson(['fields', 'put', id, documentId, '--file', 'fields.yaml'], { cwd: dir })).toEqual({ created: 2, updated: 0, deleted: 0 });

    const sent = await esign(['send', id]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/Status:\s+SENT/);

    const read = await esignJson(['envelopes', 'get', id]);
    expect(read.status).toBe('SENT');
    expect(read.participants.map((p: { status: string }) => p.status)).toEqual(['NOTIFIED', 'PENDING']);
    expect(read.documents[0]).toMatchObject({ documentId, status: 'READY' });

    const human = await esign(['env', 'get', id]);
    expect(human.stdout).toMatch(/Progress:\s+0\/2 done/);
    expect(human.stdout).toMatch(/Ada Lovelace .*NOTIFIED\s+← their turn/);
    expect(human.stdout).toMatch(/Deadline:\s+in 7 days \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)/);
  }, 120_000);
});

// Processing lasts 8 s, so the send starts while the document is still PROCESSING even on a busy machine.
describe('send: "send can answer 409 ENVELOPE_DOCUMENTS_NOT_READY. The client waits and repeats the same operation with the same Idempotency-Key"', { timeout: 60_000 }, () => {
  const slow = useEmulator(['--processing-delay', '8000']);

  async function draftWithUpload(): Promise<string> {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Slow'], { on: slow });
    await esignJson(['participants', 'set', draft.id, '--add', 'Ada Lovelace <ada@example.com>'], { on: slow });
    const uploaded = await esignJson(['documents', 'upload', draft.id, 'contract.pdf', '--no-wait'], { on: slow, cwd: await pdfDir() });
    expect(uploaded.documents[0].status).toBe('PROCESSING');
    return draft.id;
  }

  it('retries with one Idempotency-Key until the documents are processed, and the envelope ends SENT', async () => {
    const id = await draftWithUpload();
    const result = await esign(['--debug', 'envelopes', 'send', id], { on: slow });
    expect(result.code, result.stderr).toBe(0);
    const keys = [...result.stderr.matchAll(/POST \S+\/send \(sendEnvelope, attempt (\d+)\) Idempotency-Key: (\S+)/g)].map((match) => match[2]);
    expect(keys.length, result.stderr).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(result.stderr).toContain('ENVELOPE_DOCUMENTS_NOT_READY');
    // The lines count the waits really slept: the first says what comes next, the last adds them up.
    const delays = [...result.stderr.matchAll(/! retrying in (\d+) ms/g)].map((match) => Number(match[1]));
    expect(delays).toHaveLength(keys.length - 1);
    expect(result.stderr).toMatch(new RegExp(`Documents still processing; sending again in ${delays[0]}ms with the same Idempotency-Key \\(attempt 2; waited 0ms so far, up to 2m\\)`));
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(result.stderr).toContain(`Sent on attempt ${keys.length}, after waiting ${total < 1000 ? `${total}ms` : `${Math.round(total / 1000)}s`} in all between attempts.`);
    expect((await getEnvelope(slow, id)).status).toBe('SENT');
  });

  it('gives up after --wait-timeout with the 409 (exit 5) and says what to do', async () => {
    const id = await draftWithUpload();
    const result = await esign(['send', id, '--wait-timeout', '300ms'], { on: slow });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('ENVELOPE_DOCUMENTS_NOT_READY');
    expect(result.stderr).toContain('still processing after 300ms');
    expect((await getEnvelope(slow, id)).status).toBe('DRAFT');
  });

  it('does not wait for a document nobody uploaded: exit 2, nothing sent', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'No upload'], { on: slow });
    await esignJson(['participants', 'set', draft.id, '--add', 'Ada Lovelace <ada@example.com>'], { on: slow });
    expectStatus(await call(slow, 'POST', `/v4/api/envelopes/${draft.id}/documents`, { body: { fileName: 'later.pdf', contentType: 'application/pdf' } }), 201);
    const started = Date.now();
    const result = await esign(['--debug', 'send', draft.id], { on: slow });
    expect(result.code).toBe(2);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.stderr).toMatch(/later\.pdf \([0-9a-f-]+\) is AWAITING_UPLOAD/);
    expect(result.stderr).not.toContain('(sendEnvelope, attempt');
    // No operation uploads into an existing registration from the CLI or replaces it: the hint must not loop back
    // to "upload the file"; deleting the draft and creating it again is the way out that works.
    expect(result.stderr).not.toMatch(/upload the file/i);
    expect(result.stderr).toContain(`esign envelopes delete ${draft.id}`);
  });
});

describe('envelopes create and settings', () => {
  it('--idempotency-key: used by create (no warning, a repeat answers the same envelope), said to be unused by get', async () => {
    const key = `k-${randomUUID()}`;
    const first = await esign(['--json', '--idempotency-key', key, 'envelopes', 'create', '--title', 'Keyed']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('--idempotency-key was not used');
    const again = await esign(['--json', '--idempotency-key', key, 'envelopes', 'create', '--title', 'Keyed']);
    expect(parseJson<{ id: string }>(again.stdout).id).toBe(parseJson<{ id: string }>(first.stdout).id);
    const read = await esign(['--idempotency-key', key, 'envelopes', 'get', parseJson<{ id: string }>(first.stdout).id]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain('--idempotency-key was not used: this command sent no request that takes an Idempotency-Key.');
  });

  it('a blank title (create, settings, templates use) is refused naming --title, before anything is sent (exit 2)', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Titled']);
    const requests = async () => ((await (await emulator.fetch('/_emulator/request-log')).json()) as { requests: number }).requests;
    const before = await requests();
    for (const args of [
      ['envelopes', 'create', '--title', '   '],
      ['envelopes', 'settings', draft.id, '--title', ' \t'],
      ['templates', 'use', randomUUID(), '--participants', 'p.yaml', '--title', '  '],
    ]) {
      const result = await esign(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain("option '--title <title>'");
      expect(result.stderr).toContain('the title is blank');
      expect(result.stderr).not.toContain('VALIDATION_ERROR');
    }
    expect(await requests()).toBe(before);
    expect((await getEnvelope(emulator, draft.id)).title).toBe('Titled');
  });

  it('a deadline in the past is refused before anything is sent (exit 2)', async () => {
    const before = await esignJson(['envelopes', 'list', '--all']);
    const result = await esign(['envelopes', 'create', '--title', 'Late', '--deadline', '2020-01-01T00:00:00Z']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('in the past');
    expect(await esignJson(['envelopes', 'list', '--all'])).toHaveLength(before.length);
  });

  it.each([
    ['--deadline 2030-02-30', ['envelopes', 'create', '--deadline', '2030-02-30'], /"2030-02-30" is not a valid date: February 2030 has 28 days/],
    ['--deadline 2029-02-29T00:00:00Z', ['envelopes', 'create', '--deadline', '2029-02-29T00:00:00Z'], /not a valid date: February 2029 has 28 days/],
    ['--deadline 99999999d', ['envelopes', 'create', '--deadline', '99999999d'], /"99999999d" is after 9999-12-31T23:59:59.999Z/],
    ['--created-after 2030-02-30', ['envelopes', 'list', '--created-after', '2030-02-30'], /"2030-02-30" is not a valid date/],
    ['--created-before 2030-04-31', ['envelopes', 'list', '--created-before', '2030-04-31'], /"2030-04-31" is not a valid date: April 2030 has 30 days/],
    ['reports usage --from 2030-02-30', ['reports', 'usage', '--from', '2030-02-30'], /"2030-02-30" is not a valid date/],
    ['reports usage --to 99999999d', ['reports', 'usage', '--to', '99999999d'], /outside 0000-01-01 to 9999-12-31/],
  ])('%s is refused before anything is sent (exit 2), never rolled over', async (_name, args, says) => {
    const before = await esignJson(['envelopes', 'list', '--all']);
    const result = await esign(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(says);
    expect(result.stderr).not.toMatch(/Invalid time value|\n\s+at /);
    expect(await esignJson(['envelopes', 'list', '--all'])).toHaveLength(before.length);
  });

  it('--no-deadline sends deadline null ("nullable on input")', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Dated', '--deadline', '2099-01-01T12:00:00+01:00']);
    expect(draft.deadline).toBe('2099-01-01T11:00:00.000Z');
    const cleared = await esignJson(['envelopes', 'settings', draft.id, '--no-deadline']);
    expect(cleared.deadline).toBeNull();
  });

  it('settings with nothing to change is a usage error', async () => {
    const result = await esign(['envelopes', 'settings', randomUUID()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Nothing to change');
  });
});

describe('envelopes void and delete', () => {
  it('void without --yes and without a terminal: exit 2 naming --yes, envelope unchanged', async () => {
    const { id } = await createSentEnvelope(emulator);
    const result = await esign(['envelopes', 'void', id, '--reason', 'Wrong version']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect((await getEnvelope(emulator, id)).status).toBe('SENT');
  });

  it('void --yes voids with the reason as cancellationReason', async () => {
    const { id } = await createSentEnvelope(emulator);
    const voided = await esignJson(['--yes', 'env', 'void', id, '--reason', 'Wrong version']);
    expect(voided).toMatchObject({ status: 'VOIDED', cancellationReason: 'Wrong version' });
    const history = await esignJson(['envelopes', 'history', id]);
    expect(history.map((entry: { action: string }) => entry.action)).toContain('ENVELOPE_VOIDED');
  });

  it('void needs --reason (exit 2)', async () => {
    const result = await esign(['--yes', 'envelopes', 'void', randomUUID()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--reason is required');
  });

  it('delete: a draft goes (--yes), a sent envelope is refused with 409 ENVELOPE_NOT_DRAFT and a hint to void', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Scratch']);
    expect(await esignJson(['envelopes', 'delete', draft.id, '--yes'])).toEqual({ envelopeId: draft.id, deleted: true });
    const gone = await esign(['envelopes', 'get', draft.id]);
    expect(gone.code).toBe(4);

    const { id } = await createSentEnvelope(emulator);
    const refused = await esign(['-y', 'envelopes', 'delete', id]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('ENVELOPE_NOT_DRAFT');
    expect(refused.stderr).toContain(`esign envelopes void ${id}`);
  });

  it('a status that rules the action out is refused before asking (exit 5), with the way out that fits that status', async () => {
    const { id } = await createSentEnvelope(emulator);
    const sentDelete = await esign(['envelopes', 'delete', id]);
    expect(sentDelete.code).toBe(5);
    expect(sentDelete.stderr).toContain(`Envelope ${id} is SENT; it cannot be deleted.`);
    expect(sentDelete.stderr).toContain(`esign envelopes void ${id}`);
    expect(sentDelete.stderr).not.toContain('--yes');

    const draft = await esignJson(['envelopes', 'create', '--title', 'Not sent']);
    for (const args of [['envelopes', 'void', draft.id, '--reason', 'x'], ['--yes', 'envelopes', 'void', draft.id, '--reason', 'x']]) {
      const draftVoid = await esign(args);
      expect(draftVoid.code).toBe(5);
      expect(draftVoid.stderr).toContain('ENVELOPE_NOT_SENT');
      expect(draftVoid.stderr).toContain(`esign envelopes delete ${draft.id}`);
    }
    expect((await getEnvelope(emulator, draft.id)).status).toBe('DRAFT');

    expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${id}/void`, { body: { reason: 'Cancelled' } }), 200);
    for (const args of [['envelopes', 'delete', id], ['--yes', 'envelopes', 'delete', id]]) {
      const voidedDelete = await esign(args);
      expect(voidedDelete.code).toBe(5);
      expect(voidedDelete.stderr).toContain('a VOIDED envelope has ended and is kept as it ended');
      expect(voidedDelete.stderr).not.toContain('esign envelopes void');
    }
    const again = await esign(['envelopes', 'void', id, '--reason', 'x']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('It was voided already');
  });

  it('delete without --yes and without a terminal: exit 2, the draft stays', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Keep me']);
    const result = await esign(['envelopes', 'delete', draft.id]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Pass --yes');
    expect((await getEnvelope(emulator, draft.id)).status).toBe('DRAFT');
  });
});

describe('envelopes wait: exit 0 when reached, 5 when it ended otherwise, 7 on timeout', () => {
  it('exit 0 once every participant signed and the envelope is COMPLETED', async () => {
    const envelope = await createSentEnvelope(emulator);
    const waiting = esign(['--json', 'envelopes', 'wait', envelope.id, '--until', 'COMPLETED', '--wait-timeout', '30s']);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await signAll(emulator, envelope);
    const result = await waiting;
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson(result.stdout).status).toBe('COMPLETED');
  });

  it('exit 5 when the envelope is voided while waiting for COMPLETED', async () => {
    const { id } = await createSentEnvelope(emulator);
    expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${id}/void`, { body: { reason: 'Cancelled' } }), 200);
    const result = await esign(['--json', 'envelopes', 'wait', id, '--until', 'COMPLETED']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(parseJson(result.stderr)).toMatchObject({ error: { code: 'ENVELOPE_ENDED_OTHERWISE', details: { status: 'VOIDED', cancellationReason: 'Cancelled' } } });
  });

  it('exit 7 when the status is not reached in time', async () => {
    const { id } = await createSentEnvelope(emulator);
    const result = await esign(['envelopes', 'wait', id, '--until', 'COMPLETED', '--wait-timeout', '2s']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('WAIT_TIMEOUT');
    expect(result.stderr).toContain('still SENT after 2s');
  });

  it('several envelopes: a bad id is refused before any is waited for (exit 2), and one that does not exist ends the wait at once (exit 4)', async () => {
    const { id } = await createSentEnvelope(emulator);
    const bad = await esign(['envelopes', 'wait', id, '../x', '--until', 'COMPLETED', '--wait-timeout', '10m']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('INVALID_ID');
    const missing = randomUUID();
    // Without stopping at the 404, this would wait its 10 minutes for the first envelope (and end with exit 7).
    const unknown = await esign(['envelopes', 'wait', id, missing, '--until', 'COMPLETED', '--wait-timeout', '10m']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain(`${missing}: RESOURCE_NOT_FOUND`);
    expect(unknown.stderr).toContain('Stopped waiting for the other one');
  }, 30_000);

  it('--until is required and checked', async () => {
    expect((await esign(['envelopes', 'wait', randomUUID()])).code).toBe(2);
    const bad = await esign(['envelopes', 'wait', randomUUID(), '--until', 'SIGNED']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SENT, COMPLETED, VOIDED');
  });
});

describe('envelopes list', () => {
  const fresh = useEmulator();
  beforeAll(async () => {
    for (const title of ['one', 'two', 'three', 'four', 'five']) await esignJson(['envelopes', 'create', '--title', title], { on: fresh });
  });

  it('"Lists: query limit and cursor; {data, nextCursor}": one page by default (--json: the API\'s page), --all follows every cursor (--json: one array)', async () => {
    const page = await esignJson(['envelopes', 'list', '--limit', '2'], { on: fresh });
    expect(page.data).toHaveLength(2);
    expect(typeof page.nextCursor).toBe('string');

    const next = await esignJson(['envelopes', 'list', '--limit', '2', '--cursor', page.nextCursor], { on: fresh });
    expect(next.data.map((e: { title: string }) => e.title)).toEqual(['three', 'two']);

    const all = await esignJson(['envelopes', 'list', '--limit', '2', '--all'], { on: fresh });
    expect(all.map((e: { title: string }) => e.title)).toEqual(['five', 'four', 'three', 'two', 'one']);

    const human = await esign(['envelopes', 'list', '--limit', '2'], { on: fresh });
    expect(human.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+TITLE\s+DONE\s+DEADLINE\s+CREATED$/);
    expect(human.stderr).toContain('More envelopes: pass --all');
  });

  it('filters by status and refuses a bad --limit before sending', async () => {
    expect((await esignJson(['envelopes', 'list', '--status', 'sent'], { on: fresh })).data).toEqual([]);
    const bad = await esign(['envelopes', 'list', '--limit', '500'], { on: fresh });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('1 to 100');
  });
});

describe('envelopes history, download, move', () => {
  it('history names the API integration, never the key', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Traced']);
    const result = await esign(['envelopes', 'history', draft.id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/API integration/);
    expect(result.stdout + result.stderr).not.toContain(emulator.key);
  });

  it('download prints the signed address, or with --out saves the ZIP', async () => {
    const sent = await createSentEnvelope(emulator);
    await signAll(emulator, sent);
    const { id } = sent;
    const address = await esignJson(['envelopes', 'download', id]);
    expect(address.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(typeof address.expiresAt).toBe('string');

    const dir = tempDir();
    const saved = await esignJson(['envelopes', 'download', id, '--out', 'envelope.zip'], { cwd: dir });
    expect(saved).toMatchObject({ envelopeId: id, file: 'envelope.zip' });
    const zip = readFileSync(join(dir, 'envelope.zip'));
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(saved.bytes).toBe(zip.length);
    const log = (await (await emulator.fetch('/_emulator/request-log')).json()) as { authorizationOnSignedAddresses: number };
    expect(log.authorizationOnSignedAddresses).toBe(0);
  });

  it('download of an envelope not COMPLETED says so, who is still to sign, and needs --unsigned; the file says unsigned', async () => {
    const { id } = await createSentEnvelope(emulator, { participants: [{ name: 'Maria Gonzalez', email: 'maria@acme.example' }] });
    const dir = tempDir();
    const refused = await esign(['envelopes', 'download', id, '--out', 'nda.zip'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Envelope ${id} is SENT, not COMPLETED: its ZIP holds the unsigned documents, not the signed result. Still to sign: Maria Gonzalez <maria@acme.example>.`);
    expect(refused.stderr).toContain('--unsigned');
    expect(readdirSync(dir)).toEqual([]);
    const address = await esign(['envelopes', 'download', id]);
    expect(address.code).toBe(2);
    expect(address.stdout).toBe('');

    const saved = await esign(['envelopes', 'download', id, '--unsigned', '--out', 'nda.zip'], { cwd: dir });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain('is SENT, not COMPLETED');
    expect(saved.stdout).toContain('Saved nda.unsigned.zip');
    expect(readdirSync(dir)).toEqual(['nda.unsigned.zip']);
    const json = await esignJson(['envelopes', 'download', id, '--unsigned']);
    expect(json).toMatchObject({ signed: false, status: 'SENT' });
  });

  it('move puts the envelope in another folder', async () => {
    const folders = expectStatus(await call(emulator, 'GET', '/v4/api/folders/'), 200).body.data as { id: string; name: string }[];
    const hr = folders.find((folder) => folder.name === 'HR')!;
    const draft = await esignJson(['envelopes', 'create', '--title', 'Moving']);
    const moved = await esignJson(['envelopes', 'move', draft.id, '--folder', hr.id]);
    expect(moved.folder).toEqual({ id: hr.id, name: 'HR' });
    const noFolder = await esign(['envelopes', 'move', draft.id]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain('--folder <folderId> is required without an interactive terminal');
  });
});

describe('--json', () => {
  it('a failure leaves stdout empty and puts {error: {status, code, message, details}} on stderr', async () => {
    const result = await esign(['--json', 'envelopes', 'get', randomUUID()]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(parseJson(result.stderr)).toMatchObject({ error: { status: 404, code: 'RESOURCE_NOT_FOUND' } });
  });

  it('create answers the envelope shape of the contract', async () => {
    const draft = await esignJson(['envelopes', 'create', '--title', 'Shape', '--message', 'Hello']);
    expect(draft).toMatchObject({ title: 'Shape', message: 'Hello', status: 'DRAFT', deadline: null });
    expect(Object.keys(draft)).toEqual(expect.arrayContaining(['id', 'createdAt', 'folder', 'sender']));
  });
});
