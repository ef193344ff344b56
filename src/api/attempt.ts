/**
 * What one HTTP attempt is, whichever way it goes (node:http directly, or undici through a proxy): its body as the
 * pieces it is sent in, and its time limits as deadlines.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A file sent as a body: read through the file esign opened and checked (src/files/opened-file.ts), never by path, into
 * two reused buffers, so a 1 GiB upload allocates 8 MiB, not 1 GiB.
 */
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
  body: Readable;
}

/**
 * Which limit ran out: the connect, the wait for the final status line and headers (or for the host to take the next
 * piece of the request), a silence in the body, or a body slower than MIN_BODY_BYTES_PER_SECOND.
 */
export type TimeoutPhase = 'CONNECT_TIMEOUT' | 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT' | 'BODY_TOO_SLOW';

/** A time limit ran out; `code` says while doing what. */
export class HttpTimeoutError extends Error {
  constructor(readonly code: TimeoutPhase) {
    super(`${code.toLowerCase().replaceAll('_', ' ')}`);
    this.name = 'HttpTimeoutError';
  }
}

/**
 * After its first `--timeout`, a body must keep coming at this rate on average: a host that trickles a byte at a time
 * never goes silent, yet must not hold esign for ever. A link slower than this is slower than any mobile network.
 */
export const MIN_BODY_BYTES_PER_SECOND = 16 * 1024;

/**
 * 4 MiB reads: the CPU an upload costs is mostly the kernel copying bytes, and each chunk adds a round of JavaScript
 * and wake-ups; measured against 512 KiB to 4 MiB, 4 MiB cost the least, for 8 MiB of memory in all.
 */
const FILE_CHUNK_BYTES = 4 * 1024 * 1024;

export function isFileBody(body: RequestBody): body is FileBody {
  // A file stream has a `path` too: it is a stream, sent as one.
  return typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Readable);
}

/**
 * The file in pieces of at most FILE_CHUNK_BYTES. With `reuse`, two buffers in turn (one is read into while the other
 * is being sent): only for a sender that has let go of a piece before it asks for the next but one.
 */
async function* filePieces(file: FileBody, reuse: boolean): AsyncGenerator<Buffer> {
  const size = Math.min(FILE_CHUNK_BYTES, file.length);
  const buffers = reuse ? [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)] : [];
  let position = 0;
  for (let turn = 0; position < file.length; turn ^= 1) {
    const buffer = buffers[turn] ?? Buffer.allocUnsafe(size);
    const bytesRead = await file.source.read(buffer, Math.min(buffer.length, file.length - position), position);
    if (bytesRead === 0) throw new Error(`${file.source.path} became shorter while it was being uploaded`);
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** A body as the pieces it is sent in; undefined for none. */
export function bodyPieces(body: RequestBody | undefined, reuse: boolean): AsyncIterable<Buffer> | Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body) || body instanceof Readable) return body;
  return filePieces(body, reuse);
}

/**
 * The time limits of one attempt, as deadlines that only what esign waits for can move, so that a host that keeps
 * sending something else (1xx answers every 500 ms, a header a byte at a time, a body a byte at a time) cannot hold an
 * attempt open:
 * - the connect (TLS included): `timeoutMs` from the start;
 * - then the final status line and headers: `timeoutMs` from the connect, or from the last piece of the request body
 *   the host took (so a slow upload that keeps moving goes through, a host that stops taking it does not);
 * - the body: no silence of `timeoutMs`, and all of it within `timeoutMs` plus its size at MIN_BODY_BYTES_PER_SECOND.
 */
export class AttemptDeadlines {
  private timer: NodeJS.Timeout;
  private phase: TimeoutPhase = 'CONNECT_TIMEOUT';
  /** Once the headers came, or the attempt ended: nothing moves the head's deadline any more. */
  private headDone = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly fail: (error: HttpTimeoutError) => void,
    /** Where the connect is not seen (through a proxy), it and the headers share one deadline of both limits. */
    firstDeadlineMs = timeoutMs,
  ) {
    this.timer = setTimeout(() => {
      this.headDone = true;
      this.fail(new HttpTimeoutError(this.phase));
    }, firstDeadlineMs);
  }

  private restart(): void {
    if (this.headDone) return;
    this.phase = 'HEADERS_TIMEOUT';
    this.timer.refresh();
  }

  connected(): void {
    this.restart();
  }

  /** The host took a piece of the request body. */
  taken(): void {
    this.restart();
  }

  /** The headers came: from now on only the body's limits apply, kept by watching `body`. */
  answer(body: Readable): void {
    this.stop();
    const started = Date.now();
    let received = 0;
    let lastPiece = started;
    const check = () => {
      const now = Date.now();
      const silentUntil = lastPiece + this.timeoutMs;
      const dueBy = started + this.timeoutMs + (received * 1000) / MIN_BODY_BYTES_PER_SECOND;
      if (now >= silentUntil) this.fail(new HttpTimeoutError('BODY_TIMEOUT'));
      else if (now >= dueBy) this.fail(new HttpTimeoutError('BODY_TOO_SLOW'));
      else this.timer = setTimeout(check, Math.min(silentUntil, dueBy) - now);
    };
    this.timer = setTimeout(check, this.timeoutMs);
    // 'data' is emitted for every chunk a consumer takes, however it reads (read() emits it too); the pause keeps the
    // listener from starting the flow before the consumer is there. Counting costs no timer work per chunk.
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      lastPiece = Date.now();
    });
    body.pause();
    body.once('end', () => this.stop());
    body.once('close', () => this.stop());
  }

  stop(): void {
    this.headDone = true;
    clearTimeout(this.timer);
  }
}

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: RequestBody;
  signal?: AbortSignal;
}

/** One way of sending a request: node:http directly, or undici through a proxy. */
export interface Transport {
  request(url: URL, options: HttpRequestOptions): Promise<HttpResponse>;
  close(): void;
}
