/**
 * HTTP/1.1 over Node's own `node:http` (and `node:https`, loaded only for https origins): a keep-alive pool with the
 * time limits the client promises. It costs next to nothing to load, where an HTTP library costs more start-up CPU
 * than the request it makes. Nothing here follows a redirect or retries: the client decides both.
 */
import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, Readable } from 'node:stream';

/** A file sent as a body: read into two reused buffers, so a 1 GiB upload allocates 8 MiB, not 1 GiB. */
/** A local file to send: read through the file esign opened and checked (src/files/opened-file.ts), never by path. */
export interface FileBody {
  source: { path: string; read(buffer: Buffer, length: number, position: number): Promise<number> };
  length: number;
  /** Called with the bytes handed to the network so far. */
  onProgress?: (sent: number) => void;
}

export type RequestBody = string | Buffer | Readable | FileBody;

export interface HttpResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

export type TimeoutPhase = 'CONNECT_TIMEOUT' | 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT';

/** A time limit ran out; `code` says while doing what. */
export class HttpTimeoutError extends Error {
  constructor(readonly code: TimeoutPhase) {
    super(`${code.toLowerCase().replace('_', ' ')} elapsed`);
    this.name = 'HttpTimeoutError';
  }
}

/**
 * 4 MiB reads: the CPU an upload costs is mostly the kernel copying bytes, and each chunk adds a round of JavaScript
 * and wake-ups; measured against 512 KiB to 4 MiB, 4 MiB cost the least, for 8 MiB of memory in all.
 */
const FILE_CHUNK_BYTES = 4 * 1024 * 1024;

function isFileBody(body: RequestBody): body is FileBody {
  // A file stream has a `path` too: it is a stream, sent as one.
  return typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Readable);
}

/** Resolves once `chunk` is handed to the kernel (the buffer is free again), rejects if the request broke first. */
function written(request: ClientRequest, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('the connection closed during the upload'));
    request.once('close', closed);
    request.write(chunk, (error) => {
      request.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** Reads the file into two buffers in turn: one is read into while the other is being sent. */
async function writeFile(request: ClientRequest, file: FileBody): Promise<void> {
  const buffers = [Buffer.allocUnsafe(Math.min(FILE_CHUNK_BYTES, file.length)), Buffer.allocUnsafe(Math.min(FILE_CHUNK_BYTES, file.length))];
  let sending: Promise<void> | undefined;
  let position = 0;
  for (let turn = 0; position < file.length; turn ^= 1) {
    const buffer = buffers[turn]!;
    const bytesRead = await file.source.read(buffer, Math.min(buffer.length, file.length - position), position);
    if (bytesRead === 0) throw new Error(`${file.source.path} became shorter while it was being uploaded`);
    await sending;
    position += bytesRead;
    const sent = position;
    sending = written(request, buffer.subarray(0, bytesRead)).then(() => file.onProgress?.(sent));
    // A failure while the next read is under way is not unhandled: the next `await sending` throws it.
    sending.catch(() => {});
  }
  await sending;
  request.end();
}

function sendBody(request: ClientRequest, body: RequestBody | undefined, hasResponse: () => boolean): void {
  if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
    request.end(body);
  } else if (isFileBody(body)) {
    // A failure after the answer came (a host that refused early and closed) leaves the answer to be read.
    writeFile(request, body).catch((error: Error) => {
      if (!hasResponse()) request.destroy(error);
    });
  } else {
    pipeline(body, request, () => {});
  }
}

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: RequestBody;
  signal?: AbortSignal;
}

/**
 * Keep-alive connections per origin, at most `connections` each. `timeoutMs` bounds the connect (TLS handshake
 * included) and then every silence: no byte of the request taken, no byte of the answer given.
 */
export class HttpPool {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly timeoutMs: number,
    private readonly connections = 8,
  ) {}

  private async agentFor(protocol: string): Promise<{ agent: Agent; request: typeof httpRequest }> {
    const options = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: this.connections, maxFreeSockets: this.connections };
    if (protocol === 'https:') {
      const https = await import('node:https');
      const agent = (this.agents.get(protocol) as import('node:https').Agent | undefined) ?? new https.Agent(options);
      this.agents.set(protocol, agent);
      return { agent, request: https.request as typeof httpRequest };
    }
    const agent = this.agents.get(protocol) ?? new Agent(options);
    this.agents.set(protocol, agent);
    return { agent, request: httpRequest };
  }

  async request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
    const { agent, request: send } = await this.agentFor(url.protocol);
    const timeoutMs = this.timeoutMs;
    return new Promise((resolve, reject) => {
      let response: IncomingMessage | undefined;
      // `insecureHTTPParser` stays off and Node's header checks apply: a header with a line break is refused here.
      let request: ClientRequest;
      try {
        request = send(url, { method: options.method, headers: options.headers, agent, ...(options.signal ? { signal: options.signal } : {}) });
      } catch (error) {
        reject(error as Error);
        return;
      }
      // As a stricter HTTP library would: a body longer or shorter than its Content-Length is an error, not a hang.
      (request as ClientRequest & { strictContentLength: boolean }).strictContentLength = true;
      const fail = (phase: TimeoutPhase) => {
        const error = new HttpTimeoutError(phase);
        response?.destroy(error);
        request.destroy(error);
      };
      const connectTimer = setTimeout(() => fail('CONNECT_TIMEOUT'), timeoutMs);
      const connected = () => {
        clearTimeout(connectTimer);
        request.setTimeout(timeoutMs, () => fail(response ? 'BODY_TIMEOUT' : 'HEADERS_TIMEOUT'));
      };
      request.on('socket', (socket: Socket & { encrypted?: boolean }) => {
        // A fresh socket is still connecting here; a kept-alive one is ready.
        if (socket.connecting) socket.once(socket.encrypted ? 'secureConnect' : 'connect', connected);
        else connected();
      });
      request.on('response', (answer: IncomingMessage) => {
        response = answer;
        resolve({ statusCode: answer.statusCode ?? 0, headers: answer.headers, body: answer });
      });
      request.on('error', (error) => {
        clearTimeout(connectTimer);
        reject(error);
      });
      request.on('close', () => clearTimeout(connectTimer));
      sendBody(request, options.body, () => response !== undefined);
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/** Reads what is left of an answer so that its connection can be reused, but never more than `limit` bytes. */
export async function drain(body: IncomingMessage, limit = 64 * 1024): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) break;
    }
  } catch {
    // What follows a status is not worth an error.
  }
  discard(body);
}

/** Drops the rest of an answer without reading it (its connection is closed, not reused). */
export function discard(body: IncomingMessage): void {
  if (body.complete) return;
  body.on('error', () => {});
  body.destroy();
}
