/*
 * An answer is read only once it is what its operation documents (pins.md, "Wire shapes"): a redirect, no content,
 * non-JSON, the wrong shape or a flood is a clear error (exit 7), never a crash reported as a bug in esign.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_ANSWER_BYTES } from '../../src/api/limits.js';
import { expectCleanFailure, json, startHostileServer, type HostileServer } from '../support/hostile-server.js';

const servers: HostileServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: (response: ServerResponse, url: string) => void): Promise<HostileServer> {
  const server = await startHostileServer((request, response) => handler(response, request.url ?? ''));
  servers.push(server);
  return server;
}

function jsonError(stderr: string): { code: string; message: string; details?: Record<string, unknown> } {
  return (JSON.parse(stderr) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

describe('redirects (never followed: the key must not travel)', () => {
  it.each([301, 302, 307, 308])('%i to another origin: exit 7, and the other origin receives nothing', async (status) => {
    const elsewhere = await serve((response) => json(response, 200, { id: 'env-1' }));
    const server = await serve((response) => {
      response.writeHead(status, { location: `${elsewhere.url}/v4/api/envelopes/env-1` });
      response.end();
    });
    const result = await server.esign(['envelopes', 'get', 'env-1']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`The server at ${server.url} answered a redirect (${status} to ${elsewhere.url}) to GET /v4/api/envelopes/env-1 (getEnvelope), which esign does not understand`);
    expect(result.stderr).toContain('never follows a redirect');
    expectCleanFailure(result);
    expect(elsewhere.requests).toHaveLength(0);
    // Not repeated either: a redirect is an answer, not a transient failure.
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a redirect answered to a POST, with the Idempotency-Key in the details', async () => {
    const server = await serve((response) => {
      response.writeHead(303, { location: '/elsewhere' });
      response.end();
    });
    const result = await server.esign(['envelopes', 'create', '--title', 'NDA', '--json']);
    expect(result.code).toBe(7);
    const error = jsonError(result.stderr);
    expect(error.code).toBe('UNEXPECTED_REDIRECT');
    expect(error.details).toMatchObject({ operation: 'createEnvelope', status: 303, idempotencyKey: server.requests[0]!.headers['idempotency-key'] });
  });
});

describe('answers esign does not understand', () => {
  it('204 where an envelope was expected', async () => {
    const server = await serve((response) => {
      response.writeHead(204);
      response.end();
    });
    const result = await server.esign(['envelopes', 'get', 'env-1']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`The server at ${server.url} answered 204 No Content to GET /v4/api/envelopes/env-1 (getEnvelope), which esign does not understand`);
    expectCleanFailure(result);
  });

  it('200 with an empty body where JSON was expected', async () => {
    const server = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 0 });
      response.end();
    });
    const result = await server.esign(['me']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('answered 200 with an empty body to GET /v4/api/me (getMe), which esign does not understand');
    expectCleanFailure(result);
  });

  it('200 that is not JSON (a login page, a proxy)', async () => {
    const server = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>Please log in</body></html>');
    });
    const result = await server.esign(['envelopes', 'list']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('answered 200 with a body that is not JSON (text/html, 39 B) to GET /v4/api/envelopes/ (listEnvelopes)');
    expect(result.stderr).toContain('Check the base URL');
    expectCleanFailure(result);
  });

  it.each([
    ['envelopes get answered []', ['envelopes', 'get', 'env-1'], []],
    ['envelopes get answered an envelope without id', ['envelopes', 'get', 'env-1'], { title: 'x' }],
    ['envelopes get answered participants that are not a list', ['envelopes', 'get', 'env-1'], { id: 'env-1', participants: 'Ada' }],
    ['envelopes list answered {"data": 5}', ['envelopes', 'list'], { data: 5 }],
    ['envelopes list answered an envelope whose participants are a number', ['envelopes', 'list'], { data: [{ id: 'e', participants: 3 }], nextCursor: null }],
    ['me answered scopes as a string', ['me'], { environment: 'sandbox', scopes: 'all' }],
    ['me answered a list of envelopes', ['me'], { data: [], nextCursor: null }],
    ['templates get answered roles that are strings', ['templates', 'get', 'tpl-1'], { id: 'tpl-1', participants: ['Client'] }],
    ['fields list answered no fields', ['fields', 'list', 'env-1', 'doc-1'], { data: [] }],
    ['documents download-url answered no url', ['documents', 'download-url', 'env-1', 'doc-1'], { expiresAt: '2030-01-01T00:00:00Z' }],
    ['participants list answered a string', ['participants', 'list', 'env-1'], 'Ada, Alan'],
    ['history answered entries whose actor is a number', ['envelopes', 'history', 'env-1'], { data: [{ action: 'SENT', actor: 7 }], nextCursor: null }],
  ])('%s: exit 7 naming the operation and the problem', async (_name, args, body) => {
    const server = await serve((response) => json(response, 200, body));
    const result = await server.esign(args);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(new RegExp(`The server at ${server.url} answered 200 with JSON that is not the documented answer to [A-Z]+ \\S+ \\(\\w+\\), which esign does not understand: \\S`));
    expectCleanFailure(result);
  });

  it('reports the shape problem as JSON under --json, with nothing on stdout', async () => {
    const server = await serve((response) => json(response, 200, { data: 5 }));
    const result = await server.esign(['envelopes', 'list', '--json']);
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    const error = jsonError(result.stderr);
    expect(error.code).toBe('UNEXPECTED_RESPONSE');
    expect(error.details).toMatchObject({ operation: 'listEnvelopes', status: 200, mismatches: [expect.stringMatching(/^data: /)] });
  });

  it('refuses JSON nested deeper than esign prints', async () => {
    const server = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"id": "env-1", "extra": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    });
    const result = await server.esign(['envelopes', 'get', 'env-1', '--json']);
    expect(result.code).toBe(7);
    expect(jsonError(result.stderr).message).toContain('answered JSON nested more than 64 levels deep to GET /v4/api/envelopes/env-1 (getEnvelope)');
  });

  it('stops following a nextCursor it was already given', async () => {
    const server = await serve((response) => json(response, 200, { data: [{ id: 'env-1' }], nextCursor: 'same' }));
    const result = await server.esign(['envelopes', 'list', '--all']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('answered a nextCursor it had already given to listEnvelopes');
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expectCleanFailure(result);
  });
});

describe('a list whose later page fails', () => {
  const secondPageFails = (response: ServerResponse, url: string) =>
    url.includes('cursor=')
      ? json(response, 404, { error: { code: 'CURSOR_INVALID', message: 'expired' } })
      : json(response, 200, { data: [{ id: 'env-1', title: 'x' }, { id: 'env-2', title: 'x' }], nextCursor: 'next' });

  it.each([
    [['envelopes', 'list', '--all', '--json']],
    [['envelopes', 'list', '--title', 'x', '--json']],
    [['api', 'listEnvelopes', '--paginate']],
    [['api', 'listEnvelopes', '--paginate', '--json']],
  ])('esign %j: nothing on stdout (one whole JSON document or none), the error on stderr', async (args) => {
    const server = await serve(secondPageFails);
    const result = await server.esign(args);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('CURSOR_INVALID');
  });

  it('--jsonl streams: the rows printed before the failure are whole lines', async () => {
    const server = await serve(secondPageFails);
    const result = await server.esign(['envelopes', 'list', '--all', '--jsonl']);
    expect(result.code).toBe(4);
    expect(result.stdout.split('\n')).toEqual(['{"id":"env-1","title":"x"}', '{"id":"env-2","title":"x"}', '']);
  });
});

describe(`the ${MAX_JSON_ANSWER_BYTES / 1024 / 1024} MiB cap on JSON answers`, () => {
  /** A valid list answer of about 40 MiB, written in 1 MiB pieces as the socket drains. */
  function flood(response: ServerResponse, withLength: boolean): void {
    const item = JSON.stringify({ id: 'env', title: 'x'.repeat(1000) });
    const piece = `${Array.from({ length: 1000 }, () => item).join(',')},`;
    const pieces = Math.ceil((40 * 1024 * 1024) / Buffer.byteLength(piece));
    const head = '{"nextCursor": null, "data": [';
    const tail = `${item}]}`;
    const total = Buffer.byteLength(head) + pieces * Buffer.byteLength(piece) + Buffer.byteLength(tail);
    response.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': total } : {}) });
    response.write(head);
    let sent = 0;
    const more = () => {
      while (sent < pieces) {
        sent++;
        if (!response.write(piece)) return void response.once('drain', more);
      }
      response.end(tail);
    };
    response.on('error', () => undefined);
    more();
  }

  it.each([
    ['announced by Content-Length', true, /answered 40\.\d MB to GET \/v4\/api\/envelopes\/ \(listEnvelopes\); esign reads at most 32\.0 MB of an API answer/],
    ['streamed without a length', false, /answered more than 32\.0 MB to GET \/v4\/api\/envelopes\/ \(listEnvelopes\); esign reads at most 32\.0 MB of an API answer/],
  ])('a 40 MiB list %s: exit 7 naming the size and the operation', async (_name, withLength, message) => {
    const server = await serve((response) => flood(response, withLength));
    const result = await server.esign(['envelopes', 'list', '--json']);
    expect(result.code).toBe(7);
    const error = jsonError(result.stderr);
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.message).toMatch(message);
    expect(error.details).toMatchObject({ operation: 'listEnvelopes', limitBytes: MAX_JSON_ANSWER_BYTES });
    expect(server.requests).toHaveLength(1);
  });
});

describe('API errors keep their meaning (pins.md, "Exit codes")', () => {
  it.each([
    [401, 'KEY_INVALID', 3],
    [404, 'ENVELOPE_NOT_FOUND', 4],
    [409, 'ENVELOPE_NOT_DRAFT', 5],
    [400, 'VALIDATION_FAILED', 2],
  ])('%i %s exits %i with the service message', async (status, code, exitCode) => {
    const server = await serve((response) => json(response, status, { error: { code, message: `the service says ${code}` } }));
    const result = await server.esign(['envelopes', 'get', 'env-1', '--json']);
    expect(result.code).toBe(exitCode);
    expect(jsonError(result.stderr)).toMatchObject({ code, message: `the service says ${code}` });
  });

  it('a 502 page that is not JSON is still a 502 (exit 6 after the retries), not an unreadable answer', async () => {
    const server = await serve((response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    });
    const result = await server.esign(['envelopes', 'get', 'env-1', '--json']);
    expect(result.code).toBe(6);
    expect(jsonError(result.stderr)).toMatchObject({ code: 'HTTP_502' });
  });
});
