/*
 * The one redaction choke point: every byte esign writes to stdout and stderr passes `protectStream`, which masks the
 * key in use, any key-shaped text and any webhook signing secret, whoever wrote it (our output layer, commander, ora,
 * a prompt, a dependency's console.warn).
 */
import { StringDecoder } from 'node:string_decoder';
import { maskKey } from '../auth/keys.js';
import { keyShapedText } from '../shared/keys.js';

/**
 * Every character a key or a secret can hold. Masking never looks across any other character, so masking a text piece
 * by piece, cut anywhere outside such a run, gives the same bytes as masking it whole.
 */
const secretCharacter = /[A-Za-z0-9_+/=]/;
const secretRun = /[A-Za-z0-9_+/=]+/g;
/** A Standard Webhooks signing secret: `whsec_` and base64. */
const webhookSecretPattern = /whsec_[A-Za-z0-9+/]{16,}={0,2}/g;
const globalKeyPattern = new RegExp(keyShapedText.source, 'g');

export function maskWebhookSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/**
 * Characters of a key's secret part that are masked wherever they appear together, so that a server echoing part of
 * the key (its prefix and the first characters, say) cannot reveal most of it. Eight random letters and digits do not
 * occur in other text by chance.
 */
const SECRET_FRAGMENT = 8;

/**
 * What a hostile server may put between a key's characters to slip it past the masks: whitespace, invisible format
 * characters, or those made visible as `\uXXXX`. A text of 16 or more key characters each apart from the next by
 * such a separator is read with the separators taken out.
 */
const separator = String.raw`(?:[\s\p{Cf}]|\\u[0-9a-fA-F]{4})+`;
const letterSpaced = new RegExp(String.raw`[A-Za-z0-9_+/=](?:${separator}[A-Za-z0-9_+/=]){15,}`, 'gu');
const separators = new RegExp(separator, 'gu');

/** The base64 characters of `text` that do not depend on what follows it: a key base64-encoded, alone or in a header. */
function base64Of(text: string): string {
  const whole = Buffer.from(text).toString('base64');
  return whole.slice(0, Math.floor(text.length / 3) * 4);
}

/** `text` with every occurrence of `secret`, in any case, replaced (both are key characters only: ASCII). */
function replaceIgnoringCase(text: string, secret: string, replacement: string): string {
  const lower = text.toLowerCase();
  const wanted = secret.toLowerCase();
  let result = '';
  let from = 0;
  for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, from)) {
    result += text.slice(from, at) + replacement;
    from = at + wanted.length;
  }
  return result + text.slice(from);
}

export class Redactor {
  /** Longest first, so a whole key is masked before its secret part is looked for. */
  private secrets: string[] = [];
  /** The secret parts of the keys in use, whose fragments are masked too. */
  private readonly secretParts: string[] = [];
  private readonly revealed = new Set<string>();

  /**
   * The key in use: masked wherever it appears, in any case, and so are its secret part on its own (`…last4`) or in
   * part (`…`), the key base64-encoded (alone or as `Bearer <key>`), and the key spelt with separators between its
   * characters (see `letterSpaced`).
   */
  registerSecret(secret: string): void {
    const secretPart = /_(?:test|live)_([A-Za-z0-9]{16,})$/.exec(secret)?.[1];
    const encoded = secretPart ? [base64Of(secret), base64Of(`Bearer ${secret}`)] : [];
    for (const part of [secret, secretPart, ...encoded]) {
      if (part && [...part].every((character) => secretCharacter.test(character)) && !this.secrets.includes(part)) this.secrets.push(part);
    }
    this.secrets.sort((a, b) => b.length - a.length);
    if (secretPart && !this.secretParts.includes(secretPart)) this.secretParts.push(secretPart);
  }

  /** Masks a whole text. */
  mask(text: string): string {
    return text.replace(letterSpaced, (spaced) => this.maskLetterSpaced(spaced)).replace(secretRun, (run) => this.maskRun(run));
  }

  /** A letter-spaced text is masked, separators and all, when its characters together hold something to mask. */
  private maskLetterSpaced(spaced: string): string {
    const joined = spaced.replace(separators, '');
    const masked = this.maskRun(joined);
    return masked === joined ? spaced : masked;
  }

  /** While `print` runs, the given secrets are printed in full; see `Output.revealSecretOnce`. */
  withRevealed(secrets: readonly string[], print: () => void, flush: () => void): void {
    const added = secrets.filter((secret) => !this.revealed.has(secret));
    for (const secret of added) this.revealed.add(secret);
    try {
      print();
      flush();
    } finally {
      for (const secret of added) this.revealed.delete(secret);
    }
  }

  private isRevealed(secret: string): boolean {
    for (const revealed of this.revealed) if (revealed.includes(secret)) return true;
    return false;
  }

