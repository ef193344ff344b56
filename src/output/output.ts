/* The output layer is the one place that writes to the terminal: data to stdout, everything else to stderr. */
import { stripVTControlCharacters } from 'node:util';
import { Chalk, type ChalkInstance } from 'chalk';
import { LocalFileError, type ErrorBody } from '../core/errors.js';
import { identityOf, type Identity } from './identity.js';
import { flushProtectedStream, redactor, type Redactor } from './redact.js';
import { terminalJson, visible } from './sanitize.js';
import { streamFailure } from './stream-failure.js';
import { wrapToWidth, type TableStyle } from './table.js';
import { reportedColumns } from './terminal-width.js';

/**
 * The failure of a stdout that could not take the output (a full disk or a broken device under a redirection): that
 * must not pass for success. A reader that left (EPIPE) is not one: esign then stops quietly (main.ts).
 */
export function stdoutLost(stdout: NodeJS.WritableStream): LocalFileError | undefined {
  const failure = streamFailure(stdout);
  if (!failure || failure.code === 'EPIPE') return undefined;
  const lost = new LocalFileError(`The output could not be written to stdout (${failure.code ?? failure.message}); what was not written is lost.`, 'OUTPUT_LOST');
  lost.hint = 'Free some space where the output goes, or send it elsewhere.';
  return lost;
}

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  /** Colours in what goes to stdout (tables, statuses). */
  color: boolean;
  /** Colours in messages on stderr; `color` unless told. Each stream is coloured only when it is a terminal. */
  stderrColor?: boolean;
  debug: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** The process's redactor unless a test brings its own. */
  redactor?: Redactor;
  /** Spinners, progress bars and info lines; off with --quiet and --json whatever this says. */
  progress?: boolean;
  /** The terminal's width in columns when stdout is one: tables fit it (not given with --wide: nothing is cut). */
  terminalWidth?: number;
}

