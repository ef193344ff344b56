/**
 * One error hierarchy for the whole CLI. Only the entry point turns these into exit codes (pins.md, "Exit codes").
 */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  unavailable: 6,
  network: 7,
  batchPartial: 8,
} as const;

export interface ErrorBody {
  status?: number;
  code: string;
  message: string;
  details?: unknown;
  /** For human output only: the message is a list, one problem a line (see Message). */
  lines?: readonly string[];
}

/**
 * An error's message: one line, or a list (one problem per line). Text from a server or a file in a message may hold
 * line breaks of its own: human output shows a message with every control character made visible, and keeps the line
 * breaks of a list only, making each of its lines visible on its own (src/output does; errors format nothing).
 */
export type Message = string | readonly string[];

export abstract class EsignError extends Error {
  abstract readonly exitCode: number;
  /** The message as a list, one problem a line: the line breaks between them are ours (see Message). */
  readonly lines: readonly string[] | undefined;
  /** A next step for a person, shown under the message in human output. */
  hint?: string;
  /** The Idempotency-Key of a create whose answer was lost (retries ran out): repeating with it cannot duplicate. */
  unansweredIdempotencyKey?: string;

  constructor(message: Message) {
    super(typeof message === 'string' ? message : message.join('\n'));
    this.lines = typeof message === 'string' ? undefined : message;
  }

  toJSON(): ErrorBody {
    return { code: this.code, message: this.message };
  }

  abstract get code(): string;
}

/** Bad input or a refused local rule: nothing was sent. */
export class UsageError extends EsignError {
  readonly exitCode = ExitCode.usage;
  constructor(
    message: Message,
    hint?: string,
    readonly usageCode = 'USAGE',
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'UsageError';
    if (hint) this.hint = hint;
  }
  get code(): string {
    return this.usageCode;
  }
  override toJSON(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) };
  }
}

export function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 409 || status === 413 || status === 422) return ExitCode.conflict;
  if (status === 429 || status >= 500) return ExitCode.unavailable;
  if (status >= 400) return ExitCode.usage;
  return ExitCode.unexpected;
}

/** The service answered with an error status. */
export class ApiError extends EsignError {
  readonly exitCode: number;
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
    readonly details?: unknown,
    readonly requestId?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.exitCode = exitCodeForStatus(status);
  }
  get code(): string {
    return this.apiCode;
  }
  override toJSON(): ErrorBody {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/** No answer: connection refused or reset, DNS, TLS, or our own time limit. */
export class NetworkError extends EsignError {
  readonly exitCode = ExitCode.network;
  constructor(
    message: string,
    readonly networkCode = 'NETWORK_ERROR',
    hint?: string,
  ) {
    super(message);
    this.name = 'NetworkError';
    if (hint) this.hint = hint;
  }
  get code(): string {
    return this.networkCode;
  }
}

/** The proxy answered `proxyStatus` instead of opening the tunnel to the host: the request never reached it. */
export class ProxyRefusedError extends NetworkError {
  constructor(
    message: string,
    readonly proxyStatus: number,
    hint?: string,
  ) {
    super(message, 'PROXY_REFUSED', hint);
    this.name = 'ProxyRefusedError';
  }
}

/** A local file could not be written for a reason the person cannot fix by changing the command (disk full). */
export class LocalFileError extends EsignError {
  readonly exitCode = ExitCode.unexpected;
  constructor(
    message: string,
    readonly fileCode: string,
  ) {
    super(message);
    this.name = 'LocalFileError';
  }
  get code(): string {
    return this.fileCode;
  }
}

/**
 * The service answered, but not in a way esign can read: a redirect (never followed), no content where JSON was
 * expected, a body that is not JSON, not the documented shape, or over the size limit. Exit 7 like a network fault:
 * the exchange with the service failed, and exit 1 stays for esign's own bugs (docs/contract-assumptions.md).
 */
export class UnexpectedAnswerError extends EsignError {
  readonly exitCode = ExitCode.network;
  constructor(
    message: string,
    readonly answerCode: string,
    readonly details: { operation: string; status: number; [name: string]: unknown },
    hint?: string,
  ) {
    super(message);
    this.name = 'UnexpectedAnswerError';
    if (hint) this.hint = hint;
  }
  get code(): string {
    return this.answerCode;
  }
  override toJSON(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** A wait (for a status, for documents) ended without reaching what was asked. */
export class WaitError extends EsignError {
  constructor(
    message: Message,
    readonly exitCode: number,
    readonly waitCode: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'WaitError';
  }
  get code(): string {
    return this.waitCode;
  }
  override toJSON(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) };
  }
}

/**
 * The service did what was asked, but the work it did failed elsewhere: a webhook redelivery the receiver did not
 * accept. Exit 6, as an unavailable service: trying again later is the remedy.
 */
export class OutcomeError extends EsignError {
  readonly exitCode = ExitCode.unavailable;
  constructor(
    message: string,
    readonly outcomeCode: string,
    readonly details?: unknown,
    hint?: string,
  ) {
    super(message);
    this.name = 'OutcomeError';
    if (hint) this.hint = hint;
  }
  get code(): string {
    return this.outcomeCode;
  }
  override toJSON(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) };
  }
}

export function isEsignError(error: unknown): error is EsignError {
  return error instanceof EsignError;
}