  private maskRun(run: string): string {
    let text = run;
    for (const secret of this.secrets) {
      if (this.isRevealed(secret)) continue;
      text = replaceIgnoringCase(text, secret, secret.includes('_') ? maskKey(secret) : `…${secret.slice(-4)}`);
    }
    for (const secretPart of this.secretParts) if (!this.isRevealed(secretPart)) text = maskFragments(text, secretPart);
    // Masking can leave a new key-shaped text behind (the last four of one key and the next `_test_...`): repeat until
    // none is left. Each round shortens the text, so it ends.
    for (let previous = ''; previous !== text; ) {
      previous = text;
      text = text.replace(globalKeyPattern, (key) => (this.revealed.has(key) ? key : maskKey(key)));
      text = text.replace(webhookSecretPattern, (secret) => (this.revealed.has(secret) ? secret : maskWebhookSecret(secret)));
    }
    return text;
  }
}

/** Every run of SECRET_FRAGMENT or more characters of `secret`, in its order and in any case, replaced by `…`. */
function maskFragments(text: string, secret: string): string {
  const wanted = secret.toLowerCase();
  let masked = text;
  for (let at = 0; at + SECRET_FRAGMENT <= wanted.length; at++) {
    const fragment = wanted.slice(at, at + SECRET_FRAGMENT);
    for (let index = masked.toLowerCase().indexOf(fragment); index !== -1; index = masked.toLowerCase().indexOf(fragment, index + 1)) {
      const lower = masked.toLowerCase();
      let [start, end, secretStart, secretEnd] = [index, index + SECRET_FRAGMENT, at, at + SECRET_FRAGMENT];
      while (start > 0 && secretStart > 0 && lower[start - 1] === wanted[secretStart - 1]) [start, secretStart] = [start - 1, secretStart - 1];
      while (end < lower.length && secretEnd < wanted.length && lower[end] === wanted[secretEnd]) [end, secretEnd] = [end + 1, secretEnd + 1];
      masked = `${masked.slice(0, start)}…${masked.slice(end)}`;
      index = start;
    }
  }
  return masked;
}

/**
 * Masking for one stream written in pieces. The trailing run of secret characters is held back until the text after
 * it shows where it ends, so a key written in two pieces is masked like a key written at once.
 */
export class StreamRedactor {
  private held = '';

  constructor(private readonly redactor: Redactor) {}

  /** The masked text that can be written now. */
  push(chunk: string): string {
    const text = this.held + chunk;
    let cut = text.length;
    while (cut > 0 && secretCharacter.test(text[cut - 1]!)) cut--;
    this.held = text.slice(cut);
    return this.redactor.mask(text.slice(0, cut));
  }

  /** The masked held text: when nothing more is coming now. */
  flush(): string {
    const text = this.held;
    this.held = '';
    return this.redactor.mask(text);
  }
}

/** The process's one redactor: the key in use is registered with it when credentials resolve. */
export const redactor = new Redactor();

type Write = NodeJS.WriteStream['write'];

const protectedStreams = new Map<NodeJS.WritableStream, () => void>();

/**
 * Set when the process exits. Handlers of the `exit` event still write (ora shows the cursor again): from then on
 * nothing is held back, or the tail of an escape sequence would be lost and the terminal would swallow what the
 * shell prints next.
 */
let exiting = false;

function onExit(): void {
  exiting = true;
  for (const flush of protectedStreams.values()) flush();
}

/**
 * Replaces `stream.write` with a masking one, once per stream. Text held back at the end of a write is written on the
 * next turn of the event loop, when the process exits, or before anything is written to another protected stream:
 * pieces written together (a spinner frame, a progress line) are joined, a spinner still shows its whole text, and
 * stdout and stderr reach a terminal they share in the order they were written (held back past a stdout line, the
 * `25h` of a prompt's cursor-show code `\u001b[?25h` made the terminal read `\u001b[?E` and eat the line's first letter).
 */
export function protectStream(stream: NodeJS.WritableStream, using: Redactor = redactor): void {
  if (protectedStreams.has(stream)) return;
  if (protectedStreams.size === 0) process.once('exit', onExit);
  const writeThrough = stream.write.bind(stream) as Write;
  const pieces = new StreamRedactor(using);
  const decoder = new StringDecoder('utf8');
  let pending: NodeJS.Immediate | undefined;
  const flush = () => {
    if (pending) clearImmediate(pending);
    pending = undefined;
    const text = pieces.flush();
    if (text) writeThrough(text);
  };
  protectedStreams.set(stream, flush);
  stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    const text = typeof chunk === 'string' ? (typeof encoding === 'string' && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(chunk, encoding).toString('utf8') : chunk) : decoder.write(Buffer.from(chunk));
    for (const [other, flushOther] of protectedStreams) if (other !== stream) flushOther();
    const masked = exiting ? pieces.push(text) + pieces.flush() : pieces.push(text);
    if (!pending && !exiting) pending = setImmediate(flush).unref();
    return done ? writeThrough(masked, done) : writeThrough(masked);
  }) as Write;
}

/** Writes out whatever a protected stream holds back (before exit, or at the end of a revealed secret). */
export function flushProtectedStream(stream: NodeJS.WritableStream): void {
  protectedStreams.get(stream)?.();
}
