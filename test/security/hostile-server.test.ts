/*
 * A hostile API server on loopback: its answers echo the key it was sent and carry terminal escape sequences. Whatever
 * it answers, esign prints no key and obeys no escape; and what must be refused is refused before it sees a request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir, type RunResult } from '../support/cli.js';

const key = 'hx_test_HOSTILEHOSTILEsecret42Zq';
const keyShaped = /[a-z0-9]{2,8}_(test|live)_[A-Za-z0-9]{16,}/;
const escapes = `\u001b[2J\u001b]0;pwned title\u0007\r✓ Envelope voided\nFORGED LINE`;

let server: Server;
let baseUrl: string;
let requests: { method: string; url: string; headers: Record<string, string | string[] | undefined> }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const authorization = request.headers.authorization ?? '';
    const sentKey = authorization.replace(/^Bearer /, '');
    response.setHeader('content-type', 'application/json');
    if (request.url === '/v4/api/me') {
      response.end(JSON.stringify({ account: { id: `acct ${sentKey}`, name: `Acme ${sentKey}${escapes}` }, environment: 'sandbox', responsibleUser: { name: `${escapes}` } }));
      return;
    }
    response.statusCode = 400;
    response.end(
      JSON.stringify({
        error: {
          code: 'BAD_REQUEST',
          message: `You sent ${authorization} and ${sentKey.slice(8)}${escapes}`,
          details: { echo: sentKey, header: authorization, note: escapes, nested: { keys: [sentKey, `whsec_${Buffer.from(sentKey).toString('base64')}`] } },
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = [];
});

function esign(args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runEsign(args, { env: { ESIGN_SANDBOX_BASE_URL: baseUrl, ESIGN_API_KEY: key, ESIGN_CONFIG_DIR: tempDir('esign-config-'), ...env } });
}

/** The redaction promise: no key, no secret part, nothing key-shaped, no raw escape or carriage return. */
function expectClean(result: RunResult): void {
  const all = result.stdout + result.stderr;
  expect(all).not.toContain(key);
  expect(all).not.toContain(key.slice(8));
  expect(all).not.toMatch(keyShaped);
  expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  // The forged text never starts a line of its own.
  expect(all).not.toMatch(/^(✓ Envelope voided|FORGED LINE)/m);
}

describe('a server that echoes the key and sends escape sequences', () => {
  // pins.md exit codes: a 400 is 2.
  it('error message and details: masked and made visible (human output)', async () => {
    const result = await esign(['envelopes', 'get', 'env1']);
    expect(result.code).toBe(2);
    expect(requests).toHaveLength(1);
    expectClean(result);
    expect(result.stderr).toContain(`You sent Bearer hx_test_…${key.slice(-4)} and …${key.slice(-4)}\\u001b[2J\\u001b]0;pwned title\\u0007\\r✓ Envelope voided\\nFORGED LINE`);
    expect(result.stderr).toContain(`echo: hx_test_…${key.slice(-4)}`);
  });

  it('error with --json: one valid JSON document, the key masked, the escapes JSON-escaped', async () => {
    const result = await esign(['envelopes', 'get', 'env1', '--json']);
    expect(result.code).toBe(2);
    expectClean(result);
    const body = parseJson<{ error: { message: string; details: { echo: string; note: string; nested: { keys: string[] } } } }>(result.stderr);
    expect(body.error.details.echo).toBe(`hx_test_…${key.slice(-4)}`);
    expect(body.error.details.note).toBe(escapes);
    expect(body.error.details.nested.keys[1]).toMatch(/^whsec_…/);
  });

  it('error with --debug: the trace, the error and the stack trace hold no key and no escape', async () => {
    const result = await esign(['envelopes', 'get', 'env1', '--debug']);
    expect(result.code).toBe(2);
    expectClean(result);
    expect(result.stderr).toContain('[debug] > GET');
    expect(result.stderr).toMatch(/^\s+at /m);
  });

  it('error with --json and --debug', async () => {
    const result = await esign(['envelopes', 'get', 'env1', '--json', '--debug']);
    expect(result.code).toBe(2);
    expectClean(result);
    expect(parseJson<{ error: { code: string } }>(result.stderr.split('\n').filter((line) => line.startsWith('{')).pop()!).error.code).toBe('BAD_REQUEST');
  });

  it('a successful answer echoing the key: human and JSON results masked and made visible', async () => {
    const human = await esign(['me']);
    expect(human.code).toBe(0);
    expectClean(human);
    expect(human.stdout).toContain(`Acme hx_test_…${key.slice(-4)}\\u001b[2J`);
    const json = await esign(['me', '--json']);
    expect(json.code).toBe(0);
    expectClean(json);
    expect(parseJson<{ account: { name: string } }>(json.stdout).account.name).toBe(`Acme hx_test_…${key.slice(-4)}${escapes}`);
  });
});

