import { crypto } from '../shared/crypto.js';
import type { Readable } from 'node:stream';
import { abortableSleep, interruption } from '../core/interrupt.js';
import { holdYoungGeneration } from '../core/young-generation.js';
import { nestsDeeperThan } from '../shared/nesting.js';
import { AnswerReader, headerValue } from './answer-reader.js';
import { ApiError, isEsignError, NetworkError, UnexpectedAnswerError, UsageError } from '../core/errors.js';
import { describeBody, DryRunComplete, type DryRunRequest } from './dry-run.js';
import { MIN_BODY_BYTES_PER_SECOND, type FileBody, type HttpResponse } from './attempt.js';
import { discard, drain, HttpPool } from './http.js';
import { networkHint, proxyRefusal } from './network-hints.js';
import { expandPath, getOperation, type Operation } from './operations.js';
import { assertExtraHeader } from './request-headers.js';
import { RatePacer } from './rate-pacer.js';
import { decideRetry, defaultRetryPolicy, parseRetryAfter, proxyStatusOf, type AttemptOutcome, type RetryPolicy } from './retry.js';

export interface ClientOptions {
  baseUrl: URL;
  key: string;
  userAgent: string;
  /** Per attempt: to connect, then to the final status line and headers, then of silence in a body (AttemptDeadlines). */
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  /** One line per request and response (never the Authorization header); the output layer masks the key. */
  trace?: (line: string) => void;
  /** Replaces the generated Idempotency-Key (`--idempotency-key`). */
  idempotencyKey?: string;
  /** Tells the person what a wait is for (a spinner, a stderr line). */
  onRetry?: (info: { operationId: string; reason: string; delayMs: number; attempt: number }) => void;
  /** `--dry-run`: a request that would change something is handed here (key redacted) and not sent. */
  onDryRun?: (request: DryRunRequest) => void;
}

/** A list operation and the parameters of its first page: what a list command or a search pages through. */
export interface ListSource {
  operationId: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface RequestOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A raw body instead of JSON (e.g. `application/pdf` for validate). */
  raw?: { body: Buffer | Readable; contentType: string; length?: number };
  retry?: Partial<RetryPolicy>;
  /** For this call only, instead of the client's `onRetry` (e.g. a command's own spinner). */
  onRetry?: ClientOptions['onRetry'];
  /**
   * The Idempotency-Key of this logical request, reused on every retry (send-now and batch mode derive theirs from
   * the content). Without it, an operation that requires one gets `--idempotency-key` or a fresh UUID; any other POST
   * sends one only when given, which makes a dropped connection safe to retry.
   */
  idempotencyKey?: string;
  /** Stops the request and the waits between retries (e.g. `interruption.signal`). */
  signal?: AbortSignal;
  /** Extra request headers (`esign api -H`): refused before anything is sent if esign owns one or it is invalid. */
  headers?: Record<string, string>;
  /** Dry-run this call even if it only reads (`esign api --dry-run GET ...` sends nothing at all). */
  dryRun?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  requestId?: string;
  idempotencyKey?: string;
}

/**
 * The only code that talks to the API. It builds every URL from the operation table, sends the key only to the
 * configured origin, and owns the retry loop (the decision itself is `decideRetry`).
 */
export class ApiClient {
  private apiPool: HttpPool | undefined;
  private transferPool: HttpPool | undefined;
  private readonly policy: RetryPolicy;
  /** Every API request of this client (all of a `batch run`'s at once) keeps to the account's ceiling. */
  private readonly pacer = new RatePacer();
  /** Whether a request carried the Idempotency-Key given to the client (`--idempotency-key`), or a dry run showed it. */
  givenIdempotencyKeyUsed = false;

  constructor(private readonly options: ClientOptions) {
    this.policy = { ...defaultRetryPolicy, ...options.retry };
  }

  get origin(): string {
    return this.options.baseUrl.origin;
  }

  /** setTimeout's ceiling: a longer `--timeout` would fire at once. */
  private get timeoutMs(): number {
    return Math.min(this.options.timeoutMs, 2 ** 31 - 1);
  }

