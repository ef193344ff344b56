/*
 * The one redaction choke point: every byte esign writes to stdout and stderr passes `protectStream`, which masks the
 * key in use (in any spelling encoded-secrets.ts knows), any key-shaped text and any webhook signing secret, whoever
 * wrote it (our output layer, commander, ora, a prompt, a dependency's console.warn). Files esign writes from a
 * server's answers (the JUnit report, the batch journal) are masked with the same redactor.
 */
import { StringDecoder } from 'node:string_decoder';
import { maskKey } from '../auth/keys.js';
import { keyShapedText } from '../shared/keys.js';
import { EncodedSecrets } from './encoded-secrets.js';

/** Every character a key or a secret can hold in plain. */
const secretCharacter = /[A-Za-z0-9_+/=]/;
/** A run of them that may hold a key or a secret: none is shorter than 16 (a secret part), so shorter runs are skipped. */
const secretRun = /[A-Za-z0-9_+/=]{16,}/g;
/** A Standard Webhooks signing secret: `whsec_` and base64. */
const webhookSecretPattern = /whsec_[A-Za-z0-9+/]{16,}={0,2}/g;
const globalKeyPattern = new RegExp(keyShapedText.source, 'g');

export function maskWebhookSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/**
 * What a hostile server may put between a key's characters to slip it past the masks: whitespace, invisible format
 * characters, or those made visible as `\uXXXX`. A text of 16 or more key characters each apart from the next by
 * such a separator is read with the separators taken out.
 */
const separator = String.raw`(?:[\s\p{Cf}]|\\u[0-9a-fA-F]{4})+`;
const letterSpaced = new RegExp(String.raw`[A-Za-z0-9_+/=](?:${separator}[A-Za-z0-9_+/=]){15,}`, 'gu');
const separators = new RegExp(separator, 'gu');

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
  /** The secret parts of the keys in use, looked for in every spelling encoded-secrets.ts knows. */
  private readonly secretParts: string[] = [];
  /** The spellings of the secret parts not revealed now, made again when either changes. */
  private encoded: { parts: string; secrets: EncodedSecrets } | undefined;
  private readonly revealed = new Set<string>();

  /**
   * The key in use: masked wherever it appears, in any case, and so are its secret part on its own (`…last4`), the key
   * spelt with separators between its characters (see `letterSpaced`), and eight or more characters of its secret part
   * under any encoding `maskEncoded` knows (`…`).
   */
  registerSecret(secret: string): void {
    const secretPart = /_(?:test|live)_([A-Za-z0-9]{16,})$/.exec(secret)?.[1];
    for (const part of [secret, secretPart]) {
      if (part && [...part].every((character) => secretCharacter.test(character)) && !this.secrets.includes(part)) this.secrets.push(part);
    }
    this.secrets.sort((a, b) => b.length - a.length);
    if (secretPart && !this.secretParts.includes(secretPart)) this.secretParts.push(secretPart);
  }

  /** Masks a whole text. */
  mask(text: string): string {
    const plain = text.replace(letterSpaced, (spaced) => this.maskLetterSpaced(spaced)).replace(secretRun, (run) => this.maskRun(run));
    return this.encodedSecrets().mask(plain);
  }

  /** A JSON-like value with every string in it masked, member names too: a record for a file esign writes. */
  maskStrings<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.maskStrings(item)) as T;
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [this.mask(name), this.maskStrings(child)])) as T;
  }

  private encodedSecrets(): EncodedSecrets {
    const parts = this.secretParts.filter((part) => !this.isRevealed(part));
    if (this.encoded?.parts !== parts.join(' ')) this.encoded = { parts: parts.join(' '), secrets: new EncodedSecrets(parts) };
    return this.encoded.secrets;
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
    // Webhook secrets first: a key masked before them would cut the `whsec_` of one written right after it, or the
    // base64 of one that holds the key's secret part, and leave the rest of the webhook secret whole.
    const maskWebhookSecrets = (text: string) => text.replace(webhookSecretPattern, (secret) => (this.revealed.has(secret) ? secret : maskWebhookSecret(secret)));
    let text = maskWebhookSecrets(run);
    for (const secret of this.secrets) {
      if (this.isRevealed(secret)) continue;
      text = replaceIgnoringCase(text, secret, secret.includes('_') ? maskKey(secret) : `…${secret.slice(-4)}`);
    }
    // Masking can leave a new key-shaped text behind (the last four of one key and the next `_test_...`): repeat until
    // none is left. Each round shortens the text, so it ends.
    for (let previous = ''; previous !== text; ) {
      previous = text;
      text = maskWebhookSecrets(text).replace(globalKeyPattern, (key) => (this.revealed.has(key) ? key : maskKey(key)));
    }
    return text;
  }
}

/**
 * Text held back by a stream before part of it is masked and written anyway, so memory stays bounded (a long listing
 * written in one turn of the event loop).
 */
const HELD_AT_MOST = 1 << 20;

/**
 * Masking for one stream written in pieces. What is written is held until `flush` (see `protectStream`), so that the
 * text written at once (a document, an error and its details, a table) is masked as one: a key written in two pieces,
 * or spread in pieces over lines, is masked like a key written at once. Only past HELD_AT_MOST is the held text up to
 * its last line end (else up to its trailing run of secret characters) masked and given back early.
 */
export class StreamRedactor {
  private held = '';

  constructor(private readonly redactor: Redactor) {}

  /** The masked text that can be written now: nothing, unless much is held. */
  push(chunk: string): string {
    this.held += chunk;
    if (this.held.length <= HELD_AT_MOST) return '';
    let cut = this.held.lastIndexOf('\n') + 1;
    if (cut === 0) for (cut = this.held.length; cut > 0 && secretCharacter.test(this.held[cut - 1]!); ) cut--;
    const text = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return this.redactor.mask(text);
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
 * Replaces `stream.write` with a masking one, once per stream. What is written is held back (see StreamRedactor) and
 * written on the next turn of the event loop, when the process exits, or before anything is written to another
 * protected stream:
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
