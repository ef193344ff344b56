import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'vitest';
import { runEsign, type RunOptions, type RunResult } from './cli.js';

/** A test key in the pinned format (pins.md, "Key format"). */
export const hostileTestKey = 'ab_test_0123456789abcdef0123';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface HostileServer {
  url: string;
  /** Every request that reached the server, in order. */
  requests: SeenRequest[];
  /** Runs the built binary against this server with the test key; `elapsedMs` is wall time. */
  esign(args: readonly string[], options?: RunOptions): Promise<RunResult & { elapsedMs: number }>;
  close(): Promise<void>;
}

/**
 * A real `node:http` server on 127.0.0.1 that answers however the test says: stalls, redirects, garbage, floods.
 * Closing it destroys the sockets a stalling handler left open.
 */
export async function startHostileServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    handler(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    async esign(args, options = {}) {
      const started = Date.now();
      const result = await runEsign(args, { ...options, env: { ESIGN_SANDBOX_BASE_URL: url, ESIGN_API_KEY: hostileTestKey, ...options.env } });
      return { ...result, elapsedMs: Date.now() - started };
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers JSON with the given status. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** No stack trace, no "bug" wording: what a person sees for a server's fault. */
export function expectCleanFailure(result: RunResult): void {
  expect(result.stderr).not.toMatch(/\n\s+at \S+|This is a bug/);
  expect(result.stderr).not.toContain(hostileTestKey);
}
