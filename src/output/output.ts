/* The output layer is the one place that writes to the terminal: data to stdout, everything else to stderr. */
import { Chalk, type ChalkInstance } from 'chalk';
import type { ErrorBody } from '../api/errors.js';

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  debug: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

export interface Spinner {
  update(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

export type Styles = ChalkInstance;

export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly debugEnabled: boolean;
  readonly style: Styles;
  private readonly stdout: NodeJS.WriteStream;
  private readonly stderr: NodeJS.WriteStream;

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.quiet = options.quiet;
    this.debugEnabled = options.debug;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    // Our own rule decides colour (NO_COLOR, --no-color, a TTY), not chalk's detection.
    this.style = new Chalk({ level: options.color ? 1 : 0 });
  }

  /**
   * The same output without spinners, progress bars and info lines (warnings, debug and errors stay): for work that
   * runs several at a time, whose own spinners would fight over one terminal line.
   */
  withoutProgress(): Output {
    return new Output({ json: this.json, quiet: true, color: this.style.level > 0, debug: this.debugEnabled, stdout: this.stdout, stderr: this.stderr });
  }

  get stderrIsTTY(): boolean {
    return Boolean(this.stderr.isTTY);
  }

  /** The command's result: one JSON document with --json, else the human rendering. */
  result(data: unknown, human?: () => string | undefined): void {
    if (this.json) {
      this.stdout.write(`${JSON.stringify(data ?? null, null, 2)}\n`);
      return;
    }
    const text = human ? human() : typeof data === 'string' ? data : JSON.stringify(data, null, 2);
    if (text !== undefined && text !== '') this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Raw data for stdout that is not JSON-shaped (e.g. `--print-env`). */
  data(text: string): void {
    this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  info(message: string): void {
    if (!this.quiet && !this.json) this.stderr.write(`${message}\n`);
  }

  success(message: string): void {
    this.info(`${this.style.green('✓')} ${message}`);
  }

  /** Warnings survive --quiet and --json: they are about safety (a key in a plain file, live mode). */
  warn(message: string): void {
    this.stderr.write(`${this.style.yellow('!')} ${message}\n`);
  }

  /** Rewrites the current stderr line in place (a progress bar): only on a terminal, never with --json or --quiet. */
  transient(line: string): void {
    if (this.showsTransient) this.stderr.write(`\r${line}\u001b[K`);
  }

  /** Ends a transient line, keeping its last state on screen. */
  endTransient(): void {
    if (this.showsTransient) this.stderr.write('\n');
  }

  private redrawnLines = 0;

  /**
   * Replaces the block of lines drawn last (a batch's bar and one line per envelope in flight) on a terminal; `[]`
   * clears it. Lines are cut to the terminal's width, so that none wraps and the block can be found again.
   */
  redraw(lines: readonly string[]): void {
    if (!this.showsTransient) return;
    const width = Math.max(20, (this.stderr.columns ?? 80) - 1);
    const up = this.redrawnLines > 0 ? `\u001b[${this.redrawnLines}F` : '\r';
    this.stderr.write(`${up}\u001b[J${lines.map((line) => `${[...line].slice(0, width).join('')}\n`).join('')}`);
    this.redrawnLines = lines.length;
  }

  get showsTransient(): boolean {
    return !this.json && !this.quiet && Boolean(this.stderr.isTTY);
  }

  banner(message: string): void {
    if (!this.json) this.stderr.write(`${this.style.bold(this.style.red(message))}\n`);
  }

  debug(line: string): void {
    if (this.debugEnabled) this.stderr.write(`${this.style.dim(`[debug] ${line}`)}\n`);
  }

  error(body: ErrorBody, hint?: string, stack?: string): void {
    if (this.json) {
      this.stderr.write(`${JSON.stringify({ error: { status: body.status ?? null, code: body.code, message: body.message, details: body.details ?? null } })}\n`);
      return;
    }
    const status = body.status ? `${body.status} ` : '';
    this.stderr.write(`${this.style.red('✗')} ${status}${body.code}: ${body.message}\n`);
    for (const line of describeDetails(body)) this.stderr.write(`  ${line}\n`);
    if (hint) this.stderr.write(`  ${this.style.dim('hint:')} ${hint}\n`);
    if (stack && this.debugEnabled) this.stderr.write(`${this.style.dim(stack)}\n`);
  }

  async spinner(text: string): Promise<Spinner> {
    if (this.json || this.quiet || !this.stderr.isTTY) {
      return { update: () => {}, succeed: (t) => t && this.info(t), fail: (t) => t && this.warn(t), stop: () => {} };
    }
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: this.stderr }).start();
    return {
      update: (t) => {
        spinner.text = t;
      },
      succeed: (t) => spinner.succeed(t),
      fail: (t) => spinner.fail(t),
      stop: () => spinner.stop(),
    };
  }
}

function describeDetails(body: ErrorBody): string[] {
  const details = body.details as Record<string, unknown> | undefined;
  // An input file's problems are already in the message, each with its file:line:column.
  if (!details || typeof details !== 'object' || body.code === 'INPUT_INVALID') return [];
  if (body.code === 'ANCHOR_NOT_FOUND' && Array.isArray(details.anchors)) {
    const lines = (details.anchors as { fieldId?: string; text?: string }[]).map(
      (anchor) => `anchor not found: field ${anchor.fieldId ?? '?'} text ${JSON.stringify(anchor.text ?? '')}`,
    );
    if (details.truncated) lines.push('only the first 500 pages were searched (the document is longer)');
    return lines;
  }
  if (Array.isArray(details.problems)) {
    const listed = (entries: unknown[], prefix: string) =>
      (entries as { where?: string; code?: string; message?: string }[]).map(
        (entry) => `${prefix}${entry.where ? `${entry.where}: ` : ''}${entry.code ? `${entry.code}: ` : ''}${entry.message ?? ''}`,
      );
    return [...listed(details.problems, '- '), ...(Array.isArray(details.warnings) ? listed(details.warnings, 'warning: ') : [])];
  }
  return Object.entries(details).map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}
