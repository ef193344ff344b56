/*
 * Issue #21: `--timeout` was an idle timer that every byte reset, so a host that kept sending something held esign for
 * ever: `HTTP/1.1 102 Processing` every 500 ms, the head a byte at a time, a header line every 300 ms, a chunked body a
 * byte at a time. Now each attempt has deadlines: the final status line and headers within --timeout of the connect
 * (or of the last piece of a request body the host took), and a body with no silence of --timeout that comes at
 * 16 KiB/s on average after its first --timeout. The same for API hosts, download hosts and upload hosts; each case
 * ends with exit 7 within the attempts the retry policy allows, and a download leaves no temporary file; `webhooks
 * listen` answers the sender 502 once its forward target has had --timeout (it had a fixed 10 s).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { defaultRetryPolicy } from '../../src/api/retry.js';
import { runEsign, tempDir } from '../support/cli.js';
import { closedAfter } from '../support/closed-after.js';
import { expectCleanFailure, startHostileServer } from '../support/hostile-server.js';
import { spawnEsign } from '../support/long-running.js';
import { ndaPdf } from '../support/pdfs.js';
import { ENVELOPE_ID, startSignedHost, type SignedHost } from '../support/signed-host.js';

const TIMEOUT_S = 2;
/** Past this a run counts as hung: the old idle timer never ended these. */
const HUNG_MS = 25_000;

// The cases mostly wait on their deadlines: they run side by side, each with hosts of its own, closed when it ends.
const concurrently = it.concurrent;

/** Writes `next()` raw onto the connection every `everyMs` until it closes: the host never goes silent. */
function keepSending(request: IncomingMessage, everyMs: number, next: (turn: number) => string): void {
  const socket = request.socket;
  let turn = 0;
  const timer = setInterval(() => socket.destroyed || socket.write(next(turn++)), everyMs);
  socket.once('close', () => clearInterval(timer));
}

const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ';

/** Each kind of host that never goes silent, as a handler of the request it answers. */
const neverSilent: [string, (request: IncomingMessage, response: ServerResponse) => void][] = [
  ['a 102 Processing every 500 ms', (request) => keepSending(request, 500, () => 'HTTP/1.1 102 Processing\r\n\r\n')],
  // The status line and a header that never ends, one byte every 100 ms.
  ['the head a byte every 100 ms', (request) => keepSending(request, 100, (turn) => head[turn] ?? 'x')],
  ['a header line every 300 ms', (request) => keepSending(request, 300, (turn) => (turn === 0 ? 'HTTP/1.1 200 OK\r\n' : `X-Line-${turn}: more\r\n`))],
  [
    'a chunked body a byte every 300 ms',
    (request) => keepSending(request, 300, (turn) => (turn === 0 ? 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n' : '1\r\n \r\n')),
  ],
];

/** Two attempts (the policy's after a timeout) of at most --timeout each past the connect, the back-off, start-up. */
const boundMs = defaultRetryPolicy.maxAttemptsAfterTimeout * TIMEOUT_S * 1000 + 5_000;

describe('--timeout is a deadline for API hosts', () => {
  concurrently.for(neverSilent)('%s: me ends with exit 7 within the deadline', async ([, handler], context) => {
    const server = closedAfter(context, await startHostileServer(handler));
    const result = await server.esign(['me', '--timeout', String(TIMEOUT_S)], { timeoutMs: HUNG_MS });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/No answer from http:\/\/127\.0\.0\.1:\d+ within 2 s|came too slowly: slower than 16 KiB\/s after its first 2 s/);
    expect(result.elapsedMs).toBeLessThan(boundMs);
    expect(server.requests).toHaveLength(defaultRetryPolicy.maxAttemptsAfterTimeout);
    expectCleanFailure(result);
  });
});

describe('--timeout is a deadline for download hosts', () => {
  const OLD_ZIP = Buffer.from('PK\u0005\u0006 the envelope downloaded yesterday');

  concurrently.for(neverSilent)('%s: exit 7 within the deadline, the old ZIP kept, no temporary file', async ([, handler], context) => {
    const host = closedAfter(context, await startSignedHost(handler));
    const dir = tempDir('esign-deadline-download-');
    writeFileSync(join(dir, 'x.zip'), OLD_ZIP);
    const started = Date.now();
    const result = await runEsign(['envelopes', 'download', ENVELOPE_ID, '--out', 'x.zip', '--force', '--timeout', String(TIMEOUT_S)], {
      cwd: dir,
      env: host.env,
      timeoutMs: HUNG_MS,
    });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/did not answer within 2 s|came too slowly: slower than 16 KiB\/s after its first 2 s/);
    // One attempt: a download is not repeated.
    expect(host.requests.filter((request) => request.startsWith('GET /files/'))).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(boundMs);
    expect(readdirSync(dir)).toEqual(['x.zip']);
    expect(readFileSync(join(dir, 'x.zip')).equals(OLD_ZIP)).toBe(true);
  });
});

