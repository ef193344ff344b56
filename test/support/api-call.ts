import { randomUUID } from 'node:crypto';
import { checkAnswer } from '../../src/api/answers.js';
import { operations, type Operation } from '../../src/api/operations.js';
import type { EmulatorProcess } from './emulator.js';

const routes = operations.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
}));

function operationFor(method: string, path: string): Operation | undefined {
  const pathname = path.split('?')[0]!;
  return routes.find((route) => route.operation.method === method && route.pattern.test(pathname))?.operation;
}

/**
 * The emulator answers what the operation table says each operation answers (its success status, and the shapes of
 * src/api/answers.ts the CLI checks): every 2xx of the contract suite is held to them.
 */
function expectDocumentedAnswer(method: string, path: string, status: number, body: unknown): void {
  const operation = operationFor(method, path);
  if (!operation || status < 200 || status >= 300) return;
  // The success status the operation table gives (and the OpenAPI document declares), or 204 where it may answer nothing.
  if (status !== operation.successStatus && !(status === 204 && operation.mayAnswerNothing)) {
    throw new Error(`${operation.id} answered ${status}; the operation table says it answers ${operation.successStatus}`);
  }
  if (body === undefined) {
    if (!operation.mayAnswerNothing) throw new Error(`${operation.id} answered ${status} without a body; the operation table says it answers ${operation.answers}`);
    return;
  }
  const verdict = checkAnswer(operation.answers, body);
  if (!verdict.ok) throw new Error(`${operation.id} answered ${JSON.stringify(body).slice(0, 300)}, not its documented ${operation.answers}: ${verdict.problems.join('; ')}`);
}

// Answers are read as the tests read them: loosely typed JSON.
export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Another key, or false for none (default: the emulator's own). */
  key?: string | false;
  /** Sends a fresh Idempotency-Key unless `headers` carries one. */
  idempotent?: boolean;
}

/** One raw HTTP call to an emulator, JSON in and out, as a client of the contract would make it. */
export async function call(emulator: EmulatorProcess, method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers };
  if (options.idempotent && !headers['idempotency-key']) headers['idempotency-key'] = randomUUID();
  const response = await emulator.fetch(path, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.key === undefined ? {} : { key: options.key }),
  });
  const text = await response.text();
  let body: unknown = text === '' ? undefined : text;
  if (response.headers.get('content-type')?.includes('json')) body = JSON.parse(text);
  expectDocumentedAnswer(method, path, response.status, body);
  return { status: response.status, headers: response.headers, body };
}

/** Fails the test with the answer in the message when the status is not the one expected. */
export function expectStatus(answer: ApiAnswer, status: number): ApiAnswer {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** Envelopes whose title starts with `prefix`, counted through the API's own list (all pages). */
export async function countEnvelopes(emulator: EmulatorProcess, prefix: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/?limit=100${cursor ? `&cursor=${cursor}` : ''}`), 200).body as { data: { title: string }[]; nextCursor: string | null };
    count += page.data.filter((envelope) => envelope.title.startsWith(prefix)).length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}
