/*
 * Finding a key's secret part under what a hostile server can wrap around it, by normalisation: the text is decoded
 * once (JSON and `\x` escapes, percent-encoding, HTML entities and tags, Unicode compatibility forms) into its letters
 * and digits alone, each remembering the source characters it came from, and that is searched for the secret in its
 * plain, reversed, rot13, hex and base64 (at each of the three offsets) forms. What is found is masked in the source,
 * one `…` per stretch between two quotes or line ends, so a JSON document stays valid and a layout keeps its lines.
 */

/**
 * Letters and digits of a form that are masked wherever they appear together: eight of the secret part (its hex takes
 * sixteen for them, base64 twelve). Eight random letters and digits do not occur in other text by chance.
 */
const WINDOW = { plain: 8, hex: 16, base64: 12 } as const;

/**
 * A piece of the secret on its own (a JSON field, a table cell) needs at least this many characters to count; pieces
 * that continue one another in the secret's order count once they hold WINDOW.plain characters together.
 */
const PIECE = 4;

const named = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** A backslash escape of one character: `\u0065`, `\\u0065` (escaped again), `\u{65}`, `\x65`. */
const codeEscape = /\\+(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/y;
/** Any other backslash escape (`\"`, `\n`, `\\`): one unit, so a quote it holds is not a JSON string's end. */
const otherEscape = /\\[^]/y;
const percentEscape = /%([0-9a-fA-F]{2})/y;
const numericEntity = /&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));?/y;
const namedEntity = /&([a-zA-Z][a-zA-Z0-9]{1,30});/y;
/** An HTML tag, dropped from the decoded text: `<b>`, `</span>`, `<i class="x">`. */
const htmlTag = /<\/?[a-zA-Z][^<>]{0,200}>/y;

/** The letters and digits of a text, lower case, each with the span of source text it came from. */
class DecodedText {
  length = 0;
  /** ASCII codes of the letters. */
  codes: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  /** Whether anything but a tag stood between this letter and the one before (pieces are runs without a gap). */
  gapBefore: Uint8Array;
  /** How many quotes and line ends of the source come before this letter: a mask never reaches across one. */
  stretch: Int32Array;
  /** Whether this letter comes right after a `…`: where a mask shows the last letters of what it masked. */
  afterEllipsis: Uint8Array;
  private gap = false;
  private ellipsis = false;
  stretches = 0;

  constructor(capacity: number) {
    this.codes = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.gapBefore = new Uint8Array(capacity);
    this.stretch = new Int32Array(capacity);
    this.afterEllipsis = new Uint8Array(capacity);
  }

  letters(start = 0, end = this.length): string {
    return Buffer.from(this.codes.buffer, this.codes.byteOffset + start, end - start).toString('latin1');
  }

  /** Adds one ASCII character (a letter or digit is kept, anything else is a gap). */
  addAscii(code: number, start: number, end: number): void {
    if (!isAsciiAlphanumeric(code)) {
      this.gap = true;
      this.ellipsis = false;
      return;
    }
    if (this.length === this.codes.length) this.grow();
    const at = this.length++;
    this.codes[at] = code >= 65 && code <= 90 ? code + 32 : code;
    this.starts[at] = start;
    this.ends[at] = end;
    this.gapBefore[at] = this.gap ? 1 : 0;
    this.stretch[at] = this.stretches;
    this.afterEllipsis[at] = this.ellipsis ? 1 : 0;
    this.gap = false;
    this.ellipsis = false;
  }

  /** Adds decoded text: a compatibility form (fullwidth `Ａ`, circled `Ⓐ`, mathematical `𝐀`) stands for its letter. */
  add(decoded: string, start: number, end: number): void {
    for (const character of decoded) {
      const code = character.charCodeAt(0);
      if (character === '…') {
        this.gap = true;
        this.ellipsis = true;
      } else if (code <= 0x7f) this.addAscii(code, start, end);
      else {
        const plain = character.normalize('NFKC');
        if (plain === character) this.gap = true;
        else this.add(plain, start, end);
      }
    }
  }

