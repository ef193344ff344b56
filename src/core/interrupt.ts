/**
 * SIGINT and SIGTERM as an AbortSignal, plus last-resort clean-ups. Long work (uploads, downloads, waits) listens to
 * `interruption.signal`, stops promptly and says what was done; code that owns a temporary file registers a
 * synchronous clean-up so that even a forced exit leaves nothing half-written behind. The entry point installs the
 * process handlers and decides the exit code.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { EsignError } from './errors.js';

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** 128 + the signal's number, as shells report a process a signal stopped. */
export const interruptExitCodes: Record<InterruptSignal, number> = { SIGINT: 130, SIGTERM: 143 };

/** The work was stopped by the user (Ctrl-C) or by a supervisor (SIGTERM). */
export class InterruptedError extends EsignError {
  readonly exitCode: number;
  constructor(
    readonly signal: InterruptSignal,
    message = `Stopped by ${signal}.`,
    hint?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'InterruptedError';
    this.exitCode = interruptExitCodes[signal];
    if (hint) this.hint = hint;
  }
  get code(): string {
    return 'INTERRUPTED';
  }
  override toJSON() {
    return { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) };
  }
}

type Cleanup = () => void;

class Interruption {
  private controller = new AbortController();
  private readonly cleanups = new Set<Cleanup>();

  /** Aborted (with an InterruptedError as its reason) when the first SIGINT or SIGTERM arrives. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get received(): InterruptSignal | undefined {
    return this.signal.aborted ? (this.signal.reason as InterruptedError).signal : undefined;
  }

  trigger(signal: InterruptSignal): void {
    if (!this.signal.aborted) this.controller.abort(new InterruptedError(signal));
  }

  /** Resolves at the first SIGINT or SIGTERM (at once if one came already): the end of a server's run. */
  untilInterrupted(): Promise<void> {
    const { signal } = this;
    return new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  private finishingWork = 0;

  /**
   * Work a stop must not cut short, because cutting it loses what the person asked to keep: the emulator's last save
   * of its `--state`. The forced exit after the first signal waits for it; a second signal does not.
   */
  async finishing<T>(work: Promise<T>): Promise<T> {
    this.finishingWork++;
    try {
      return await work;
    } finally {
      this.finishingWork--;
    }
  }

  /** Whether work started with `finishing` is under way. */
  get isFinishing(): boolean {
    return this.finishingWork > 0;
  }

  /** Throws the InterruptedError if a signal arrived: a checkpoint between steps of a job. */
  throwIfInterrupted(): void {
    if (this.signal.aborted) throw this.signal.reason as InterruptedError;
  }

  /** Waits `ms`, or throws the InterruptedError as soon as a signal arrives: every wait between requests uses it. */
  sleep(ms: number): Promise<void> {
    return abortableSleep(ms, this.signal);
  }

  /**
   * A synchronous clean-up for a forced exit (a second Ctrl-C, or work that did not stop in time), e.g. removing a
   * temporary file. Returns the function that unregisters it once the resource is gone.
   */
  onForcedExit(cleanup: Cleanup): () => void {
    this.cleanups.add(cleanup);
    return () => this.cleanups.delete(cleanup);
  }

  runForcedExitCleanups(): void {
    for (const cleanup of this.cleanups) {
      try {
        cleanup();
      } catch {
        // Best effort: the process is leaving.
      }
    }
    this.cleanups.clear();
  }

  /** For in-process tests: a fresh state. */
  reset(): void {
    this.controller = new AbortController();
    this.cleanups.clear();
  }
}

export const interruption = new Interruption();

/** Waits `ms`; rejects with the signal's reason (not a bare AbortError) so the waiting work says why it stopped. */
export async function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await wait(ms, undefined, signal ? { signal } : {});
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
}

/** The InterruptedError behind `error` if a signal arrived, whatever an aborted request or stream threw on its way out. */
export function interruptionOf(error: unknown): InterruptedError | undefined {
  if (!interruption.signal.aborted) return undefined;
  return error instanceof InterruptedError ? error : (interruption.signal.reason as InterruptedError);
}
