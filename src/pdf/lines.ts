/**
 * From drawn glyphs to the lines anchor search reads: glyphs that continue each other form chunks, chunks sharing a
 * baseline form a line in reading order, text drawn twice at one place counts once, characters that are not visible
 * text are left out, visible gaps read as spaces, and right-to-left scripts are put back in logical order. Every
 * character of a line's text keeps the box where it is drawn.
 */
import { toLogicalOrder } from './bidi.js';
import type { Glyph } from './glyphs.js';
import type { ReadingDirection, TextLine } from './text.js';

/**
 * A gap wider than this share of the font size reads as a word break: Helvetica's space is 0.278 em, Times's
 * 0.25, a narrow one 0.2; kerning and tracking inside words stay below 0.1 (poppler's own break is 0.1).
 */
const WORD_GAP_EM = 0.15;
/** Letter-spaced lines: a gap reads as a word break when it is this much wider than the line's usual letter gap. */
const LETTER_SPACED_GAP_FACTOR = 1.6;
/** Text drawn again this close (× font size) along and across, with the same characters, is the same text. */
const DUPLICATE_ALONG_EM = 0.15;
const DUPLICATE_ACROSS_EM = 0.2;
/** A glyph continues the glyph before it when it starts no further back or ahead than this (× font size). */
const CONTINUE_BACK_EM = 0.3;
const CONTINUE_AHEAD_EM = 1;
/** Two chunks belong to one line when they overlap across it by this share of the smaller one. */
const SAME_LINE_OVERLAP = 0.5;

/**
 * Format characters (zero-width space and joiners, soft hyphen, direction marks, byte order mark) and controls:
 * never visible text. Their advance does not make a gap either.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;
const WHITESPACE_ONLY = /^\s+$/u;

/** One visible piece of a line: a glyph's visible characters (or an inserted space) and where they are drawn. */
type Atom = Omit<Glyph, 'direction' | 'baseline'>;

/** Extent across a line: from acrossFrom to acrossTo on the axis perpendicular to the reading direction. */
interface Extent {
  acrossFrom: number;
  acrossTo: number;
}

interface Chunk extends Extent {
  direction: ReadingDirection;
  atoms: Atom[];
  text: string;
  start: number;
  end: number;
  baseline: number;
  size: number;
}

const horizontal = (direction: ReadingDirection): boolean => direction === 'right' || direction === 'left';

function visibleText(glyph: Glyph): string {
  const { text } = glyph;
  // Most glyphs are one printable character: no need for the pattern.
  if (text.length === 1 && text.charCodeAt(0) > 0x20 && text.charCodeAt(0) < 0x7f) return text;
  return text.replace(INVISIBLE, (char) => (/\s/u.test(char) ? ' ' : ''));
}


/** Consecutive glyphs drawn one after the other on one baseline; a glyph drawn again on the one before it is dropped. */
function chunksOf(glyphs: readonly Glyph[]): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Chunk | undefined;
  for (const glyph of glyphs) {
    const text = visibleText(glyph);
    const last = current?.atoms.at(-1);
    if (
      last !== undefined &&
      last.text === text &&
      Math.abs(last.start - glyph.start) < DUPLICATE_ALONG_EM * glyph.size &&
      Math.abs(current!.baseline - glyph.baseline) <= DUPLICATE_ACROSS_EM * glyph.size
    ) {
      continue;
    }
    const continues =
      current !== undefined &&
      current.direction === glyph.direction &&
      Math.abs(glyph.baseline - current.baseline) <= DUPLICATE_ACROSS_EM * Math.min(glyph.size, current.size) &&
      glyph.start >= current.end - CONTINUE_BACK_EM * glyph.size &&
      glyph.start <= current.end + CONTINUE_AHEAD_EM * glyph.size;
    if (text === '') {
      // Invisible characters only move the pen; text resumes where they end.
      if (continues) {
        current!.end = Math.max(current!.end, glyph.end);
        const previous = current!.atoms.at(-1);
        if (previous) previous.end = Math.max(previous.end, glyph.end);
      }
      continue;
    }
    // Read for every glyph: numbers rather than a fresh pair each time.
    const acrossFrom = horizontal(glyph.direction) ? glyph.y : glyph.x;
    const acrossTo = acrossFrom + (horizontal(glyph.direction) ? glyph.height : glyph.width);
    if (!continues) {
      current = { direction: glyph.direction, atoms: [], text: '', start: glyph.start, end: glyph.end, baseline: glyph.baseline, size: glyph.size, acrossFrom, acrossTo };
      chunks.push(current);
    }
    const chunk = current!;
    // The glyph itself becomes the atom: pages have thousands, and copies cost more than the reading.
    glyph.text = text;
    chunk.atoms.push(glyph);
    chunk.text += text;
    chunk.end = glyph.end;
    chunk.size = Math.max(chunk.size, glyph.size);
    chunk.acrossFrom = Math.min(chunk.acrossFrom, acrossFrom);
    chunk.acrossTo = Math.max(chunk.acrossTo, acrossTo);
  }
  return chunks;
}