  private grow(): void {
    const grown = (array: Uint8Array | Int32Array) => {
      const bigger = new (array.constructor as typeof Int32Array)(array.length * 2 + 16);
      bigger.set(array);
      return bigger;
    };
    this.codes = grown(this.codes) as unknown as Uint8Array;
    this.starts = grown(this.starts) as Int32Array;
    this.ends = grown(this.ends) as Int32Array;
    this.gapBefore = grown(this.gapBefore) as unknown as Uint8Array;
    this.stretch = grown(this.stretch) as Int32Array;
    this.afterEllipsis = grown(this.afterEllipsis) as unknown as Uint8Array;
  }
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `tags`: whether HTML tags are taken out (a key spelt between tags) or read as text (a key inside a tag). */
function decode(text: string, tags: boolean): DecodedText {
  const decoded = new DecodedText(text.length);
  const at = (pattern: RegExp, index: number): RegExpExecArray | null => {
    pattern.lastIndex = index;
    return pattern.exec(text);
  };
  for (let index = 0; index < text.length; ) {
    const code = text.charCodeAt(index);
    let match: RegExpExecArray | null = null;
    let value: string | undefined;
    if (code === 0x5c /* \ */) {
      match = at(codeEscape, index);
      if (match) value = fromCodePoint(parseInt(match[1] ?? match[2] ?? match[3]!, 16));
      else if ((match = at(otherEscape, index))) value = /[A-Za-z0-9]/.test(match[0][1]!) ? ' ' : match[0][1];
    } else if (code === 0x25 /* % */) {
      if ((match = at(percentEscape, index))) value = String.fromCharCode(parseInt(match[1]!, 16));
    } else if (code === 0x26 /* & */) {
      if ((match = at(numericEntity, index))) value = fromCodePoint(match[1] ? parseInt(match[1], 16) : Number(match[2]));
      else if ((match = at(namedEntity, index))) value = named.get(match[1]!.toLowerCase()) ?? ' ';
    } else if (code === 0x3c /* < */ && tags) {
      if ((match = at(htmlTag, index))) value = '';
    }
    if (match && value !== undefined) {
      decoded.add(value, index, index + match[0].length);
      index += match[0].length;
    } else if (code <= 0x7f) {
      if (code === 0x22 /* " */ || code === 0x0a || code === 0x0d) decoded.stretches++;
      decoded.addAscii(code, index, index + 1);
      index++;
    } else {
      const character = String.fromCodePoint(text.codePointAt(index)!);
      decoded.add(character, index, index + character.length);
      index += character.length;
    }
  }
  return decoded;
}

function fromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
}

const lettersOnly = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (letter) => {
    const base = letter <= 'Z' ? 65 : 97;
    return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** The base64 characters that hold `secret` alone when it starts `offset` bytes into a group of three. */
function base64At(secret: string, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret)]).toString('base64');
  const wholeGroups = Math.floor((offset + secret.length) / 3);
  return encoded.slice(offset === 0 ? 0 : 4, wholeGroups * 4);
}

/** One spelling of a secret part, in the decoded text's letters: what to look for and how much of it to mask. */
interface Form {
  letters: string;
  window: number;
  /** Whether pieces of it spread over fields are looked for (the spellings whose characters stand alone). */
  pieces: boolean;
  /** The letters a mask shows of the secret part (`acme_test_…9f2c`): after a `…`, they are a mask's, not a piece. */
  shownTail?: string;
}

function formsOf(secretPart: string): Form[] {
  const plain = (letters: string): Form => ({ letters: lettersOnly(letters), window: WINDOW.plain, pieces: true });
  return [
    { ...plain(secretPart), shownTail: lettersOnly(secretPart).slice(-PIECE) },
    plain([...secretPart].reverse().join('')),
    plain(rot13(secretPart)),
    { letters: Buffer.from(secretPart).toString('hex'), window: WINDOW.hex, pieces: false },
    ...[0, 1, 2].map((offset) => ({ letters: lettersOnly(base64At(secretPart, offset)), window: WINDOW.base64, pieces: false })),
  ];
}

/** The first PIECE letters of a text as one number (letters and digits in base 36), for a quick first look. */
function headOf(codes: Uint8Array, at: number): number {
  let head = 0;
  for (let index = at; index < at + PIECE; index++) {
    const code = codes[index]!;
    head = head * 36 + (code <= 57 ? code - 48 : code - 87);
  }
  return head;
}

/**
 * Every PIECE letters that occur anywhere in a form, as a bitmap over their `headOf`: a text is compared with the
 * forms only where it starts with such letters, which in text without the secret is almost nowhere.
 */
function headsOf(forms: readonly Form[]): Uint8Array {
  const heads = new Uint8Array(36 ** PIECE);
  for (const form of forms) {
    const codes = Buffer.from(form.letters, 'latin1');
    for (let at = 0; at + PIECE <= codes.length; at++) heads[headOf(codes, at)] = 1;
  }
  return heads;
}

/** Every window of every form, by its length. */
function windowsOf(forms: readonly Form[]): Map<number, Set<string>> {
  const windows = new Map<number, Set<string>>();
  for (const form of forms) {
    const set = windows.get(form.window) ?? new Set<string>();
    for (let at = 0; at + form.window <= form.letters.length; at++) set.add(form.letters.slice(at, at + form.window));
    windows.set(form.window, set);
  }
  return windows;
}

