/** One envelope of a batch as read from its files, and the problems reading or checking it finds. */
import { UsageError } from '../core/errors.js';
import type { StructuredInput } from '../input/structured.js';

export const ROUTES = ['flow', 'send-now', 'template'] as const;
export type Route = (typeof ROUTES)[number];

/** One envelope of the batch, expanded, before its envelope spec is checked. */
export interface BatchEntry {
  ref: string;
  via: Route;
  send: boolean;
  /** The envelope's data (defaults merged, `${{ }}` expanded) with positions in its file. */
  input: StructuredInput;
  /** Folder its document files are relative to. */
  base: string;
  /** For an entry expanded from `each:`, the row it came from (`recipients.csv:4`). */
  row?: string;
  /** For an entry expanded from `each:`, the rows file (absolute). */
  rowsFile?: string;
  /** Environment variables its `${{ env.NAME }}` read: another value on a retry makes another envelope. */
  envNames?: string[];
}

/** A problem found while reading the batch; all of them are reported together. */
export interface BatchProblem {
  where: string;
  message: string;
  hint?: string;
}

/** One or more problems in the batch's files: exit 2, nothing sent. */
export class BatchInvalidError extends UsageError {
  constructor(readonly problems: BatchProblem[]) {
    super(
      `${problems.length === 1 ? 'A problem' : `${problems.length} problems`} in the batch; nothing was sent.`,
      [...new Set(problems.flatMap((problem) => (problem.hint ? [problem.hint] : [])))].join(' ') || undefined,
      'BATCH_INVALID',
      { problems },
    );
    this.name = 'BatchInvalidError';
  }
}

/** Turns a thrown usage error of one entry into problems, so one run lists every entry's mistakes. */
export function problemsOf(error: unknown): BatchProblem[] {
  if (error instanceof BatchInvalidError) return error.problems;
  if (error instanceof UsageError) {
    return (error.lines ?? [error.message]).map((line) => {
      const match = /^(\S+:\d+:\d+): (.*)$/s.exec(line);
      return { where: match?.[1] ?? '', message: match?.[2] ?? line, ...(error.hint ? { hint: error.hint } : {}) };
    });
  }
  throw error;
}
