/**
 * What `batch run` shows while it works. On a terminal: a bar for the whole batch and one line per envelope in flight
 * (its step and for how long), redrawn in place, with each event line printed above the block. Off a terminal (a CI
 * log) only the event lines, one per line, as plain text.
 */
import { visible } from './sanitize.js';
import type { Output } from './output.js';

const BAR_WIDTH = 24;


export class BatchProgress {
  private readonly inFlight = new Map<string, { step: string; since: number }>();
  private done = 0;
  private failed = 0;
  private readonly ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly output: Output,
    private readonly total: number,
    private readonly now: () => number = Date.now,
  ) {
    // Elapsed times move even when no step ends; off a terminal there is nothing to redraw.
    if (output.showsTransient) this.ticker = setInterval(() => this.draw(), 1_000).unref();
  }

  start(ref: string): void {
    this.inFlight.set(ref, { step: 'starting', since: this.now() });
    this.draw();
  }

  step(ref: string, step: string): void {
    const entry = this.inFlight.get(ref);
    if (entry) entry.step = step;
    this.draw();
  }

  finish(ref: string, ok: boolean): void {
    this.inFlight.delete(ref);
    this.done++;
    if (!ok) this.failed++;
    this.draw();
  }

  /** An event worth a line of its own (created, uploaded, sent, failed): kept above the block, or logged as is. */
  log(line: string): void {
    this.output.redraw([]);
    this.output.info(visible(line));
    this.draw();
  }

  end(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.output.redraw([]);
  }

  lines(): string[] {
    const filled = this.total === 0 ? BAR_WIDTH : Math.round((this.done / this.total) * BAR_WIDTH);
    const style = this.output.style;
    const bar = `${style.green('█'.repeat(filled))}${style.dim('░'.repeat(BAR_WIDTH - filled))}`;
    const counts = [`${this.done}/${this.total} done`, ...(this.failed ? [style.red(`${this.failed} failed`)] : []), `${this.inFlight.size} in flight`];
    const now = this.now();
    return [
      `${bar} ${counts.join(' · ')}`,
      ...[...this.inFlight].map(([ref, entry]) => `  ${style.cyan('›')} ${visible(ref)}: ${visible(entry.step)} ${style.dim(`(${Math.floor((now - entry.since) / 1000)} s)`)}`),
    ];
  }

  private draw(): void {
    if (this.output.showsTransient) this.output.redraw(this.lines());
  }
}
