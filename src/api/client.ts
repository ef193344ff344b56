import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { describeBody, DryRunComplete, type DryRunRequest } from './dry-run.js';
import { ApiError, NetworkError, UsageError } from './errors.js';
import { expandPath, getOperation, type Operation } from './operations.js';
import { decideRetry, defaultRetryPolicy, parseRetryAfter, type AttemptOutcome, type RetryPolicy } from './retry.js';

export interface ClientOptions {
  baseUrl: URL;
  key: string;
  userAgent: string;
  /** Per attempt. */
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  /** One line per request and response, already redacted. */
  trace?: (line: string) => void;
  /** Replaces the generated Idempotency-Key (`--idempotency-key`). */
  idempotencyKey?: string;
  /** Tells the person what a wait is for (a spinner, a stderr line). */
  onRetry?: (info: { operationId: string; reason: string; delayMs: number; attempt: number }) => void;
  /** `--dry-run`: a request that would change something is handed here (key redacted) and not sent. */
  onDryRun?: (request: DryRunRequest) => void;
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
  /** Extra request headers (`esign api -H`); they never replace Authorization. */
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

function redact(text: string, key: string): string {
  return text.split(key).join('[REDACTED]');
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The only code that talks to the API. It builds every URL from the operation table, sends the key only to the
 * configured origin, and owns the retry loop (the decision itself is `decideRetry`).
 */
export class ApiClient {
  private dispatcher: Dispatcher | undefined;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: ClientOptions) {
    this.policy = { ...defaultRetryPolicy, ...options.retry };
  }

  get origin(): string {
    return this.options.baseUrl.origin;
  }

  private async agent(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const { Agent } = await import('undici');
      // Keep-alive pool: a command that polls or uploads several documents reuses its connections.
      // No redirect interceptor: a redirect is never followed, so the key cannot be carried to another origin.
      this.dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
    }
    return this.dispatcher;
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
    this.dispatcher = undefined;
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
    this.options.trace?.(redact(line, this.options.key));
  }

