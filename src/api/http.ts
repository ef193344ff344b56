/**
 * HTTP/1.1 over Node's own `node:http` (and `node:https`, loaded only for https origins): a keep-alive pool with the
 * time limits the client promises. It costs next to nothing to load, where an HTTP library costs more start-up CPU
 * than the request it makes. Only when a proxy variable is set (HTTPS_PROXY, HTTP_PROXY) does a request to a host
 * that is not loopback go through undici's proxy agent instead (./proxy.ts, imported then and only then). Nothing here
 * follows a redirect or retries: the client decides both.
 */
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { env } from '../core/env.js';
import { isLoopbackUrl } from '../shared/loopback.js';
import { AttemptDeadlines, bodyPieces, isFileBody, type HttpRequestOptions, type HttpResponse, type Transport } from './attempt.js';

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

/** Sends the pieces one after another, the next read while the previous is sent; `taken` after each is handed over. */
async function writePieces(request: ClientRequest, pieces: AsyncIterable<Buffer>, taken: (bytes: number) => void): Promise<void> {
  let sending: Promise<void> | undefined;
  let sent = 0;
  for await (const piece of pieces) {
    await sending;
    sent += piece.length;
    const total = sent;
    sending = written(request, piece).then(() => taken(total));
    // A failure while the next piece is read is not unhandled: the next `await sending` throws it.
    sending.catch(() => {});
  }
  await sending;
  request.end();
}


/** Whether a proxy variable is set: only then is the proxy agent (and undici) loaded. */
export function proxyConfigured(): boolean {
  return env.httpsProxy() !== undefined || env.httpProxy() !== undefined;
}

/** Keep-alive connections per origin, at most `connections` each, with the time limits of AttemptDeadlines. */
export class HttpPool {
  private readonly agents = new Map<string, Agent>();
  private proxied: Promise<Transport> | undefined;

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

  /** Loopback stays direct whatever the proxy variables say: the emulator, a local service, never a proxy's. */
  private async proxyFor(url: URL): Promise<Transport | undefined> {
    if (!proxyConfigured() || isLoopbackUrl(url.href)) return undefined;
    this.proxied ??= import('./proxy.js').then(({ ProxyTransport }) => new ProxyTransport(this.timeoutMs, this.connections));
    return this.proxied;
  }

  async request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
    const proxy = await this.proxyFor(url);
    if (proxy) return proxy.request(url, options);
    const { agent, request: send } = await this.agentFor(url.protocol);
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
      const deadlines = new AttemptDeadlines(this.timeoutMs, (error) => {
        response?.destroy(error);
        request.destroy(error);
      });
      request.on('socket', (socket: Socket & { encrypted?: boolean }) => {
        // A fresh socket is still connecting here; a kept-alive one is ready.
        if (socket.connecting) socket.once(socket.encrypted ? 'secureConnect' : 'connect', () => deadlines.connected());
        else deadlines.connected();
      });
      request.on('response', (answer: IncomingMessage) => {
        response = answer;
        deadlines.answer(answer);
        resolve({ statusCode: answer.statusCode ?? 0, headers: answer.headers, body: answer });
      });
      request.on('error', (error) => {
        deadlines.stop();
        reject(error);
      });
      request.on('close', () => {
        if (!response) deadlines.stop();
      });
      const pieces = bodyPieces(options.body, true);
      if (pieces === undefined || Buffer.isBuffer(pieces)) {
        request.end(pieces, () => deadlines.taken());
        return;
      }
      const onProgress = options.body !== undefined && isFileBody(options.body) ? options.body.onProgress : undefined;
      writePieces(request, pieces, (sent) => {
        deadlines.taken();
        onProgress?.(sent);
      }).catch((error: Error) => {
        // A failure after the answer came (a host that refused early and closed) leaves the answer to be read.
        if (!response) request.destroy(error);
      });
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
    void this.proxied?.then((proxy) => proxy.close());
    this.proxied = undefined;
  }
}

/** Reads what is left of an answer so that its connection can be reused, but never more than `limit` bytes. */
export async function drain(body: Readable, limit = 64 * 1024): Promise<void> {
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
export function discard(body: Readable): void {
  if ((body as Partial<IncomingMessage>).complete || body.readableEnded) return;
  body.on('error', () => {});
  body.destroy();
}