  /**
   * Keep-alive pool: a command that polls or pages reuses its connections. Nothing in it follows a redirect, so the key
   * cannot be carried to another origin. Its time limits are deadlines (AttemptDeadlines): a host that keeps sending
   * 1xx answers or headers a byte at a time is cut at `--timeout` as a silent one is.
   */
  private get pool(): HttpPool {
    return (this.apiPool ??= new HttpPool(this.timeoutMs));
  }

  async close(): Promise<void> {
    this.apiPool?.close();
    this.transferPool?.close();
    this.apiPool = undefined;
    this.transferPool = undefined;
  }

  urlFor(operation: Operation, options: RequestOptions): URL {
    const base = this.options.baseUrl;
    const url = new URL(base.origin);
    url.pathname = `${base.pathname.replace(/\/$/, '')}${expandPath(operation.path, options.params ?? {})}`;
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  private trace(line: string): void {
    this.options.trace?.(line);
  }

  async call<T = unknown>(operationId: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const operation = getOperation(operationId);
    const url = this.urlFor(operation, options);
    if (url.origin !== this.origin) throw new Error('refusing to send the key to another origin');
    const policy = { ...this.policy, ...options.retry };
    // Made once per logical request and reused on every retry, so a retried POST can never apply twice.
    const idempotencyKey = options.idempotencyKey ?? (operation.idempotent ? (this.options.idempotencyKey ?? crypto().randomUUID()) : undefined);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.key}`,
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      assertExtraHeader(name, value);
      headers[name.toLowerCase()] = value;
    }
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (idempotencyKey !== undefined && idempotencyKey === this.options.idempotencyKey) this.givenIdempotencyKeyUsed = true;
    let body: string | Buffer | Readable | undefined;
    if (options.raw) {
      body = options.raw.body;
      headers['content-type'] = options.raw.contentType;
      if (options.raw.length !== undefined) headers['content-length'] = String(options.raw.length);
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const replayable = options.raw === undefined || Buffer.isBuffer(options.raw.body);
    if (this.options.onDryRun && (options.dryRun || !operation.readOnly)) {
      const request: DryRunRequest = {
        dryRun: true,
        operationId,
        method: operation.method,
        url: url.href,
        headers: { ...headers, authorization: 'Bearer [REDACTED]' },
        body: describeBody(options.body, options.raw),
      };
      this.options.onDryRun(request);
      throw new DryRunComplete(`${request.method} ${request.url} not sent`);
    }

    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      this.trace(`> ${operation.method} ${url.href} (${operationId}, attempt ${attempt})${idempotencyKey ? ` Idempotency-Key: ${idempotencyKey}` : ''}`);
      if (typeof body === 'string') this.trace(`> ${body.length > 2000 ? `${body.slice(0, 2000)}…` : body}`);
      let outcome: AttemptOutcome;
      let failure: ApiError | NetworkError;
      for (let paced = this.pacer.wait(Date.now()); paced > 0; paced = this.pacer.wait(Date.now())) {
        this.trace(`! waiting ${paced} ms for the account's request ceiling (RateLimit headers)`);
        await abortableSleep(paced, options.signal ?? interruption.signal);
      }
      this.pacer.send(Date.now());
      try {
        const response = await this.pool.request(url, {
          method: operation.method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: options.signal ?? interruption.signal,
        });
        const requestId = headerValue(response.headers['x-request-id']);
        this.pacer.observe(Date.now(), {
          status: response.statusCode,
          limit: headerValue(response.headers['ratelimit-limit']),
          reset: headerValue(response.headers['ratelimit-reset']),
          retryAfter: headerValue(response.headers['retry-after']),
        });
        const answer = new AnswerReader(operation, url, response.statusCode, response.headers, idempotencyKey);
        if (response.statusCode >= 300 && response.statusCode < 400) {
          discard(response.body);
          this.trace(`< ${response.statusCode} ${operationId} (redirect not followed)`);
          throw answer.redirect();
        }
        const text = await answer.readText(response.body);
        this.trace(`< ${response.statusCode} ${operationId}${requestId ? ` request-id ${requestId}` : ''} (${Date.now() - started} ms)`);
        if (text) this.trace(`< ${text.length > 2000 ? `${text.slice(0, 2000)}…` : text}`);
        if (response.statusCode < 400) {
          return {
            status: response.statusCode,
            body: (await answer.check(text)) as T,
            headers: response.headers,
            ...(requestId ? { requestId } : {}),
            ...(idempotencyKey ? { idempotencyKey } : {}),
          };
        }
        const error = toApiError(response.statusCode, parseErrorBody(text), text, requestId, headerValue(response.headers['retry-after']));
        failure = error;
        outcome = { kind: 'response', status: error.status, code: error.code, retryAfter: headerValue(response.headers['retry-after']) ?? null };
      } catch (error) {
        if (isEsignError(error)) throw error;
        if ((options.signal ?? interruption.signal).aborted) throw (options.signal ?? interruption.signal).reason;
        const networkError = toNetworkError(error, this.origin, this.timeoutMs);
        failure = networkError;
        outcome = { kind: 'network', timedOut: networkError.code === 'TIMEOUT', ...proxyStatusOf(networkError) };
      }
      if (!replayable) throw failure;
      const decision = decideRetry(
        { outcome, method: operation.method, hasIdempotencyKey: idempotencyKey !== undefined, attempt, elapsedMs: Date.now() - started, random: Math.random(), nowMs: Date.now() },
        policy,
      );
      if (!decision.retry) {
        this.trace(`! not retrying: ${decision.reason}`);
        // A create whose answer never came may have been applied: the key is what repeats it safely.
        if (operation.idempotent && idempotencyKey && (outcome.kind === 'network' || outcome.status >= 500)) failure.unansweredIdempotencyKey = idempotencyKey;
        throw failure;
      }
      this.trace(`! retrying in ${decision.delayMs} ms: ${decision.reason}`);
      (options.onRetry ?? this.options.onRetry)?.({ operationId, reason: decision.reason, delayMs: decision.delayMs, attempt });
      await abortableSleep(decision.delayMs, options.signal ?? interruption.signal);
    }
  }

  /** Follows `nextCursor` until the end, or until `max` items were read. */
  async *paginate<T>(operationId: string, options: RequestOptions & { max?: number } = {}): AsyncGenerator<T> {
    let count = 0;
    for await (const page of this.pages<T>(operationId, options)) {
      for (const item of page.data) {
        yield item;
        if (options.max !== undefined && ++count >= options.max) return;
      }
    }
  }

  /**
   * One list answer at a time, following `nextCursor` from `options.query.cursor` (or the first page) to the end. A
   * cursor answered twice would loop for ever: it is refused.
   */
  async *pages<T>(operationId: string, options: RequestOptions = {}): AsyncGenerator<{ data: T[]; nextCursor: string | null }> {
    const seen = new Set<string>();
    let cursor = options.query?.cursor;
    do {
      if (typeof cursor === 'string') seen.add(cursor);
      const page = await this.call<{ data?: T[]; nextCursor?: string | null }>(operationId, {
        ...options,
        query: { ...options.query, cursor },
      });
      cursor = page.body?.nextCursor ?? undefined;
      if (typeof cursor === 'string' && seen.has(cursor)) {
        throw new UnexpectedAnswerError(
          `The server at ${this.origin} answered a nextCursor it had already given to ${operationId}, which esign does not understand: following it would never end.`,
          'UNEXPECTED_RESPONSE',
          { operation: operationId, status: page.status },
        );
      }
      if (cursor) holdYoungGeneration();
      yield { data: page.body?.data ?? [], nextCursor: cursor ?? null };
    } while (cursor);
  }

  /**
   * Signed addresses get a pool of their own, with the same deadlines: the upload's clock starts again with each piece
   * of the file the host takes, and a body must keep coming; a slow 1 GiB transfer that keeps moving goes through.
   */
  private get transfers(): HttpPool {
    return (this.transferPool ??= new HttpPool(this.timeoutMs));
  }

  /**
   * PUT raw bytes to a signed address. The address is a capability of its own: the API key never goes with it,
   * whatever its host. Only a 2xx answer means the bytes were taken; anything else, a redirect included, is a failure.
   */
  async upload(address: string, body: FileBody | Readable | Buffer, meta: { contentType: string; contentLength: number; signal?: AbortSignal }): Promise<void> {
    const url = await transferAddress(address, 'upload');
    this.trace(`> PUT ${url.origin}${url.pathname} (upload, ${meta.contentLength} bytes, signature hidden)`);
    let response: HttpResponse;
    try {
      response = await this.transfers.request(url, {
        method: 'PUT',
        headers: { 'content-type': meta.contentType, 'content-length': String(meta.contentLength), 'user-agent': this.options.userAgent },
        body,
        signal: meta.signal ?? interruption.signal,
      });
    } catch (error) {
      if ((meta.signal ?? interruption.signal).aborted) throw (meta.signal ?? interruption.signal).reason;
      throw transferFailure(error, 'upload', url, this.options.timeoutMs);
    }
    this.trace(`< ${response.statusCode} upload`);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      // The status is the answer; what follows it (usually nothing) is read only so that the connection can be reused.
      await drain(response.body);
      return;
    }
    throw await refusedTransfer(response, 'upload', url);
  }

  /**
   * GET a signed download address into a stream, without the key; answers the number of bytes written. Only 200 carries
   * the file: a redirect is never followed, and any other status fails before a byte reaches `into`.
   */
  async download(address: string, into: NodeJS.WritableStream): Promise<number> {
    const url = await transferAddress(address, 'download');
    const { pipeline } = await import('node:stream/promises');
    this.trace(`> GET ${url.origin}${url.pathname} (download, signature hidden)`);
    let bytes = 0;
    try {
      const response = await this.transfers.request(url, {
        method: 'GET',
        headers: { 'user-agent': this.options.userAgent },
        signal: interruption.signal,
      });
      this.trace(`< ${response.statusCode} download`);
      if (response.statusCode !== 200) throw await refusedTransfer(response, 'download', url);
      response.body.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      await pipeline(response.body, into);
    } catch (error) {
      // The destination's own errors (disk full, size limit) arrive as EsignErrors and pass unchanged.
      throw transferFailure(error, 'download', url, this.options.timeoutMs);
    }
    return bytes;
  }
}

