/**
 * Requests through the proxy the environment names, as curl, gh and npm honour it: HTTPS_PROXY for https (HTTP_PROXY
 * when only that is set), HTTP_PROXY for http, NO_PROXY for the hosts that go direct, lower case first. undici's
 * EnvHttpProxyAgent does the choosing and the tunnel (CONNECT for https; a plain http request in absolute form, as
 * curl sends it), so no hand-written CONNECT carries the key. The only Proxy-Authorization it sends is made from the
 * proxy URL's own user and password; the request's headers, the key's included, travel inside the TLS tunnel.
 * Imported only when a proxy variable is set (./http.ts), so undici costs nothing at start-up otherwise.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { EnvHttpProxyAgent, request } from 'undici';
import { AttemptDeadlines, bodyPieces, isFileBody, type HttpRequestOptions, type HttpResponse, type Transport } from './attempt.js';

export class ProxyTransport implements Transport {
  private readonly agent: EnvHttpProxyAgent;

  constructor(
    private readonly timeoutMs: number,
    connections: number,
  ) {
    this.agent = new EnvHttpProxyAgent({
      connections,
      // Plain http in absolute form, as curl and npm send it: a proxy may refuse CONNECT to port 80.
      proxyTunnel: false,
      // AttemptDeadlines keeps every limit; undici's own would only race it with other messages.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { timeout: timeoutMs },
    });
  }

  async request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
    const controller = new AbortController();
    // The connect to the proxy, the tunnel and the TLS handshake are not seen from here: with the wait for the headers
    // they share one deadline of both limits, as long as the two apart would allow.
    const deadlines = new AttemptDeadlines(this.timeoutMs, (error) => controller.abort(error), 2 * this.timeoutMs);
    const pieces = bodyPieces(options.body, false);
    const onProgress = options.body !== undefined && isFileBody(options.body) ? options.body.onProgress : undefined;
    try {
      const answer = await request(url, {
        dispatcher: this.agent,
        method: options.method as 'GET',
        headers: options.headers,
        // undici sends an async iterable piece by piece, waiting for the socket to drain (its types leave it out).
        body:
          pieces === undefined || Buffer.isBuffer(pieces)
            ? pieces
            : (taking(pieces, (sent) => {
                deadlines.taken();
                onProgress?.(sent);
              }) as unknown as Readable),
        signal: options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal,
      });
      deadlines.answer(answer.body);
      return { statusCode: answer.statusCode, headers: answer.headers as IncomingHttpHeaders, body: answer.body as Readable };
    } catch (error) {
      deadlines.stop();
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  }

  close(): void {
    void this.agent.destroy().catch(() => {});
  }
}

/** The pieces as undici pulls them: asking for the next means the previous one was handed to the socket. */
async function* taking(pieces: AsyncIterable<Buffer>, taken: (sent: number) => void): AsyncGenerator<Buffer> {
  let sent = 0;
  for await (const piece of pieces) {
    yield piece;
    sent += piece.length;
    taken(sent);
  }
}
