/*
 * `envelopes download --out` against a hostile download host. Issue #7: "a download answered by a redirect replaced an
 * existing ZIP with 0 bytes and exited 0", "an interrupted download left its .part", "a symlinked .part was followed",
 * "a download host that never answers held the CLI 303 s with --timeout 2". Whatever the host does, the ZIP already
 * on disk stays as it was and no temporary file is left beside it.
 */
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson, runEsign, startEsign, tempDir, type RunOptions } from '../support/cli.js';
import { ENVELOPE_ID, startSignedHost, type SignedHost, type TransferHandler } from '../support/signed-host.js';

const OLD_ZIP = Buffer.from('PK\u0005\u0006 the envelope downloaded yesterday');
const NEW_ZIP = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64 * 1024, 7)]);

let host: SignedHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** A folder holding yesterday's envelope.zip, and a host whose download address behaves as `transfer` says. */
async function setUp(transfer: TransferHandler): Promise<{ dir: string; options: RunOptions }> {
  host = await startSignedHost(transfer);
  const dir = tempDir('esign-download-');
  writeFileSync(join(dir, 'envelope.zip'), OLD_ZIP);
  return { dir, options: { cwd: dir, env: host.env } };
}

function download(options: RunOptions, ...extra: string[]) {
  return runEsign(['envelopes', 'download', ENVELOPE_ID, '--out', 'envelope.zip', '--force', ...extra], options);
}

/** The old file is as it was and nothing else appeared in its folder (no .part, no temporary file). */
function expectOldZipKept(dir: string): void {
  expect(readdirSync(dir)).toEqual(['envelope.zip']);
  expect(readFileSync(join(dir, 'envelope.zip')).equals(OLD_ZIP)).toBe(true);
}

/** Headers and the first bytes of a big body, then silence. */
function stallAfterFirstChunk(onStall?: () => void): TransferHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(NEW_ZIP.length) });
    response.write(NEW_ZIP.subarray(0, 1024), () => onStall?.());
  };
}

describe('envelopes download --out: answers other than the file', () => {
  it('a redirect is a failure with its own message and exit code, is not followed, and leaves the old ZIP', async () => {
    const { dir, options } = await setUp((_request, response) => {
      response.writeHead(302, { location: `${host!.url}/files/elsewhere.zip` }).end();
    });
    const result = await download(options);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`answered 302, a redirect to ${host!.url}`);
    expect(result.stderr).toContain('nothing was downloaded');
    expect(result.stdout).not.toContain('Saved');
    expect(host!.requests).not.toContain('GET /files/elsewhere.zip');
    expectOldZipKept(dir);
  });

  it('the --json error carries the status and a code of its own', async () => {
    const { dir, options } = await setUp((_request, response) => {
      response.writeHead(307, { location: 'https://attacker.example/x' }).end();
    });
    const result = await download(options, '--json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(parseJson<{ error: { status: number; code: string } }>(result.stderr).error).toMatchObject({ status: 307, code: 'DOWNLOAD_REDIRECTED' });
    expectOldZipKept(dir);
  });

  it.each([
    [204, 1, 'answered 204, not 200 with the file'],
    [206, 1, 'answered 206, not 200 with the file'],
    [403, 3, 'refused with 403'],
    [404, 4, 'refused with 404'],
    [500, 6, 'refused with 500'],
  ])('a %i answer exits %i and leaves the old ZIP', async (status, code, message) => {
    const { dir, options } = await setUp((_request, response) => {
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? 'storage says no' : undefined);
    });
    const result = await download(options);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toContain(message);
    expectOldZipKept(dir);
  });

  it('a 200 with no content is not a ZIP: a failure, never "saved 0 bytes"', async () => {
    const { dir, options } = await setUp((_request, response) => {
      response.writeHead(200, { 'content-length': '0' }).end();
    });
    const result = await download(options);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no content');
    expect(result.stdout).not.toContain('Saved');
    expectOldZipKept(dir);
  });
});

describe('envelopes download --out: a 200 that is not a ZIP', () => {
  it.each([
    ['a login page', 'text/html', '<html><body>Please log in</body></html>'],
    ['a plain text', 'application/octet-stream', 'this is not a zip'],
  ])('%s is a failure that keeps the old ZIP, never "Saved"', async (_case, contentType, body) => {
    const { dir, options } = await setUp((_request, response) => {
      response.writeHead(200, { 'content-type': contentType }).end(body);
    });
    const result = await download(options);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`DOWNLOAD_NOT_A_ZIP: The download host answered 200 with ${body.length} bytes that are not a ZIP`);
    expect(result.stdout).not.toContain('Saved');
    expectOldZipKept(dir);
  });
});