describe('--timeout is a deadline for upload hosts', () => {
  /** `documents upload` of a PDF padded to `size` bytes to `host`: it must end with exit 7, the host named. */
  async function uploadTimesOut(host: SignedHost, size?: number) {
    const dir = tempDir('esign-deadline-upload-');
    const pdf = Buffer.from(await ndaPdf());
    writeFileSync(join(dir, 'contract.pdf'), size === undefined ? pdf : Buffer.concat([pdf, Buffer.alloc(size - pdf.length, 0x20)]));
    const started = Date.now();
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, 'contract.pdf', '--no-wait', '--timeout', String(TIMEOUT_S)], { cwd: dir, env: host.env, timeoutMs: HUNG_MS });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain(`neither took more of the file nor answered for ${TIMEOUT_S} s`);
    expect(result.stderr).not.toContain('Uploaded');
    return Date.now() - started;
  }

  concurrently.for(neverSilent.slice(0, 3))('that take the file, then send %s: exit 7, nothing reported uploaded', async ([, handler], context) => {
    const host = closedAfter(
      context,
      await startSignedHost((request, response) => {
        request.resume();
        request.on('end', () => handler(request, response));
      }),
    );
    // The upload's own retries (4 attempts for a dropped connection) of at most --timeout each, and their back-off.
    expect(await uploadTimesOut(host)).toBeLessThan(defaultRetryPolicy.maxAttempts * TIMEOUT_S * 1000 + 10_000);
  });

  concurrently('that stop taking a big file midway while sending 102 every 500 ms: exit 7, not a hang', async (context) => {
    const host = closedAfter(
      context,
      await startSignedHost((request) => {
        // Never reads: once the socket buffers are full, the sender has to wait for the host, which only says 102.
        request.pause();
        keepSending(request, 500, () => 'HTTP/1.1 102 Processing\r\n\r\n');
      }),
    );
    await uploadTimesOut(host, 48 * 1024 * 1024);
  });
});

describe('--timeout is a deadline for the forward target of webhooks listen', () => {
  const secret = `whsec_${Buffer.from('a listener secret, only for tests').toString('base64')}`;

  concurrently.for(neverSilent.slice(0, 3))('%s: the sender gets 502 within the deadline, and the line says so', async ([, handler], context) => {
    const server = closedAfter(context, await startHostileServer(handler));
    const listener = spawnEsign(['webhooks', 'listen', '--port', '0', '--secret-stdin', '--forward-to', server.url, '--timeout', '1'], {}, secret);
    try {
      const { url } = await listener.waitForLine((line) => line.kind === 'listening', 'the listener to start');
      const body = JSON.stringify({ id: 'evt_slow', type: 'ENVELOPE_SENT', createdAt: new Date().toISOString(), data: { envelope: { id: 'env-1' } } });
      const at = new Date();
      const started = Date.now();
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'webhook-id': 'evt_slow', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_slow', at, body) },
        body,
      });
      expect(answer.status).toBe(502);
      // One attempt: connect, then 1 s for the headers (or 1 s for a body that trickles), not the old fixed 10 s.
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(await listener.waitForLine((line) => line.webhookId === 'evt_slow', 'the forward line')).toMatchObject({ answer: 502, forward: { error: 'no answer in time' } });
    } finally {
      await listener.stop('SIGKILL');
    }
  });
});