describe('where the key travels', () => {
  it('only in Authorization: Bearer, never in the URL or another header, and no x-account-id', async () => {
    await esign(['me']);
    await esign(['envelopes', 'list', '--status', 'DRAFT']);
    await esign(['envelopes', 'create', '--title', 'Where the key goes']);
    expect(requests.map((request) => request.method)).toEqual(expect.arrayContaining(['GET', 'POST']));
    for (const { url, headers } of requests) {
      expect(headers.authorization).toBe(`Bearer ${key}`);
      expect(headers['x-account-id']).toBeUndefined();
      const elsewhere = JSON.stringify({ url, headers: { ...headers, authorization: undefined } });
      expect(elsewhere).not.toContain(key.slice(8));
    }
  });
});

describe('key-shaped arguments are refused before any request (exit 2, masked)', () => {
  const masked = `hx_test_…${key.slice(-4)}`;
  const cases: [string, string[]][] = [
    ['a mistyped --test-key=<key>', ['me', `--test-key=${key}`]],
    ['--live-key <key>', ['me', '--live-key', key]],
    ['--api-key=<key>', ['envelopes', 'list', `--api-key=${key}`]],
    ['a key as --profile', ['me', '--profile', key]],
    ['a key as an id', ['envelopes', 'get', key]],
    ['a key inside an option value', ['envelopes', 'create', '--title', `contract for ${key}`]],
  ];
  for (const [name, args] of cases) {
    it(name, async () => {
      for (const json of [false, true]) {
        const result = await esign(json ? [...args, '--json'] : args);
        expect(result.code).toBe(2);
        expectClean(result);
        expect(result.stderr).toContain(masked);
        expect(result.stderr).toContain('KEY_IN_ARGUMENT');
        if (!json) expect(result.stderr).toContain('--test-key-stdin');
      }
      expect(requests).toHaveLength(0);
    });
  }

  it('an unknown key option without a key in it gets the stdin hint', async () => {
    const result = await esign(['me', '--api-key=not-a-key']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--api-key=not-a-key'");
    expect(result.stderr).toContain('--test-key-stdin');
    expect(requests).toHaveLength(0);
  });
});

describe('ids that would change the path are refused before any request', () => {
  for (const id of ['..', '.', 'a/b', '', 'a%2Fb', 'a?b', 'a\\b']) {
    it(`envelopes get ${JSON.stringify(id)}`, async () => {
      const result = await esign(['envelopes', 'get', id]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('INVALID_ID');
      expect(result.stderr).toContain('Invalid envelopeId');
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(requests).toHaveLength(0);
    });
  }

  it('a document id in a nested path', async () => {
    const result = await esign(['documents', 'download-url', 'env1', '../../me']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid documentId');
    expect(requests).toHaveLength(0);
  });
});

describe('profile names are plain identifiers', () => {
  it('--profile toString / constructor: no profile by that name (exit 2, no crash)', async () => {
    for (const name of ['toString', 'constructor', 'hasOwnProperty']) {
      const result = await esign(['me', '--profile', name]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`No profile named "${name}"`);
      expect(result.stderr).not.toMatch(/bug|TypeError/);
    }
    expect(requests).toHaveLength(0);
  });

  it('--profile __proto__ and ESIGN_PROFILE=__proto__: an invalid profile name (exit 2)', async () => {
    const flag = await esign(['me', '--profile', '__proto__']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('Invalid profile name "__proto__" (from --profile)');
    const fromEnv = await esign(['me'], { ESIGN_PROFILE: '__proto__' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('Invalid profile name "__proto__" (from ESIGN_PROFILE)');
    expect(await esign(['profiles', 'show', '__proto__'])).toMatchObject({ code: 2 });
    expect(requests).toHaveLength(0);
  });

  it('a config.json with a __proto__ profile or a key in a value is refused, the key masked', async () => {
    const withProto = tempDir('esign-config-');
    writeFileSync(join(withProto, 'config.json'), '{"profiles":{"__proto__":{"keys":{}}}}');
    const proto = await esign(['profiles', 'list'], { ESIGN_CONFIG_DIR: withProto });
    expect(proto.code).toBe(2);
    expect(proto.stderr).toContain('Invalid profile name "__proto__"');

    const withKey = tempDir('esign-config-');
    mkdirSync(withKey, { recursive: true });
    writeFileSync(join(withKey, 'config.json'), JSON.stringify({ defaultProfile: 'acme', profiles: { acme: { sandboxBaseUrl: `${baseUrl}/?k=${key}`, keys: {} } } }));
    const leaked = await runEsign(['me'], { env: { ESIGN_CONFIG_DIR: withKey } });
    expect(leaked.code).toBe(2);
    expect(leaked.stderr).toContain('CONFIG_CONTAINS_KEY');
    expect(leaked.stderr).toContain('profiles.acme.sandboxBaseUrl');
    expectClean(leaked);
    expect(requests).toHaveLength(0);
  });
});