/** Marks every letter that is part of a window of a form. */
function markWindows(decoded: DecodedText, windows: Map<number, Set<string>>, heads: Uint8Array, masked: Uint8Array): void {
  const { codes, length } = decoded;
  for (let at = 0; at + PIECE <= length; at++) {
    if (!heads[headOf(codes, at)]) continue;
    for (const [window, set] of windows) {
      if (at + window <= length && set.has(decoded.letters(at, at + window))) masked.fill(1, at, at + window);
    }
  }
}

/** A run of PIECE or more letters with something else before and after it, that may be a piece of a form. */
interface Run {
  start: number;
  end: number;
  letters: string;
  /** Whether a word of PIECE or more letters that cannot be a piece stands between the run before and this one. */
  wordBefore: boolean;
  /** Whether it comes right after a `…` (DecodedText.afterEllipsis). */
  afterEllipsis: boolean;
}

/** A run found in a form: every place it has there, and which of them count (see `markPieces`). */
interface Piece {
  start: number;
  end: number;
  letters: string;
  /** The run's stretch between quotes and line ends (see DecodedText). */
  stretch: number;
  places: number[];
  counted: Uint8Array;
}

/** The runs of a text that may be pieces of the forms, in text order. */
function runsOf(decoded: DecodedText, heads: Uint8Array, longest: number): Run[] {
  const runs: Run[] = [];
  let wordBefore = false;
  for (let start = 0; start < decoded.length; ) {
    let end = start + 1;
    while (end < decoded.length && !decoded.gapBefore[end]) end++;
    if (end - start >= PIECE) {
      if (end - start <= longest && heads[headOf(decoded.codes, start)]) {
        runs.push({ start, end, letters: decoded.letters(start, end), wordBefore, afterEllipsis: decoded.afterEllipsis[start] === 1 });
        wordBefore = false;
      } else wordBefore = true;
    }
    start = end;
  }
  return runs;
}

/** Whether an ascending list holds a number from `from` to `to`, both included. */
function holdsBetween(sorted: readonly number[], from: number, to: number): boolean {
  let low = 0;
  for (let high = sorted.length; low < high; ) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < from) low = middle + 1;
    else high = middle;
  }
  return low < sorted.length && sorted[low]! <= to;
}

/** Which places of `piece` a place of `other` continues: where together they cover more than either alone. */
function continuedPlaces(piece: Piece, other: Piece): Uint8Array {
  const length = piece.letters.length;
  const otherLength = other.letters.length;
  return Uint8Array.from(piece.places, (at) => {
    const before = holdsBetween(other.places, at - otherLength, Math.min(at, at + length - otherLength) - 1);
    const after = holdsBetween(other.places, Math.max(at, at + length - otherLength) + 1, at + length);
    return before || after ? 1 : 0;
  });
}

/**
 * Marks pieces of a form spread over a text (JSON fields, the cells of a table): runs of PIECE or more letters with
 * something else before and after, each found in the form, that together cover WINDOW.plain or more letters of it in
 * a row. A piece counts at its first place in the form wherever it stands in the text. A secret that repeats a run of
 * PIECE or more letters gives a piece inside that run later places too; it counts at a later place only where the
 * piece next to it in the text continues it there (see `piecesOf`). Counting every place wherever the piece stands
 * would mask prose words that are in such a secret twice, beside the last four letters a mask shows (`…9f2c`).
 */
function markPieces(decoded: DecodedText, forms: readonly Form[], heads: Uint8Array, masked: Uint8Array): void {
  const pieceForms = forms.filter((form) => form.pieces);
  const runs = runsOf(decoded, heads, Math.max(...pieceForms.map((form) => form.letters.length)));
  for (const form of pieceForms) {
    const pieces = piecesOf(form, runs, decoded.stretch);
    const covered = coveredLengths(pieces, form.letters.length);
    for (const piece of pieces) {
      if (piece.places.some((at, index) => piece.counted[index] && covered[at]! >= WINDOW.plain)) masked.fill(1, piece.start, piece.end);
    }
  }
}

/**
 * The runs found in a form, in text order, each with the places that count. Two pieces are neighbours when no other
 * word of PIECE or more letters stands between them on the same line or inside the same quoted string: the fields of a
 * JSON object and table cells on lines of their own are neighbours, `abcd then QRST` in a sentence is not.
 */