describe('envelopes download --out: --timeout bounds silences, not the transfer', () => {
  it.each([
    ['a host that never answers', (): TransferHandler => () => {}, 'did not answer within 2 s'],
    ['a body that stalls midway', () => stallAfterFirstChunk(), 'stalled: nothing arrived for 2 s'],
  ])('%s: exit 7 within seconds of --timeout 2, the old ZIP kept, no partial file', async (_case, transfer, message) => {
    const { dir, options } = await setUp(transfer());
    const started = Date.now();
    const result = await download(options, '--timeout', '2');
    expect(result.code, result.stderr).toBe(7);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.stderr).toContain(message);
    expectOldZipKept(dir);
  });

  it('a slow body that keeps moving completes although it takes longer than --timeout', async () => {
    const pieces = 8;
    const size = NEW_ZIP.length / pieces;
    const { dir, options } = await setUp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(NEW_ZIP.length) });
      let sent = 0;
      const next = () => {
        response.write(NEW_ZIP.subarray(sent * size, (sent + 1) * size));
        if (++sent === pieces) response.end();
        else setTimeout(next, 300);
      };
      next();
    });
    const started = Date.now();
    const result = await download(options, '--timeout', '1', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(2_000);
    expect(parseJson(result.stdout)).toMatchObject({ file: 'envelope.zip', bytes: NEW_ZIP.length });
    expect(readFileSync(join(dir, 'envelope.zip')).equals(NEW_ZIP)).toBe(true);
    expect(readdirSync(dir)).toEqual(['envelope.zip']);
  });
});

describe('envelopes download --out: signals', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s mid-download stops promptly with exit %i, no temporary file, the old ZIP kept', async (signal, code) => {
    let stalled!: () => void;
    const midway = new Promise<void>((resolve) => (stalled = resolve));
    const { dir, options } = await setUp(stallAfterFirstChunk(() => stalled()));
    const running = startEsign(['envelopes', 'download', ENVELOPE_ID, '--out', 'envelope.zip', '--force'], options);
    await midway;
    // The first bytes are on their way into the temporary file beside the target.
    await expect.poll(() => readdirSync(dir).length, { timeout: 10_000 }).toBe(2);
    const signalled = Date.now();
    running.child.kill(signal);
    const result = await running.result;
    expect(result.code, result.stderr).toBe(code);
    // Promptly: test/reliability/signals.test.ts holds the bound of a second.
    expect(Date.now() - signalled).toBeLessThan(4_000);
    expect(result.stderr).toContain(`Stopped by ${signal} during the download. Nothing was saved: envelope.zip is as it was.`);
    expectOldZipKept(dir);
  });
});

describe('envelopes download --out: the file written', () => {
  it('an existing file without --force: exit 2 naming it, nothing asked of the service', async () => {
    const { dir, options } = await setUp((_request, response) => response.writeHead(200).end(NEW_ZIP));
    const result = await runEsign(['envelopes', 'download', ENVELOPE_ID, '--out', 'envelope.zip'], options);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--out envelope.zip already exists');
    expect(result.stderr).toContain('--force');
    expect(host!.requests).toEqual([]);
    expectOldZipKept(dir);
  });

  it('a symlink planted at the old .part name is neither followed nor left behind; --force replaces the file', async () => {
    const { dir, options } = await setUp((_request, response) => response.writeHead(200, { 'content-type': 'application/zip' }).end(NEW_ZIP));
    const victim = join(tempDir('esign-victim-'), 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dir, 'envelope.zip.part'));
    const result = await download(options);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Saved envelope.zip (${NEW_ZIP.length} bytes).`);
    expect(readFileSync(join(dir, 'envelope.zip')).equals(NEW_ZIP)).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(join(dir, 'envelope.zip.part')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['envelope.zip', 'envelope.zip.part']);
  });

  it('a write that fails (ulimit -f) says why, exits 1, and leaves the old ZIP and no temporary file', async () => {
    const { dir, options } = await setUp((_request, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/zip' }).end(NEW_ZIP));
    const result = await download({ ...options, fileSizeLimitKiB: 16 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('Cannot write --out envelope.zip: the file is larger than this process may write (ulimit -f) (EFBIG).');
    expectOldZipKept(dir);
  });
});