function centre({ acrossFrom, acrossTo }: Extent): number {
  return (acrossFrom + acrossTo) / 2;
}

function overlapsEnough(line: Extent, item: Extent): boolean {
  const overlap = Math.min(line.acrossTo, item.acrossTo) - Math.max(line.acrossFrom, item.acrossFrom);
  const smaller = Math.min(line.acrossTo - line.acrossFrom, item.acrossTo - item.acrossFrom);
  return smaller <= 0 ? overlap >= 0 : overlap >= SAME_LINE_OVERLAP * smaller;
}

/** Lines of the page, top to bottom then left to right as displayed. */
export function buildLines(glyphs: readonly Glyph[]): TextLine[] {
  const byDirection = new Map<ReadingDirection, Chunk[]>();
  for (const chunk of chunksOf(glyphs)) {
    const group = byDirection.get(chunk.direction);
    if (group) group.push(chunk);
    else byDirection.set(chunk.direction, [chunk]);
  }
  const lines: (Extent & { chunks: Chunk[]; direction: ReadingDirection })[] = [];
  for (const [direction, group] of byDirection) {
    group.sort((left, right) => centre(left) - centre(right));
    let current: (typeof lines)[number] | undefined;
    for (const chunk of group) {
      if (current && overlapsEnough(current, chunk)) {
        current.chunks.push(chunk);
        current.acrossFrom = Math.min(current.acrossFrom, chunk.acrossFrom);
        current.acrossTo = Math.max(current.acrossTo, chunk.acrossTo);
      } else {
        current = { chunks: [chunk], acrossFrom: chunk.acrossFrom, acrossTo: chunk.acrossTo, direction };
        lines.push(current);
      }
    }
  }
  const joined = lines.map(({ chunks, direction }) => joinLine(chunks.sort((left, right) => left.start - right.start), direction)).filter((line) => line.text !== '');
  // One buffer for the page's boxes, each line a view of it: a buffer per line costs the garbage collector more than
  // the reading (a dense page has 66 lines, a document 500 pages).
  const boxes = new Float32Array(joined.reduce((units, line) => units + line.text.length, 0) * 4);
  let offset = 0;
  return joined
    .map(({ text, atoms, direction }) => {
      const view = boxes.subarray(offset, offset + text.length * 4);
      offset += text.length * 4;
      fillBoxes(view, atoms, direction);
      return { text, direction, boxes: view };
    })
    .sort((left, right) => left.boxes[1]! - right.boxes[1]! || left.boxes[0]! - right.boxes[0]!);
}

/**
 * The atoms in reading order without those drawing the same characters again at (nearly) the same place: fake bold,
 * drop shadows, stamps applied twice.
 */
function withoutRepeats(atoms: readonly Atom[], direction: ReadingDirection): Atom[] {
  const kept: Atom[] = [];
  const byText = new Map<string, Atom[]>();
  const acrossStart = (atom: Atom): number => (horizontal(direction) ? atom.y : atom.x);
  for (const atom of atoms) {
    const same = byText.get(atom.text);
    if (same?.some((other) => Math.abs(other.start - atom.start) < DUPLICATE_ALONG_EM * atom.size && Math.abs(acrossStart(other) - acrossStart(atom)) < DUPLICATE_ACROSS_EM * atom.size)) continue;
    if (same) same.push(atom);
    else byText.set(atom.text, [atom]);
    kept.push(atom);
  }
  return kept;
}

/** Whether any chunk starts before the one before it ends: only then can text be drawn over other text of the line. */
function overlapping(chunks: readonly Chunk[]): boolean {
  for (let index = 1; index < chunks.length; index++) {
    const previous = chunks[index - 1]!;
    if (chunks[index]!.start < previous.end - DUPLICATE_ALONG_EM * previous.size) return true;
  }
  return false;
}

