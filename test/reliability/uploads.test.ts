/*
 * `documents upload` against a hostile upload host (the address a hostile service gives when the document is
 * registered). Issue #7: "any status other than the expected 2xx (a redirect included) is a failure with its own message
 * and exit code; nothing is reported as uploaded that was not", and "an upload host that never answers hung it".
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { parseJson, runEsign, tempDir, type RunOptions } from '../support/cli.js';
import { closedAfter } from '../support/closed-after.js';
import { ndaPdf } from '../support/pdfs.js';
import { DOCUMENT_ID, ENVELOPE_ID, startSignedHost, type SignedHost, type TransferHandler } from '../support/signed-host.js';

// The cases mostly wait on hosts and deadlines: they run side by side, each with a host of its own.
const concurrently = it.concurrent;

const uploadPath = `PUT /files/documents/${DOCUMENT_ID}`;

/** A real PDF, padded to `size` bytes when asked (bytes after %%EOF are ignored by readers). */
async function pdfFile(dir: string, size?: number): Promise<string> {
  const pdf = Buffer.from(await ndaPdf());
  writeFileSync(join(dir, 'contract.pdf'), size === undefined ? pdf : Buffer.concat([pdf, Buffer.alloc(size - pdf.length, 0x20)]));
  return 'contract.pdf';
}

async function setUp(context: TestContext, transfer: TransferHandler, size?: number): Promise<{ host: SignedHost; file: string; options: RunOptions }> {
  const host = closedAfter(context, await startSignedHost(transfer));
  const dir = tempDir('esign-upload-');
  return { host, file: await pdfFile(dir, size), options: { cwd: dir, env: host.env } };
}

/** Reads the whole upload, then answers `status`. */
function answerAfterBody(status: number, headers: Record<string, string> = {}, body?: string): TransferHandler {
  return (request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, headers).end(body));
  };
}

describe('documents upload: answers other than success', () => {
  concurrently('a redirect is a failure with its own message and exit code, not followed, not retried, nothing reported uploaded', async (context) => {
    const { host, file, options } = await setUp(context, answerAfterBody(302, { location: 'https://elsewhere.example/bucket' }));
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait'], options);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('answered 302, a redirect to https://elsewhere.example; esign does not follow redirects from signed addresses, so nothing was uploaded.');
    expect(result.stderr).not.toContain('Uploaded');
    expect(result.stdout).toBe('');
    expect(host.requests.filter((request) => request === uploadPath)).toHaveLength(1);
  });

  concurrently('with --json the error names the status and UPLOAD_REDIRECTED', async (context) => {
    const { file, options } = await setUp(context, answerAfterBody(303, { location: '/files/other' }));
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait', '--json'], options);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(parseJson<{ error: unknown }>(result.stderr).error).toMatchObject({ status: 303, code: 'UPLOAD_REDIRECTED' });
  });

  concurrently('a 500 is retried, then exits 6 with the host\'s message; nothing is reported uploaded', async (context) => {
    const { host, file, options } = await setUp(context, answerAfterBody(500, { 'content-type': 'application/json' }, JSON.stringify({ error: { code: 'STORAGE_DOWN', message: 'disk on fire' } })));
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait'], options);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('refused with 500: disk on fire');
    expect(result.stderr).not.toContain('Uploaded');
    expect(host.requests.filter((request) => request === uploadPath)).toHaveLength(4);
  });

  concurrently('a 201 is success: the document is reported uploaded', async (context) => {
    const { file, options } = await setUp(context, answerAfterBody(201));
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait'], options);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Uploaded contract.pdf (${DOCUMENT_ID})`);
  });
});

describe('documents upload: --timeout bounds silences, not the transfer', () => {
  concurrently('a host that takes the file and never answers: exit 7 after the retries, not a hang', async (context) => {
    const { file, options } = await setUp(context, (request) => request.resume());
    const started = Date.now();
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait', '--timeout', '2'], options);
    expect(result.code, result.stderr).toBe(7);
    // Four attempts of 2 s and the back-off between them.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.stderr).toContain('neither took more of the file nor answered for 2 s');
    expect(result.stderr).not.toContain('Uploaded');
  });

  concurrently('a host that stops reading the file midway: exit 7, not a hang', async (context) => {
    // Larger than what the loopback socket buffers hold, so the sender has to wait for the host.
    const { file, options } = await setUp(context, (request) => request.pause(), 48 * 1024 * 1024);
    const started = Date.now();
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait', '--timeout', '2'], options);
    expect(result.code, result.stderr).toBe(7);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(result.stderr).toContain('neither took more of the file nor answered for 2 s');
  });

  concurrently('a slow host that keeps reading completes although the upload takes longer than --timeout', async (context) => {
    const size = 32 * 1024 * 1024;
    let received = 0;
    const { host, file, options } = await setUp(context, (request, response) => {
      // 1 MiB, then a 100 ms pause: over 3 s in all, never silent for long (what the socket buffers hold drains fast).
      let sincePause = 0;
      request.on('data', (chunk: Buffer) => {
        received += chunk.length;
        sincePause += chunk.length;
        if (sincePause >= 1024 * 1024) {
          sincePause = 0;
          request.pause();
          setTimeout(() => request.resume(), 100);
        }
      });
      request.on('end', () => response.writeHead(200).end());
    }, size);
    const started = Date.now();
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, file, '--no-wait', '--timeout', '2'], options);
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(3_000);
    expect(received).toBe(size);
    expect(host.requests.filter((request) => request === uploadPath)).toHaveLength(1);
  });
});

describe('documents upload: the bytes that arrive', () => {
  concurrently('are the file, byte for byte, when it spans several reads (the read buffers are reused)', async (context) => {
    const received = createHash('sha256');
    let size = 0;
    const host = closedAfter(
      context,
      await startSignedHost((request, response) => {
        request.on('data', (chunk: Buffer) => {
          received.update(chunk);
          size += chunk.length;
        });
        request.on('end', () => response.writeHead(200).end());
      }),
    );
    const dir = tempDir('esign-upload-');
    // Random bytes after the PDF: a buffer sent twice, or sent while being refilled, would change the digest.
    const content = Buffer.concat([Buffer.from(await ndaPdf()), randomBytes(9 * 1024 * 1024 + 12_345)]);
    writeFileSync(join(dir, 'contract.pdf'), content);
    const result = await runEsign(['documents', 'upload', ENVELOPE_ID, 'contract.pdf', '--no-wait'], { cwd: dir, env: host.env });
    expect(result.code, result.stderr).toBe(0);
    expect(size).toBe(content.length);
    expect(received.digest('hex')).toBe(createHash('sha256').update(readFileSync(join(dir, 'contract.pdf'))).digest('hex'));
  });
});