export interface Spinner {
  update(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

/**
 * Colours, the terminal's width when stdout is one (off a terminal nothing is cut: see renderTable), and where a table
 * says which columns it left out to fit that width.
 */
export type Styles = ChalkInstance & TableStyle;

export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly debugEnabled: boolean;
  /** The styles of data, for stdout. */
  readonly style: Styles;
  /** The styles of messages, for stderr. */
  private readonly messageStyle: ChalkInstance;
  private readonly progress: boolean;
  private readonly terminalWidth: number | undefined;
  private readonly stdout: NodeJS.WriteStream;
  private readonly stderr: NodeJS.WriteStream;
  private readonly redactor: Redactor;

  constructor(options: OutputOptions) {
    this.redactor = options.redactor ?? redactor;
    this.json = options.json;
    this.quiet = options.quiet;
    this.debugEnabled = options.debug;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.progress = options.progress !== false && !this.quiet && !this.json;
    this.terminalWidth = options.terminalWidth;
    // Our own rule decides colour (NO_COLOR, --no-color, a TTY), not chalk's detection. The width rides along, so every
    // table rendered with these styles fits the terminal.
    const fit: Omit<TableStyle, 'bold'> = options.terminalWidth
      ? { terminalWidth: options.terminalWidth, columnsLeftOut: (headers, width) => this.info(wrapToWidth(`Hidden to fit ${width} columns: ${headers.join(', ')} (--wide shows them).`, width).join('\n')) }
      : {};
    this.style = Object.assign(new Chalk({ level: options.color ? 1 : 0 }), fit);
    this.messageStyle = new Chalk({ level: (options.stderrColor ?? options.color) ? 1 : 0 });
  }

  /**
   * A message for stderr. Commands may style parts of it with `style` (stdout's colours): where stderr is not coloured
   * (redirected to a file while stdout is a terminal) those escape sequences are taken out again. Text from servers and
   * files holds none by then: it was made visible.
   */
  private forStderr(message: string): string {
    return this.messageStyle.level > 0 ? message : stripVTControlCharacters(message);
  }

  /**
   * The same output without spinners, progress bars and info lines (warnings, debug and errors stay): for work that
   * runs several at a time, whose own spinners would fight over one terminal line.
   */
  withoutProgress(): Output {
    return new Output({
      json: this.json,
      quiet: this.quiet,
      progress: false,
      color: this.style.level > 0,
      stderrColor: this.messageStyle.level > 0,
      debug: this.debugEnabled,
      stdout: this.stdout,
      stderr: this.stderr,
      redactor: this.redactor,
      ...(this.terminalWidth ? { terminalWidth: this.terminalWidth } : {}),
    });
  }

  /**
   * The command's result: one JSON document with --json; with --quiet its identity alone, one id per line (nothing when
   * it has none); else the human rendering.
   */
  result(data: unknown, human?: () => string | undefined, identity: Identity = identityOf): void {
    if (this.json) {
      this.stdout.write(`${terminalJson(data ?? null, 2)}\n`);
      return;
    }
    if (this.quiet) {
      for (const id of identity(data)) this.stdout.write(`${visible(id)}\n`);
      return;
    }
    const text = human ? human() : typeof data === 'string' || data === undefined ? data : terminalJson(data, 2);
    if (text !== undefined && text !== '') this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * The one way to print a secret in full: a new webhook signing secret, the emulator's made-up key. Only the given
   * secrets, and only what `print` writes, pass the redactor unmasked; everywhere else they stay masked.
   */
  revealSecretOnce(secrets: string | readonly string[], print: () => void): void {
    this.redactor.withRevealed(typeof secrets === 'string' ? [secrets] : secrets, print, () => {
      flushProtectedStream(this.stdout);
      flushProtectedStream(this.stderr);
    });
  }

  /** Raw data for stdout that is not JSON-shaped (e.g. `--print-env`). */
  data(text: string): void {
    this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * One line of a streamed listing. It waits while stdout's buffer is full (a slow pipe), so memory stays flat however
   * many rows follow; a closed stdout ends the wait too.
   */
  async line(text: string): Promise<void> {
    // A stream of lines stops at the first that cannot be written, rather than going on into nothing.
    const lostBefore = stdoutLost(this.stdout);
    if (lostBefore) throw lostBefore;
    if (this.stdout.write(`${text}\n`)) return;
    const lost = stdoutLost(this.stdout);
    if (lost) throw lost;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stdout.off('drain', done);
        this.stdout.off('close', done);
        resolve();
      };
      this.stdout.once('drain', done);
      this.stdout.once('close', done);
    });
  }

  info(message: string): void {
    if (this.progress) this.stderr.write(`${this.forStderr(message)}\n`);
  }

  success(message: string): void {
    this.info(`${this.messageStyle.green('✓')} ${message}`);
  }

  /** Warnings survive --quiet and --json: they are about safety (a key in a plain file, live mode). */
  warn(message: string): void {
    this.stderr.write(`${this.messageStyle.yellow('!')} ${this.forStderr(message)}\n`);
  }

  /** Rewrites the current stderr line in place (a progress bar): only on a terminal, never with --json or --quiet. */
  transient(line: string): void {
    if (this.showsTransient) this.stderr.write(`\r${visible(line)}\u001b[K`);
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
    const columns = this.progress ? reportedColumns(this.stderr) : undefined;
    if (columns === undefined) return;
    const width = Math.max(20, columns - 1);
    const up = this.redrawnLines > 0 ? `\u001b[${this.redrawnLines}F` : '\r';
    this.stderr.write(`${up}\u001b[J${lines.map((line) => `${[...line].slice(0, width).join('')}\n`).join('')}`);
    this.redrawnLines = lines.length;
  }

  /**
   * Whether stderr is drawn on in place (spinners, progress bars): only on a terminal that tells its width, which
   * redrawing needs to know how many rows a line took. Else the same work prints plain lines, as in a log.
   */
  get showsTransient(): boolean {
    return this.progress && reportedColumns(this.stderr) !== undefined;
  }

  banner(message: string): void {
    if (!this.json) this.stderr.write(`${this.messageStyle.bold(this.messageStyle.red(visible(message)))}\n`);
  }