/** Asked for every pair of atoms: a one-character ASCII atom, by far the commonest, is answered without the pattern. */
function isSpace({ text }: Atom): boolean {
  const code = text.charCodeAt(0);
  if (text.length === 1 && code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE_ONLY.test(text);
}

/**
 * The line's atoms in order with a space inserted at each visible gap between words. The gap that counts as a word
 * break is WORD_GAP_EM of the font size, or more on a letter-spaced line (most letters apart), so that spaced-out
 * letters still read as one word.
 */
function joinLine(chunks: Chunk[], direction: ReadingDirection): JoinedLine {
  const drawn = chunks.length === 1 ? chunks[0]!.atoms : chunks.flatMap((chunk) => chunk.atoms);
  const atoms = overlapping(chunks) ? withoutRepeats(drawn, direction) : drawn;
  const breakEm = wordBreakEm(atoms);
  const joined: Atom[] = [];
  let previous: Atom | undefined;
  for (const atom of atoms) {
    if (previous && !isSpace(previous) && !isSpace(atom)) {
      const gap = atom.start - previous.end;
      // Far apart, or drawn back over earlier text (an overlay), is a word break.
      if (gap > breakEm * atom.size || gap < -CONTINUE_BACK_EM * atom.size * 2) joined.push(gapAtom(previous, atom, direction));
    }
    joined.push(atom);
    previous = atom;
  }
  return lineOf(toLogicalOrder(joined), direction);
}

/** WORD_GAP_EM, or on a letter-spaced line (most letters apart) more than its usual letter gap. */
function wordBreakEm(atoms: readonly Atom[]): number {
  const gaps: number[] = [];
  let wide = 0;
  for (let index = 1; index < atoms.length; index++) {
    const previous = atoms[index - 1]!;
    const next = atoms[index]!;
    if (isSpace(previous) || isSpace(next)) continue;
    const gap = (next.start - previous.end) / next.size;
    gaps.push(gap);
    if (gap > WORD_GAP_EM) wide++;
  }
  if (gaps.length < 3 || wide * 2 < gaps.length) return WORD_GAP_EM;
  gaps.sort((left, right) => left - right);
  return gaps[Math.floor(gaps.length / 2)]! * LETTER_SPACED_GAP_FACTOR;
}

/** A space standing for the gap between two atoms, spanning it (or, when they overlap, sitting where the first ends). */
function gapAtom(previous: Atom, next: Atom, direction: ReadingDirection): Atom {
  const from = Math.min(previous.end, next.start);
  const to = Math.max(previous.end, next.start);
  const { size } = next;
  if (horizontal(direction)) {
    const left = direction === 'right' ? from : -to;
    return { text: ' ', size, x: left, y: previous.y, width: to - from, height: previous.height, start: from, end: to };
  }
  const top = direction === 'down' ? from : -to;
  return { text: ' ', size, x: previous.x, y: top, width: previous.width, height: to - from, start: from, end: to };
}

/** A line's atoms in logical order and its text. */
interface JoinedLine {
  text: string;
  atoms: readonly Atom[];
  direction: ReadingDirection;
}

function lineOf(atoms: readonly Atom[], direction: ReadingDirection): JoinedLine {
  let text = '';
  for (const atom of atoms) text += atom.text;
  return { text, atoms, direction };
}

/**
 * The displayed box of each UTF-16 unit of the line's text at boxes[4i..4i+3]. Single precision keeps a thousandth of
 * a point on the largest page (14,400 pt) at half the memory: answers are given to the hundredth.
 */
function fillBoxes(boxes: Float32Array, atoms: readonly Atom[], direction: ReadingDirection): void {
  let unit = 0;
  for (const atom of atoms) {
    // A glyph standing for several characters (a ligature) shares its box among them.
    const count = atom.text.length;
    for (let index = 0; index < count; index++, unit++) {
      const offset = unit * 4;
      if (horizontal(direction)) {
        const share = atom.width / count;
        const first = direction === 'right' ? index : count - 1 - index;
        boxes[offset] = atom.x + share * first;
        boxes[offset + 1] = atom.y;
        boxes[offset + 2] = share;
        boxes[offset + 3] = atom.height;
      } else {
        const share = atom.height / count;
        const first = direction === 'down' ? index : count - 1 - index;
        boxes[offset] = atom.x;
        boxes[offset + 1] = atom.y + share * first;
        boxes[offset + 2] = atom.width;
        boxes[offset + 3] = share;
      }
    }
  }
}
