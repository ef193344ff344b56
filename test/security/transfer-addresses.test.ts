// A signed upload or download address is a capability, as good as a password: esign sends a file to it, or reads one
// from it, only over https, or over plain http to a loopback host as written (the emulator). A service (or anything
// between) that hands out another address gets nothing: no connection, no bytes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir, type RunResult } from '../support/cli.js';
import { simplePdf } from '../support/pdfs.js';

const key = 'tx_test_TRANSFERtransfer42Zq';
const envelopeId = '3f6c1a2b-0000-4000-8000-000000000001';

let api: Server;
let sink: Server;
let baseUrl: string;
let sinkPort: number;
/** The address the fake service hands out next, for an upload and for a download. */
let address = '';
let sinkRequests = 0;
let dir: string;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  dir = tempDir('esign-transfer-');
  writeFileSync(join(dir, 'nda.pdf'), await simplePdf({ pages: [['Mutual NDA']] }));
  api = createServer((request, response) => {
    request.resume();
    response.setHeader('content-type', 'application/json');
    const path = request.url ?? '';
    if (request.method === 'POST' && path === `/v4/api/envelopes/${envelopeId}/documents`) {
      response.statusCode = 201;
      response.end(JSON.stringify({ documentId: 'doc-1', fileName: 'nda.pdf', status: 'AWAITING_UPLOAD', uploadUrl: address }));
    } else if (request.method === 'GET' && path.startsWith(`/v4/api/envelopes/${envelopeId}/documents`)) {
      response.end(JSON.stringify({ data: [{ documentId: 'doc-1', fileName: 'nda.pdf', status: 'AWAITING_UPLOAD' }], nextCursor: null }));
    } else if (request.method === 'GET' && path === `/v4/api/envelopes/${envelopeId}`) {
      response.end(JSON.stringify({ id: envelopeId, title: 'Signed', status: 'COMPLETED', participants: [] }));
    } else if (request.method === 'GET' && path === `/v4/api/envelopes/${envelopeId}/download`) {
      response.end(JSON.stringify({ url: address, expiresAt: new Date(Date.now() + 600_000).toISOString() }));
    } else {
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { code: 'RESOURCE_NOT_FOUND', message: `no ${request.method} ${path} here` } }));
    }
  });
  sink = createServer((request, response) => {
    sinkRequests++;
    request.resume();
    request.on('end', () => response.end(request.method === 'GET' ? Buffer.from('PK\u0003\u0004 a ZIP stands here') : ''));
  });
  baseUrl = `http://127.0.0.1:${await listen(api)}`;
  sinkPort = await listen(sink);
});
afterAll(async () => {
  await Promise.all([api, sink].map((server) => new Promise((resolve) => server.close(resolve))));
});
beforeEach(() => {
  sinkRequests = 0;
});

function esign(args: readonly string[]): Promise<RunResult> {
  return runEsign(args, { cwd: dir, env: { ESIGN_SANDBOX_BASE_URL: baseUrl, ESIGN_API_KEY: key, ESIGN_CONFIG_DIR: tempDir('esign-config-') } });
}

// Each form reaches the sink on 127.0.0.1 if followed, so a refusal is seen as the sink receiving nothing.
const refused = (port: number) => [
  `http://127.1:${port}/signed`,
  `http://0x7f000001:${port}/signed`,
  `http://2130706433:${port}/signed`,
  `http://[::ffff:127.0.0.1]:${port}/signed`,
  `http://evil.localhost:${port}/signed`,
  `ftp://127.0.0.1:${port}/signed`,
];

describe('signed transfer addresses: https, or plain http to loopback as written', () => {
  it('uploads nothing to an address that is loopback only by a rewritten form, or not http(s)', async () => {
    for (const given of refused(sinkPort)) {
      address = given;
      const result = await esign(['--json', 'documents', 'upload', envelopeId, 'nda.pdf', '--no-wait']);
      expect(result.code, `${given}: ${result.stderr}`).toBe(2);
      expect(parseJson<{ error: { code: string } }>(result.stderr).error.code, given).toBe('UPLOAD_INSECURE');
    }
    expect(sinkRequests).toBe(0);

    address = `http://127.0.0.1:${sinkPort}/signed`;
    const literal = await esign(['documents', 'upload', envelopeId, 'nda.pdf', '--no-wait']);
    expect(literal.code, literal.stderr).toBe(0);
    expect(sinkRequests).toBe(1);
  });

  it('downloads nothing from such an address, and writes no file', async () => {
    for (const [index, given] of refused(sinkPort).entries()) {
      address = given;
      const out = `refused-${index}.zip`;
      const result = await esign(['--json', 'envelopes', 'download', envelopeId, '--out', out]);
      expect(result.code, `${given}: ${result.stderr}`).toBe(2);
      expect(parseJson<{ error: { code: string } }>(result.stderr).error.code, given).toBe('DOWNLOAD_INSECURE');
      expect(existsSync(join(dir, out))).toBe(false);
    }
    expect(sinkRequests).toBe(0);

    address = `http://localhost:${sinkPort}/signed`;
    const literal = await esign(['envelopes', 'download', envelopeId, '--out', 'signed.zip']);
    expect(literal.code, literal.stderr).toBe(0);
    expect(sinkRequests).toBe(1);
    expect(existsSync(join(dir, 'signed.zip'))).toBe(true);
  });
});