  debug(line: string): void {
    if (this.debugEnabled) this.stderr.write(`${this.messageStyle.dim(`[debug] ${visible(line)}`)}\n`);
  }

  /**
   * A server's message is one line, whatever it holds; our own messages may span lines (one per problem in an input
   * file), each shown with its control characters made visible.
   */
  error(body: ErrorBody, hint?: string, stack?: string): void {
    if (this.json) {
      // The hint too: a script is owed the flag to use (`--yes`) as much as a person is.
      this.stderr.write(`${terminalJson({ error: { status: body.status ?? null, code: body.code, message: body.message, details: body.details ?? null, ...(hint ? { hint } : {}) } })}\n`);
      return;
    }
    const status = body.status ? `${body.status} ` : '';
    const message = body.lines ? body.lines.map(visible).join('\n') : visible(body.message);
    this.stderr.write(`${this.messageStyle.red('✗')} ${status}${visible(body.code)}: ${message}\n`);
    for (const line of describeDetails(body)) this.stderr.write(`  ${visible(line)}\n`);
    if (hint) this.stderr.write(`  ${this.messageStyle.dim('hint:')} ${visible(hint)}\n`);
    // Only the frames: the message is printed above, made visible.
    const frames = stack?.split('\n').filter((line) => /^\s+at /.test(line));
    if (frames?.length && this.debugEnabled) this.stderr.write(`${this.messageStyle.dim(frames.map(visible).join('\n'))}\n`);
  }

  async spinner(text: string): Promise<Spinner> {
    if (!this.showsTransient) {
      return { update: () => {}, succeed: (t) => t && this.info(visible(t)), fail: (t) => t && this.warn(visible(t)), stop: () => {} };
    }
    const { default: ora } = await import('ora');
    // ora would read the terminal's input in raw mode, where Ctrl-C is a byte it never turns into the SIGINT that stops
    // the command: the terminal keeps its own handling.
    const spinner = ora({ text: visible(text), stream: this.stderr, discardStdin: false }).start();
    return {
      update: (t) => {
        spinner.text = visible(t);
      },
      succeed: (t) => spinner.succeed(t === undefined ? t : visible(t)),
      fail: (t) => spinner.fail(t === undefined ? t : visible(t)),
      stop: () => spinner.stop(),
    };
  }
}

function describeDetails(body: ErrorBody): string[] {
  const details = body.details as Record<string, unknown> | undefined;
  // An input file's problems are already in the message, each with its file:line:column.
  if (!details || typeof details !== 'object' || body.code === 'INPUT_INVALID') return [];
  if (body.code === 'ANCHOR_NOT_FOUND' && Array.isArray(details.anchors)) {
    const lines = (details.anchors as ({ fieldId?: string; text?: string } | null)[]).map(
      (anchor) => `anchor not found: field ${anchor?.fieldId ?? '?'} text ${JSON.stringify(anchor?.text ?? '')}`,
    );
    if (details.truncated) lines.push('only the first 500 pages were searched (the document is longer)');
    return lines;
  }
  if (Array.isArray(details.problems)) {
    const listed = (entries: unknown[], prefix: string) =>
      (entries as ({ where?: string; code?: string; message?: string } | null)[]).map(
        (entry) => `${prefix}${entry?.where ? `${entry.where}: ` : ''}${entry?.code ? `${entry.code}: ` : ''}${entry?.message ?? ''}`,
      );
    return [...listed(details.problems, '- '), ...(Array.isArray(details.warnings) ? listed(details.warnings, 'warning: ') : [])];
  }
  return Object.entries(details).map(([name, value]) => `${name}: ${describeDetail(value)}`);
}

/** Entries of a detail listed in human output; a longer list (every envelope of a batch) is counted instead. */
const DETAIL_ENTRIES_SHOWN = 10;

function describeDetail(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > DETAIL_ENTRIES_SHOWN) return `${value.length} entries (--json lists them)`;
  return JSON.stringify(value);
}
