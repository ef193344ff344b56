/*
 * A hostile server on loopback that echoes the key it was sent in every spelling of test/support/key-encodings.ts
 * (issue #21, item 6): no eight characters of the key's secret part come back from what `me`, `me --json` and
 * `me --debug` print, nor from the JUnit report and journal of a batch run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, tempDir } from '../support/cli.js';
import { startHostileServer, type HostileServer } from '../support/hostile-server.js';
import { keyEncodings, recoveredWindows } from '../support/key-encodings.js';
import { ndaPdf } from '../support/pdfs.js';

const key = 'hx_test_Zq7Lm2Xw9Rt4Kp8Vn3Hy5Bd';
/**
 * A key whose secret part repeats runs of 4 or more characters: each piece the server spreads over the fields but
 * 'lAAAAAr' stands at several places, and only their later places continue one another.
 */
const repeatingKey = 'hx_test_AAAAAAAAAAAAAlAAAAArAAAAAAA';

/** The key cut every 7 characters: the pieces the server spreads over the fields of its answer to `me`. */
const piecesOf = (sentKey: string) => sentKey.match(/.{1,7}/g) ?? [];

/** The answer's JSON text with the key spelt in every encoding, each in a field of its own. */
function echoingEveryEncoding(sentKey: string, shape: (fields: string) => string): string {
  const fields = keyEncodings.map((encoding, index) => `"echo${index}":${encoding.rawJson ? encoding.encode(sentKey) : JSON.stringify(`spelt ${encoding.encode(sentKey)} here`)}`).join(',');
  return shape(fields);
}

let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer((request, response) => {
    const sentKey = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    response.setHeader('content-type', 'application/json');
    if (request.url === '/v4/api/me') {
      // Pieces of the key spread over the fields a human `me` shows, too.
      const [a, b, c, d, e] = piecesOf(sentKey);
      response.end(echoingEveryEncoding(sentKey, (fields) => `{"environment":"sandbox","account":{"id":"${a}","name":"${b}"},"integration":{"id":"${c}","name":"${d}"},"responsibleUser":{"name":"${e}"},${fields}}`));
      return;
    }
    response.statusCode = 400;
    const message = keyEncodings.map((encoding) => (encoding.rawJson ? '' : encoding.encode(sentKey))).join(' | ');
    response.end(echoingEveryEncoding(sentKey, (fields) => `{"error":{"code":"BAD_REQUEST","message":${JSON.stringify(`rejected: ${message}`)},"details":{${fields}}}}`));
  });
});
afterAll(() => server.close());

function expectNoEncodingGivesTheKey(text: string, sentKey = key): void {
  for (const encoding of keyEncodings) expect(recoveredWindows(text, sentKey, encoding), encoding.name).toEqual([]);
  // The pieces of the secret part (4 or more characters) the answer spread over the fields a human reads, whatever
  // order they are shown in.
  const secretPart = sentKey.replace(/^[a-z0-9]+_test_/, '');
  const pieces = piecesOf(sentKey).flatMap((piece) => piece.split('_')).filter((piece) => piece.length >= 4 && secretPart.includes(piece));
  expect(pieces.length).toBeGreaterThan(2);
  for (const piece of pieces) expect(text, piece).not.toContain(piece);
}

describe('a server echoing the key in every encoding', () => {
  async function expectMeClean(args: readonly string[], sentKey = key): Promise<string> {
    const result = await server.esign(args, { env: { ESIGN_API_KEY: sentKey, ESIGN_CONFIG_DIR: tempDir('esign-config-') } });
    expect(result.code, result.stderr).toBe(0);
    expectNoEncodingGivesTheKey(result.stdout + result.stderr, sentKey);
    return result.stdout;
  }

  it('esign me: no encoding gives back eight characters of the secret', async () => {
    await expectMeClean(['me']);
  });

  it('esign me --json: no encoding gives back eight characters of the secret', async () => {
    const stdout = await expectMeClean(['me', '--json']);
    expect(parseJson<{ account: { id: string } }>(stdout).account.id).toBe('hx_test');
  });

  it('esign me --debug: no encoding gives back eight characters of the secret', async () => {
    await expectMeClean(['me', '--debug']);
    await expectMeClean(['me', '--json', '--debug']);
  });

  it('a key whose secret part repeats runs: me, me --json and me --debug show none of its pieces at the later places', async () => {
    await expectMeClean(['me'], repeatingKey);
    expect(parseJson<{ account: { id: string } }>(await expectMeClean(['me', '--json'], repeatingKey)).account.id).toBe('hx_test');
    await expectMeClean(['me', '--debug'], repeatingKey);
  });

  it('batch run: the JUnit report (and the journal) hold no encoding of the key, nor does the output', async () => {
    const dir = tempDir('esign-batch-encodings-');
    writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
    const spec = ['version: 1', 'envelopes:', '  - ref: nda', '    title: NDA', '    documents:', '      - { ref: nda, file: nda.pdf }', '    participants:', '      - { ref: ada, name: Ada, email: ada@example.com }', '    fields:', '      - { type: SIGNATURE, documentRef: nda, participantRef: ada, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }', ''];
    writeFileSync(join(dir, 'spec.yaml'), spec.join('\n'));
    const result = await server.esign(['batch', 'run', 'spec.yaml', '--report', 'report.xml'], { cwd: dir, env: { ESIGN_API_KEY: key, ESIGN_CONFIG_DIR: tempDir('esign-config-') } });
    expect(result.code, result.stderr).toBe(8);
    const report = readFileSync(join(dir, 'report.xml'), 'utf8');
    expect(report).toContain('<failure type="BAD_REQUEST"');
    expectNoEncodingGivesTheKey(report);
    expectNoEncodingGivesTheKey(readFileSync(join(dir, 'spec.yaml.journal.jsonl'), 'utf8'));
    expectNoEncodingGivesTheKey(result.stdout + result.stderr);
  });
});
