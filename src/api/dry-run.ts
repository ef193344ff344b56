import { EsignError, ExitCode } from '../core/errors.js';

/** What `--dry-run` prints instead of sending: enough to replay the request by hand, without the key. */
export interface DryRunRequest {
  dryRun: true;
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Thrown once a `--dry-run` has printed the first change it would have made: the request the client would have sent,
 * or a change to local state (stopIfDryRun). Every command stops at its first change, whatever it would have done
 * next; the entry point turns this into exit 0 with nothing more printed.
 */
export class DryRunComplete extends EsignError {
  readonly exitCode = ExitCode.ok;
  /** `what`: the change not made, e.g. `POST https://… not sent`. */
  constructor(what: string) {
    super(`dry run: ${what}`);
    this.name = 'DryRunComplete';
  }
  get code(): string {
    return 'DRY_RUN';
  }
}

export function isDryRunComplete(error: unknown): error is DryRunComplete {
  return error instanceof DryRunComplete;
}

/** A raw body is described, not copied: a 1 GiB upload prints as its type and length. */
export function describeBody(json: unknown, raw: { contentType: string; length?: number } | undefined): unknown {
  if (raw) return { contentType: raw.contentType, length: raw.length ?? null, note: 'raw bytes, not shown' };
  return json ?? null;
}