type TransferKind = 'upload' | 'download';

/** A signed address must be https, or http on loopback (the emulator): it is a capability, as good as a password. */
async function transferAddress(address: string, kind: TransferKind): Promise<URL> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UsageError(`The ${kind} address the service gave is not a URL.`, 'Run again with --debug to see the answer.', 'TRANSFER_ADDRESS_INVALID');
  }
  if (url.protocol === 'http:') {
    const { isLoopbackUrl } = await import('../shared/loopback.js');
    if (!isLoopbackUrl(address)) throw new UsageError(`Refusing to ${kind} over plain http to ${url.host}.`, undefined, `${kind.toUpperCase()}_INSECURE`);
  } else if (url.protocol !== 'https:') {
    throw new UsageError(`Refusing to ${kind} through a ${url.protocol} address: only https (or http on loopback) is used.`, undefined, `${kind.toUpperCase()}_INSECURE`);
  }
  return url;
}

/** An error answer is read only this far: enough for the host's message, never a hostile host's endless body. */
const ERROR_BODY_LIMIT = 64 * 1024;

async function boundedText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ERROR_BODY_LIMIT) break;
    }
  } catch {
    // A body that breaks off still leaves the status to report.
  }
  discard(body);
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_LIMIT).toString('utf8');
}

/** A transfer host answered something other than success: what it said, and that nothing was moved. */
async function refusedTransfer(response: HttpResponse, kind: TransferKind, url: URL): Promise<ApiError> {
  const status = response.statusCode;
  const nothing = kind === 'upload' ? 'nothing was uploaded' : 'nothing was downloaded';
  if (status < 400) {
    discard(response.body);
    if (status >= 300 && status < 400) {
      const location = headerValue(response.headers.location);
      const target = location && URL.canParse(location, url.href) ? ` to ${new URL(location, url).origin}` : '';
      const error = new ApiError(
        status,
        `${kind.toUpperCase()}_REDIRECTED`,
        `The ${kind} host ${url.host} answered ${status}, a redirect${target}; esign does not follow redirects from signed addresses, so ${nothing}.`,
      );
      error.hint = 'A proxy or a moved storage host may be in the way; run again with --debug to see the exchange.';
      return error;
    }
    return new ApiError(status, `${kind.toUpperCase()}_UNEXPECTED_STATUS`, `The ${kind} host ${url.host} answered ${status}, not ${kind === 'upload' ? 'a 2xx success' : '200 with the file'}; ${nothing}.`);
  }
  const text = await boundedText(response.body);
  const answer = toApiError(status, parseJson(text), text, headerValue(response.headers['x-request-id']), headerValue(response.headers['retry-after']));
  return new ApiError(status, answer.code, `The ${kind} host ${url.host} refused with ${status}: ${answer.message}`, answer.details, answer.requestId, answer.retryAfterSeconds);
}

