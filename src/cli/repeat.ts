/**
 * A create whose answer was lost (the connection dropped or the service failed, and the retries ran out) may have been
 * applied. Repeating the same command with the same Idempotency-Key is safe: the service answers the first result
 * instead of creating a second one. This turns the key the client used into that command.
 */
import type { ErrorBody } from '../core/errors.js';
import { shellQuote } from '../core/shell-quote.js';

/** The command line as given, without any `--idempotency-key`, then with the key that was used. */
export function repeatCommand(argv: readonly string[], key: string): string {
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--idempotency-key') index++;
    else if (!arg.startsWith('--idempotency-key=')) kept.push(arg);
  }
  return ['esign', ...kept, '--idempotency-key', key].map(shellQuote).join(' ');
}

export function explainUnanswered(body: ErrorBody, argv: readonly string[], key: string): { body: ErrorBody; hint: string } {
  const details = typeof body.details === 'object' && body.details !== null ? body.details : {};
  return {
    body: { ...body, details: { ...details, idempotencyKey: key } },
    hint: `The service may have applied the request before its answer was lost (Idempotency-Key ${key}). Repeat it safely, with the same key: ${repeatCommand(argv, key)}`,
  };
}
