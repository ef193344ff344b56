/*
 * `--timeout` bounds every attempt: the wait for headers and any silence while a body streams. A host that accepts
 * and never answers ends in exit 7, and retries add only what the retry policy allows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRetryPolicy } from '../../src/api/retry.js';
import { expectCleanFailure, startHostileServer, type HostileServer } from '../support/hostile-server.js';

let server: HostileServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Accepts every request and never answers it. */
const stall = () => undefined;

describe('--timeout', () => {
  it('ends a GET to a host that never sends headers with exit 7, after the attempts the retry policy allows a timeout', async () => {
    server = await startHostileServer(stall);
    const result = await server.esign(['envelopes', 'get', 'env-1', '--timeout', '1']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`No answer from ${server.url} within 1 s`);
    expectCleanFailure(result);
    // A GET is replayable, but a silent host gets the policy's attempts after a timeout, each bounded by --timeout.
    expect(server.requests).toHaveLength(defaultRetryPolicy.maxAttemptsAfterTimeout);
    expect(result.elapsedMs).toBeLessThan(10_000);
  });

  it('does not repeat a POST without Idempotency-Key that timed out: one attempt, one timeout', async () => {
    server = await startHostileServer(stall);
    const result = await server.esign(['envelopes', 'void', 'env-1', '--reason', 'wrong version', '--yes', '--timeout', '1']);
    expect(result.code).toBe(7);
    expect(server.requests).toHaveLength(1);
    expect(result.elapsedMs).toBeLessThan(6_000);
    expectCleanFailure(result);
  });

  it('repeats a create that timed out with the same Idempotency-Key, within the policy', async () => {
    server = await startHostileServer(stall);
    const result = await server.esign(['envelopes', 'create', '--title', 'NDA', '--timeout', '1']);
    expect(result.code).toBe(7);
    expect(server.requests).toHaveLength(defaultRetryPolicy.maxAttemptsAfterTimeout);
    const keys = new Set(server.requests.map((request) => request.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect(result.elapsedMs).toBeLessThan(10_000);
  });

  it('ends an answer whose body goes silent halfway with exit 7', async () => {
    server = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id": "env-1", "title": "half an ans');
    });
    const result = await server.esign(['envelopes', 'get', 'env-1', '--timeout', '1', '--json']);
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'TIMEOUT' });
    expect(result.elapsedMs).toBeLessThan(10_000);
  });

  it('lets a slow answer through as long as it keeps moving', async () => {
    // 64 KiB in 1.8 s: never 1 s of silence, and faster on average than the 16 KiB/s a body must keep.
    const message = 'm'.repeat(64 * 1024);
    const body = JSON.stringify({ id: 'env-1', title: 'Slow but steady', message, status: 'DRAFT', participants: [], documents: [] });
    server = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      // Four pieces 600 ms apart: 1.8 s in all, never 1 s of silence.
      const pieces = [0, 1, 2, 3].map((index) => body.slice((index * body.length) / 4, ((index + 1) * body.length) / 4));
      const send = () => {
        response.write(pieces.shift()!);
        if (pieces.length) setTimeout(send, 600);
        else response.end();
      };
      send();
    });
    const result = await server.esign(['envelopes', 'get', 'env-1', '--timeout', '1', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'env-1', title: 'Slow but steady', message });
    expect(server.requests).toHaveLength(1);
  });
});