/** A transfer that broke off: the signal that stopped it, the destination's own error, or what the network did. */
function transferFailure(error: unknown, kind: TransferKind, url: URL, timeoutMs: number): Error {
  if (interruption.signal.aborted) return interruption.signal.reason as Error;
  if (isEsignError(error)) return error;
  const err = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  const seconds = `${timeoutMs / 1000} s`;
  const timeout = (message: string) => new NetworkError(message, 'TIMEOUT', timeoutHint(timeoutMs));
  switch (code) {
    case 'CONNECT_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return timeout(`Could not connect to the ${kind} host ${url.host} within ${seconds}.`);
    case 'HEADERS_TIMEOUT':
      return timeout(
        kind === 'upload'
          ? `The upload host ${url.host} neither took more of the file nor answered for ${seconds}.`
          : `The download host ${url.host} did not answer within ${seconds}.`,
      );
    case 'BODY_TIMEOUT':
      return timeout(`The ${kind} from ${url.host} stalled: nothing arrived for ${seconds}.`);
    case 'BODY_TOO_SLOW':
      return timeout(`The ${kind} from ${url.host} came too slowly: ${tooSlow(timeoutMs)}.`);
    default: {
      const refused = proxyRefusal(err.message, url.origin);
      if (refused) return refused;
      return new NetworkError(`The ${kind} ${kind === 'upload' ? 'to' : 'from'} ${url.host} failed: ${code ?? err.message ?? 'unknown error'}.`, 'NETWORK_ERROR', networkHint(code, url.origin));
    }
  }
}