  async call<T = unknown>(operationId: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const operation = getOperation(operationId);
    const url = this.urlFor(operation, options);
    if (url.origin !== this.origin) throw new Error('refusing to send the key to another origin');
    const policy = { ...this.policy, ...options.retry };
    // Made once per logical request and reused on every retry, so a retried POST can never apply twice.
    const idempotencyKey = operation.idempotent ? (this.options.idempotencyKey ?? randomUUID()) : undefined;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.key}`,
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (name.toLowerCase() !== 'authorization') headers[name.toLowerCase()] = value;
    }
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
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
      throw new DryRunComplete(request);
    }

    const dispatcher = await this.agent();
    const { request } = await import('undici');
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      this.trace(`> ${operation.method} ${url.href} (${operationId}, attempt ${attempt})${idempotencyKey ? ` Idempotency-Key: ${idempotencyKey}` : ''}`);
      if (typeof body === 'string') this.trace(`> ${body.length > 2000 ? `${body.slice(0, 2000)}…` : body}`);
      let outcome: AttemptOutcome;
      let failure: Error;
      try {
        const response = await request(url, {
          method: operation.method,
          headers,
          body,
          dispatcher,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        const text = await response.body.text();
        const requestId = headerValue(response.headers['x-request-id']);
        this.trace(`< ${response.statusCode} ${operationId}${requestId ? ` request-id ${requestId}` : ''} (${Date.now() - started} ms)`);
        if (text) this.trace(`< ${text.length > 2000 ? `${text.slice(0, 2000)}…` : text}`);
        const parsed = parseJson(text);
        if (response.statusCode < 400) {
          return {
            status: response.statusCode,
            body: parsed as T,
            headers: response.headers,
            ...(requestId ? { requestId } : {}),
            ...(idempotencyKey ? { idempotencyKey } : {}),
          };
        }
        const error = toApiError(response.statusCode, parsed, text, requestId, headerValue(response.headers['retry-after']));
        failure = error;
        outcome = { kind: 'response', status: error.status, code: error.code, retryAfter: headerValue(response.headers['retry-after']) ?? null };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        failure = toNetworkError(error, this.origin, this.options.timeoutMs);
        outcome = { kind: 'network' };
      }
      if (!replayable) throw failure;
      const decision = decideRetry(
        { outcome, method: operation.method, hasIdempotencyKey: idempotencyKey !== undefined, attempt, elapsedMs: Date.now() - started, random: Math.random(), nowMs: Date.now() },
        policy,
      );
      if (!decision.retry) {
        this.trace(`! not retrying: ${decision.reason}`);
        throw failure;
      }
      this.trace(`! retrying in ${decision.delayMs} ms: ${decision.reason}`);
      (options.onRetry ?? this.options.onRetry)?.({ operationId, reason: decision.reason, delayMs: decision.delayMs, attempt });
      await sleep(decision.delayMs);
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

  /** One list answer at a time, following `nextCursor` from `options.query.cursor` (or the first page) to the end. */
  async *pages<T>(operationId: string, options: RequestOptions = {}): AsyncGenerator<{ data: T[]; nextCursor: string | null }> {
    let cursor = options.query?.cursor;
    do {
      const page = await this.call<{ data?: T[]; nextCursor?: string | null }>(operationId, {
        ...options,
        query: { ...options.query, cursor },
      });
      cursor = page.body?.nextCursor ?? undefined;
      yield { data: page.body?.data ?? [], nextCursor: cursor ?? null };
    } while (cursor);
  }

  /**
   * PUT raw bytes to a signed address. The address is a capability of its own: the API key never goes with it,
   * whatever its host.
   */
  async upload(address: string, body: Readable | Buffer, meta: { contentType: string; contentLength: number }): Promise<void> {
    const url = new URL(address);
    if (url.protocol === 'http:') {
      const { isLoopbackHost } = await import('../auth/hosts.js');
      if (!isLoopbackHost(url.hostname)) throw new UsageError(`Refusing to upload over plain http to ${url.host}.`, undefined, 'UPLOAD_INSECURE');
    }
    const { request } = await import('undici');
    this.trace(`> PUT ${url.origin}${url.pathname} (upload, ${meta.contentLength} bytes, signature hidden)`);
    try {
      const response = await request(url, {
        method: 'PUT',
        headers: { 'content-type': meta.contentType, 'content-length': String(meta.contentLength), 'user-agent': this.options.userAgent },
        body,
        dispatcher: await this.agent(),
      });
      const text = await response.body.text();
      this.trace(`< ${response.statusCode} upload`);
      if (response.statusCode >= 400) throw toApiError(response.statusCode, parseJson(text), text, headerValue(response.headers['x-request-id']), undefined);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw toNetworkError(error, url.origin, this.options.timeoutMs);
    }
  }

  /** GET a signed download address into a stream, without the key. */
  async download(address: string, into: NodeJS.WritableStream): Promise<number> {
    const url = new URL(address);
    const { request } = await import('undici');
    const { pipeline } = await import('node:stream/promises');
    this.trace(`> GET ${url.origin}${url.pathname} (download, signature hidden)`);
    try {
      const response = await request(url, { method: 'GET', headers: { 'user-agent': this.options.userAgent }, dispatcher: await this.agent() });
      if (response.statusCode >= 400) {
        const text = await response.body.text();
        throw toApiError(response.statusCode, parseJson(text), text, undefined, undefined);
      }
      let bytes = 0;
      response.body.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      await pipeline(response.body, into);
      return bytes;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw toNetworkError(error, url.origin, this.options.timeoutMs);
    }
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return new NetworkError(`No answer from ${origin} within ${Math.round(timeoutMs / 1000)} s.`, 'TIMEOUT');
  }
  const code = err.code ?? err.cause?.code;
  const detail = code ? `${code}` : (err.message ?? 'unknown error');
  return new NetworkError(`Could not reach ${origin}: ${detail}.`, 'NETWORK_ERROR');
}
