/**
 * Reading one API answer without trusting it: at most MAX_JSON_ANSWER_BYTES, and a 2xx only once it is JSON of the
 * shape its operation documents (src/api/answers.ts). Anything else becomes an UnexpectedAnswerError that names the
 * server, what it answered and the operation.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { formatBytes } from '../core/units.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting.js';
import { UnexpectedAnswerError } from '../core/errors.js';
import { MAX_JSON_ANSWER_BYTES } from './limits.js';
import type { Operation } from './operations.js';

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const checkBaseUrl = 'Check the base URL (ESIGN_SANDBOX_BASE_URL, ESIGN_BASE_URL, the profile or the project config): it must be the API itself, not a web page, a proxy or another service.';

export class AnswerReader {
  constructor(
    private readonly operation: Operation,
    private readonly url: URL,
    private readonly status: number,
    private readonly headers: IncomingHttpHeaders,
    private readonly idempotencyKey: string | undefined,
  ) {}

  private get request(): string {
    return `${this.operation.method} ${this.url.pathname} (${this.operation.id})`;
  }

  private fail(what: string, code: string, hint: string, details: Record<string, unknown> = {}, problem?: string): UnexpectedAnswerError {
    return new UnexpectedAnswerError(
      `The server at ${this.url.origin} answered ${what} to ${this.request}, which esign does not understand${problem ? `: ${problem}` : '.'}`,
      code,
      {
        operation: this.operation.id,
        status: this.status,
        ...details,
        // A POST that may have been applied can be repeated safely only with the same key.
        ...(this.idempotencyKey ? { idempotencyKey: this.idempotencyKey } : {}),
      },
      hint,
    );
  }

  /** A 3xx is never followed: the key must not travel to wherever it points. */
  redirect(): UnexpectedAnswerError {
    const location = headerValue(this.headers.location);
    let target: string | undefined;
    try {
      target = location ? new URL(location, this.url).origin : undefined;
    } catch {
      target = undefined;
    }
    const sameOrigin = target === this.url.origin;
    return this.fail(
      `a redirect (${this.status}${target ? ` to ${sameOrigin ? 'another path on the same server' : target}` : ''})`,
      'UNEXPECTED_REDIRECT',
      `esign never follows a redirect, so the key is not sent anywhere else. ${target && !sameOrigin ? `If the API has moved to ${target}, make that the base URL. ` : ''}${checkBaseUrl}`,
      target ? { location: target } : {},
    );
  }

  /** The body as text, refusing to read past the cap. */
  async readText(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
    const declared = Number(headerValue(this.headers['content-length']));
    const tooLarge = (what: string) => {
      body.destroy();
      return new UnexpectedAnswerError(
        `The server at ${this.url.origin} answered ${what} to ${this.request}; esign reads at most ${formatBytes(MAX_JSON_ANSWER_BYTES)} of an API answer and stopped there.`,
        'RESPONSE_TOO_LARGE',
        { operation: this.operation.id, status: this.status, limitBytes: MAX_JSON_ANSWER_BYTES, ...(Number.isFinite(declared) ? { declaredBytes: declared } : {}) },
        checkBaseUrl,
      );
    };
    if (Number.isFinite(declared) && declared > MAX_JSON_ANSWER_BYTES) throw tooLarge(`${formatBytes(declared)}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_JSON_ANSWER_BYTES) throw tooLarge(`more than ${formatBytes(MAX_JSON_ANSWER_BYTES)}`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The body of a 2xx, once it is what the operation answers; `undefined` for no content where that is allowed. */
  async check(text: string): Promise<unknown> {
    const { operation } = this;
    if (operation.answers === 'none') return undefined;
    if (text.trim() === '') {
      if (operation.mayAnswerNothing) return undefined;
      throw this.fail(this.status === 204 ? '204 No Content' : `${this.status} with an empty body`, 'UNEXPECTED_RESPONSE', checkBaseUrl);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const type = headerValue(this.headers['content-type']);
      throw this.fail(`${this.status} with a body that is not JSON (${type ? `${type}, ` : ''}${formatBytes(Buffer.byteLength(text))})`, 'UNEXPECTED_RESPONSE', checkBaseUrl);
    }
    if (nestsDeeperThan(parsed)) {
      throw this.fail(`JSON nested more than ${MAX_NESTING_DEPTH} levels deep`, 'UNEXPECTED_RESPONSE', checkBaseUrl);
    }
    const { checkAnswer } = await import('./answers.js');
    const verdict = checkAnswer(operation.answers, parsed);
    if (!verdict.ok) {
      throw this.fail(
        `${this.status} with JSON that is not the documented answer`,
        'UNEXPECTED_RESPONSE',
        `Run again with --debug to see the answer. ${checkBaseUrl}`,
        { mismatches: verdict.problems },
        verdict.problems.join('; '),
      );
    }
    return parsed;
  }
}