/** What BODY_TOO_SLOW means, in the words of the limit. */
function tooSlow(timeoutMs: number): string {
  return `slower than ${MIN_BODY_BYTES_PER_SECOND / 1024} KiB/s after its first ${timeoutMs / 1000} s`;
}

function timeoutHint(timeoutMs: number): string {
  return `--timeout <seconds> sets how long a connect, the wait for an answer or a silence may last (now ${timeoutMs / 1000} s).`;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An error body too deep to print is read as no body: the status and the text still say what happened. */
function parseErrorBody(text: string): unknown {
  const parsed = parseJson(text);
  return nestsDeeperThan(parsed) ? undefined : parsed;
}

function toApiError(status: number, parsed: unknown, text: string, requestId: string | undefined, retryAfter: string | undefined): ApiError {
  const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' && error.code ? error.code : `HTTP_${status}`;
  const message = typeof error?.message === 'string' && error.message ? error.message : text.slice(0, 200) || `HTTP ${status}`;
  const retryAfterMs = parseRetryAfter(retryAfter, Date.now());
  return new ApiError(status, code, message, error?.details, requestId, retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000));
}

function toNetworkError(error: unknown, origin: string, timeoutMs: number): NetworkError {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  const seconds = `${timeoutMs / 1000} s (--timeout)`;
  // Before the names: undici calls a refused tunnel an AbortError.
  const refused = proxyRefusal(err.message, origin);
  if (refused) return refused;
  if (code === 'CONNECT_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return new NetworkError(`Could not connect to ${origin} within ${seconds}.`, 'TIMEOUT');
  if (code === 'BODY_TOO_SLOW') return new NetworkError(`The answer from ${origin} came too slowly: ${tooSlow(timeoutMs)}.`, 'TIMEOUT');
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'HEADERS_TIMEOUT' || code === 'BODY_TIMEOUT') {
    return new NetworkError(`No answer from ${origin} within ${seconds}.`, 'TIMEOUT');
  }
  const detail = code ? `${code}` : (err.message ?? 'unknown error');
  return new NetworkError(`Could not reach ${origin}: ${detail}.`, 'NETWORK_ERROR', networkHint(code, origin));
}
