/*
 * A hostile service for transfer tests: a real `node:http` server on loopback that answers the few API operations a
 * download or an upload needs, with signed addresses that point back at itself, where the test decides how the
 * "storage host" behaves (redirect, error, silence, a stall in the middle of the body).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TransferHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface SignedHost {
  /** The API base URL (and the origin of the signed addresses). */
  url: string;
  /** Env for `runEsign`: sandbox base URL and a test key. */
  env: Record<string, string>;
  /** `METHOD path` of every request, API and transfer alike. */
  requests: string[];
  close(): Promise<void>;
}

export const ENVELOPE_ID = '3f6c2a1e-0000-4000-8000-000000000001';
export const DOCUMENT_ID = '3f6c2a1e-0000-4000-8000-0000000000d1';
// Random letters, as a real key has: one made of words would have those words masked wherever a message says them.
const KEY = 'hx_test_q7Rz2LmN8vKp4TwXc9Jd0001';

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** `transfer` answers every request under `/files/` (the signed addresses); the API part is fixed. */
export async function startSignedHost(transfer: TransferHandler): Promise<SignedHost> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    requests.push(`${request.method} ${path}`);
    if (path.startsWith('/files/')) return transfer(request, response);
    const origin = `http://${request.headers.host}`;
    if (request.method === 'GET' && path === `/v4/api/envelopes/${ENVELOPE_ID}`) {
      return json(response, 200, { id: ENVELOPE_ID, title: 'Signed', status: 'COMPLETED', participants: [] });
    }
    if (request.method === 'GET' && path === `/v4/api/envelopes/${ENVELOPE_ID}/download`) {
      return json(response, 200, { url: `${origin}/files/${ENVELOPE_ID}.zip?signature=abc`, expiresAt: new Date(Date.now() + 600_000).toISOString() });
    }
    if (request.method === 'POST' && path === `/v4/api/envelopes/${ENVELOPE_ID}/documents`) {
      request.resume();
      return json(response, 201, {
        documentId: DOCUMENT_ID,
        fileName: 'contract.pdf',
        contentType: 'application/pdf',
        status: 'AWAITING_UPLOAD',
        uploadUrl: `${origin}/files/documents/${DOCUMENT_ID}?signature=abc`,
      });
    }
    if (request.method === 'GET' && path === `/v4/api/envelopes/${ENVELOPE_ID}/documents`) {
      return json(response, 200, { data: [{ documentId: DOCUMENT_ID, fileName: 'contract.pdf', status: 'PROCESSING' }], nextCursor: null });
    }
    json(response, 404, { error: { code: 'NOT_FOUND', message: `${request.method} ${path} is not served here` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { ESIGN_SANDBOX_BASE_URL: url, ESIGN_API_KEY: KEY },
    requests,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