function piecesOf({ letters, shownTail }: Form, runs: readonly Run[], stretch: Int32Array): Piece[] {
  const pieces: Piece[] = [];
  const placesOf = new Map<string, number[]>();
  // What `continuedPlaces` gives for two neighbours' letters, as a text often repeats the same pieces.
  const continued = new Map<string, Uint8Array>();
  const countContinued = (piece: Piece, other: Piece) => {
    if (piece.places.length === 1) return;
    const pair = `${piece.letters} ${other.letters}`;
    let flags = continued.get(pair);
    if (!flags) continued.set(pair, (flags = continuedPlaces(piece, other)));
    for (let index = 1; index < flags.length; index++) piece.counted[index] ||= flags[index]!;
  };
  let wordBetween = false;
  for (const run of runs) {
    wordBetween ||= run.wordBefore;
    if (run.afterEllipsis && run.letters === shownTail) {
      // What a mask shows (its own, or one written by a server): shown anyway, it joins no piece in prose beside it.
      wordBetween = true;
      continue;
    }
    let places = placesOf.get(run.letters);
    if (!places) {
      places = [];
      for (let at = letters.indexOf(run.letters); at !== -1; at = letters.indexOf(run.letters, at + 1)) places.push(at);
      placesOf.set(run.letters, places);
    }
    if (places.length === 0) {
      wordBetween = true;
      continue;
    }
    const piece: Piece = { start: run.start, end: run.end, letters: run.letters, stretch: stretch[run.start]!, places, counted: new Uint8Array(places.length) };
    piece.counted[0] = 1;
    const previous = pieces.at(-1);
    // Two runs of the same few letters are both ordinary words as often as a secret's repeated run ("a live key" on two
    // lines of a message, for a secret repeating LIVE): they continue each other only when longer than that.
    const sameShortWord = previous?.letters === piece.letters && piece.letters.length <= PIECE;
    if (previous && !(wordBetween && previous.stretch === piece.stretch) && !sameShortWord) {
      countContinued(previous, piece);
      countContinued(piece, previous);
    }
    pieces.push(piece);
    wordBetween = false;
  }
  return pieces;
}

/** For each letter of a form, how long the span of letters covered by counted places of pieces is that it stands in. */
function coveredLengths(pieces: readonly Piece[], formLength: number): Int32Array {
  const starting = new Int32Array(formLength + 1);
  for (const piece of pieces) {
    piece.places.forEach((at, index) => {
      if (!piece.counted[index]) return;
      starting[at]!++;
      starting[at + piece.letters.length]!--;
    });
  }
  const covered = new Int32Array(formLength);
  for (let at = 0, depth = 0, from = 0; at <= formLength; at++) {
    const before = depth;
    depth += starting[at]!;
    if (before === 0 && depth > 0) from = at;
    if (before > 0 && depth === 0) covered.fill(at - from, from, at);
  }
  return covered;
}

/** The spellings of some secret parts, ready to be looked for in any number of texts. */
export class EncodedSecrets {
  private readonly forms: Form[];
  private readonly heads: Uint8Array;
  private readonly windows: Map<number, Set<string>>;

  constructor(secretParts: readonly string[]) {
    this.forms = secretParts.flatMap(formsOf);
    this.heads = this.forms.length ? headsOf(this.forms) : new Uint8Array(0);
    this.windows = windowsOf(this.forms);
  }

  /** `text` with every spelling of the secret parts found in it replaced by `…`; the text itself when none is there. */
  mask(text: string): string {
    if (this.forms.length === 0) return text;
    const spans = [...this.spansIn(decode(text, false)), ...(text.includes('<') ? this.spansIn(decode(text, true)) : [])].sort((a, b) => a[0] - b[0]);
    if (spans.length === 0) return text;
    let result = '';
    let copied = 0;
    for (const [start, end] of spans) {
      if (end <= copied) continue;
      // Spans of the two readings that overlap cover no quote or line end between them either: they become one.
      result += start < copied ? '' : `${text.slice(copied, start)}…`;
      copied = end;
    }
    return result + text.slice(copied);
  }

  /** The spans of source text to mask: the letters of the secret found, one span per stretch between quotes. */
  private spansIn(decoded: DecodedText): [number, number][] {
    const { length, starts, ends, stretch } = decoded;
    const masked = new Uint8Array(length);
    markWindows(decoded, this.windows, this.heads, masked);
    markPieces(decoded, this.forms, this.heads, masked);
    const spans: [number, number][] = [];
    for (let at = 0; at < length; ) {
      if (!masked[at]) {
        at++;
        continue;
      }
      let last = at;
      while (last + 1 < length && masked[last + 1] && stretch[last + 1] === stretch[at]) last++;
      spans.push([starts[at]!, ends[last]!]);
      at = last + 1;
    }
    return spans;
  }
}
