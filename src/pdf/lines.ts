/**
 * From drawn glyphs to the lines anchor search reads: glyphs that continue each other form chunks, chunks sharing a
 * baseline form a line in reading order (one per column when a gutter parts them), text drawn twice at one place counts once, characters that are not visible
 * text are left out, visible gaps read as spaces, and right-to-left scripts are put back in logical order. Every
 * character of a line's text keeps the box where it is drawn.
 */
import { containsRightToLeft, toLogicalOrder } from './bidi.js';
import { BASELINE, DIRECTION_NAMES, DOWN, END, HEIGHT, LEFT, RIGHT, SIZE, START, WIDTH, X, Y, type GlyphTable } from './glyphs.js';
import type { TextLine } from './page-text.js';

/**
 * A gap wider than this share of the font size reads as a word break: Helvetica's space is 0.278 em, Times's
 * 0.25, a narrow one 0.2; kerning and tracking inside words stay below 0.1 (poppler's own break is 0.1). OCR layers
 * with no space glyphs leave gaps of 0.13 em between words (pdfcpu--jphysiol01396-0132.pdf: "of the"), and typeset
 * text a thin one after a full stop (pdf--freeculture.pdf: "documentary. The").
 */
const WORD_GAP_EM = 0.12;
/** Letter-spaced lines: a gap reads as a word break when it is this much wider than the line's usual letter gap. */
const LETTER_SPACED_GAP_FACTOR = 1.6;
/**
 * Spaced-out letters inside a line of other text ("sign here: S I G N A T U R E"): at least LETTER_RUN_MIN_GAPS gaps
 * in a row wider than a word break, none wider than LETTER_RUN_MAX_EM (table cells are). Letters are usually no
 * further apart than LETTER_GAP_MAX_EM, on a letter-spaced line too: tokens set apart (a formula's, single digits in
 * table cells) are.
 */
const LETTER_RUN_MIN_GAPS = 3;
const LETTER_RUN_MAX_EM = 1.5;
const LETTER_GAP_MAX_EM = 0.6;
/** Text drawn again this close (× font size) along and across, with the same characters, is the same text. */
const DUPLICATE_ALONG_EM = 0.15;
const DUPLICATE_ACROSS_EM = 0.2;
/** A glyph continues the glyph before it when it starts no further back or ahead than this (× font size). */
const CONTINUE_BACK_EM = 0.3;
const CONTINUE_AHEAD_EM = 1;
/** A mark whose origin is this far (points) inside a letter's box is drawn over that letter. */
const MARK_INSIDE = 0.01;
/**
 * A space drawn more than this (× font size) under the ink of the glyph before it, the next glyph starting no further
 * than this past that ink, shows no gap: InDesign draws a ligature (ﬁ) with the advance of one letter and a space glyph
 * after it for the rest, and "offi ce" is "office" on the page.
 */
const COVERED_SPACE_EM = 0.1;
/**
 * Text further apart than this (× font size) on one baseline is in different columns or table cells: a reader does
 * not read across the gap as one phrase. Poppler keeps no wider gap inside a line; justified text and letter-spaced
 * words stay well below it.
 */
const COLUMN_GAP_EM = 2.5;
/** Two chunks belong to one line when they overlap across it by this share of the smaller one. */
const SAME_LINE_OVERLAP = 0.5;

/**
 * Format characters (zero-width space and joiners, soft hyphen, direction marks, byte order mark) and controls:
 * never visible text. Their advance does not make a gap either.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;
const WHITESPACE_ONLY = /^\s+$/u;

/** Extent across a line: from acrossFrom to acrossTo on the axis perpendicular to the reading direction. */
interface Extent {
  acrossFrom: number;
  acrossTo: number;
}

/** Glyphs drawn one after the other on one baseline: rows order[from..to) of the glyph table. */
interface Chunk extends Extent {
  direction: number;
  from: number;
  to: number;
  start: number;
  end: number;
  baseline: number;
  size: number;
}

const horizontal = (direction: number): boolean => (direction & 1) === 0;

function visibleText(text: string): string {
  // Most glyphs are one printable character or a space: no need for the pattern.
  if (text.length === 1 && text.charCodeAt(0) >= 0x20 && text.charCodeAt(0) < 0x7f) return text;
  return text.replace(INVISIBLE, (char) => (/\s/u.test(char) ? ' ' : ''));
}

/**
 * The rows of a page's glyphs kept by chunksOf, in drawing order, each chunk a range of them; for each row whether
 * its visible text is white space; and whether any may be right-to-left text (only then is a line's order looked at).
 */
interface KeptRows {
  order: number[];
  spaces: Uint8Array;
  mayBeRightToLeft: boolean;
}

/** Reused page after page, grown as needed. */
let spaceFlags = new Uint8Array(4096);
let gapScratch = new Float64Array(1024);
let breakScratch = new Float64Array(1024);

/**
 * Consecutive glyphs drawn one after the other on one baseline; a glyph drawn again on the one before it is dropped.
 * The rows kept get their visible text.
 */
function chunksOf(glyphs: GlyphTable, kept: KeptRows): Chunk[] {
  const chunks: Chunk[] = [];
  const { texts, directions, numbers } = glyphs;
  const { order, spaces } = kept;
  let current: Chunk | undefined;
  let last = -1;
  for (let row = 0; row < glyphs.count; row++) {
    const text = visibleText(texts[row]!);
    const offset = row * 8;
    const size = numbers[offset + SIZE]!;
    const start = numbers[offset + START]!;
    const baseline = numbers[offset + BASELINE]!;
    const direction = directions[row]!;
    if (
      last !== -1 &&
      texts[last] === text &&
      Math.abs(numbers[last * 8 + START]! - start) < DUPLICATE_ALONG_EM * size &&
      Math.abs(current!.baseline - baseline) <= DUPLICATE_ACROSS_EM * size
    ) {
      continue;
    }
    const continues =
      current !== undefined &&
      current.direction === direction &&
      Math.abs(baseline - current.baseline) <= DUPLICATE_ACROSS_EM * Math.min(size, current.size) &&
      start >= current.end - CONTINUE_BACK_EM * size &&
      start <= current.end + CONTINUE_AHEAD_EM * size;
    const end = numbers[offset + END]!;
    if (text === '') {
      // Invisible characters only move the pen; text resumes where they end.
      if (continues) {
        current!.end = Math.max(current!.end, end);
        numbers[last * 8 + END] = Math.max(numbers[last * 8 + END]!, end);
      }
      continue;
    }
    const acrossFrom = horizontal(direction) ? numbers[offset + Y]! : numbers[offset + X]!;
    const acrossTo = acrossFrom + (horizontal(direction) ? numbers[offset + HEIGHT]! : numbers[offset + WIDTH]!);
    if (!continues) {
      current = { direction, from: order.length, to: order.length, start, end, baseline, size, acrossFrom, acrossTo };
      chunks.push(current);
    }
    const chunk = current!;
    texts[row] = text;
    spaces[row] = isSpace(text) ? 1 : 0;
    if (!kept.mayBeRightToLeft && (text.length !== 1 || text.charCodeAt(0) >= 0x7f)) kept.mayBeRightToLeft = containsRightToLeft(text);
    order.push(row);
    last = row;
    chunk.to = order.length;
    chunk.end = end;
    chunk.size = Math.max(chunk.size, size);
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

/** Chunks read as one line, and the extent across the line they cover together. */
interface GroupedLine extends Extent {
  /** In the order they start along the line. */
  chunks: Chunk[];
  direction: number;
}

/** How far apart two chunks are along the reading direction: 0 when they overlap. */
function alongGap(left: Chunk, right: Chunk): number {
  return Math.max(0, right.start - left.end, left.start - right.end);
}

/**
 * The line's chunk nearest to `chunk` along the line (one of those starting just before or after it), and where
 * `chunk` goes in the line's order: after the chunks starting where it does, which came earlier across the page.
 */
function nearestAlong(line: GroupedLine, chunk: Chunk): { nearest: Chunk; at: number } {
  const { chunks } = line;
  let low = 0;
  let high = chunks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (chunks[middle]!.start <= chunk.start) low = middle + 1;
    else high = middle;
  }
  let nearest = chunks[Math.min(low, chunks.length - 1)]!;
  for (let index = Math.max(0, low - 2); index < Math.min(chunks.length, low + 2); index++) {
    if (alongGap(chunks[index]!, chunk) < alongGap(nearest, chunk)) nearest = chunks[index]!;
  }
  return { nearest, at: low };
}

/**
 * Chunks of one direction as lines. A chunk continues the line whose chunk nearest to it along the line overlaps it
 * across: scanned and OCR'd pages are often skewed, each word a little lower than the one before it, and a line's
 * words far apart need not overlap each other across at all; the line below is near them, but its own chunk nearest
 * along is not. Chunks are taken across the page; a line passed by (nothing later can reach it) is no longer looked at.
 */
function groupLines(group: Chunk[], direction: number): GroupedLine[] {
  group.sort((left, right) => centre(left) - centre(right));
  const tallest = group.reduce((most, chunk) => Math.max(most, chunk.acrossTo - chunk.acrossFrom), 0);
  const lines: GroupedLine[] = [];
  let open: GroupedLine[] = [];
  for (const chunk of group) {
    // A later chunk's centre is no lower than this one's, and it reaches at most `tallest` / 2 across from it.
    if (open.length > 8) open = open.filter((line) => line.acrossTo + tallest >= centre(chunk));
    let best: GroupedLine | undefined;
    let bestAt = 0;
    let bestGap = Infinity;
    for (const line of open) {
      // Not overlapping the line at all, it overlaps none of its chunks.
      if (line.acrossTo < chunk.acrossFrom || line.acrossFrom > chunk.acrossTo) continue;
      const { nearest, at } = nearestAlong(line, chunk);
      const gap = alongGap(nearest, chunk);
      if (gap < bestGap && overlapsEnough(nearest, chunk)) {
        best = line;
        bestAt = at;
        bestGap = gap;
      }
    }
    if (best) {
      best.chunks.splice(bestAt, 0, chunk);
      best.acrossFrom = Math.min(best.acrossFrom, chunk.acrossFrom);
      best.acrossTo = Math.max(best.acrossTo, chunk.acrossTo);
    } else {
      const line = { chunks: [chunk], acrossFrom: chunk.acrossFrom, acrossTo: chunk.acrossTo, direction };
      lines.push(line);
      open.push(line);
    }
  }
  return lines;
}

/** The line cut where its chunks are further apart than COLUMN_GAP_EM: a line in each column. */
function splitAtColumnGaps(line: GroupedLine): GroupedLine[] {
  const { chunks } = line;
  const pieces: GroupedLine[] = [];
  let from = 0;
  let reach = chunks[0]!.end;
  for (let index = 1; index <= chunks.length; index++) {
    const chunk = chunks[index];
    if (chunk && chunk.start - reach <= COLUMN_GAP_EM * Math.max(chunk.size, chunks[index - 1]!.size)) {
      reach = Math.max(reach, chunk.end);
      continue;
    }
    if (from === 0 && !chunk) return [line];
    const piece = chunks.slice(from, index);
    const acrossFrom = Math.min(...piece.map((each) => each.acrossFrom));
    const acrossTo = Math.max(...piece.map((each) => each.acrossTo));
    pieces.push({ chunks: piece, direction: line.direction, acrossFrom, acrossTo });
    from = index;
    if (chunk) reach = chunk.end;
  }
  return pieces;
}

/** A line's glyph rows in logical order (inserted spaces included), its text, and the view of the page's boxes it fills. */
interface JoinedLine {
  rows: number[];
  text: string;
  direction: number;
}

/** Lines of the page, top to bottom then left to right as displayed. The table's rows are rewritten on the way. */
export function buildLines(glyphs: GlyphTable): TextLine[] {
  if (spaceFlags.length < glyphs.count) spaceFlags = new Uint8Array(glyphs.count * 2);
  const kept: KeptRows = { order: [], spaces: spaceFlags, mayBeRightToLeft: false };
  const byDirection = new Map<number, Chunk[]>();
  for (const chunk of chunksOf(glyphs, kept)) {
    const group = byDirection.get(chunk.direction);
    if (group) group.push(chunk);
    else byDirection.set(chunk.direction, [chunk]);
  }
  const lines: GroupedLine[] = [];
  for (const [direction, group] of byDirection) lines.push(...groupLines(group, direction).flatMap(splitAtColumnGaps));
  const joined = lines
    .map(({ chunks, direction }) => joinLine(glyphs, kept, chunks, direction))
    .filter((line) => line.text !== '');
  // One buffer for the page's boxes, each line a view of it: a buffer per line costs the garbage collector more than
  // the reading (a dense page has 66 lines, a document 500 pages).
  const boxes = new Float32Array(joined.reduce((units, line) => units + line.text.length, 0) * 4);
  let offset = 0;
  return joined
    .map(({ rows, text, direction }) => {
      const view = boxes.subarray(offset, offset + text.length * 4);
      offset += text.length * 4;
      fillBoxes(view, glyphs, rows, direction);
      return { text, direction: DIRECTION_NAMES[direction]!, boxes: view };
    })
    .sort((left, right) => left.boxes[1]! - right.boxes[1]! || left.boxes[0]! - right.boxes[0]!);
}

/**
 * The rows in reading order without those drawing the same characters again at (nearly) the same place: fake bold,
 * drop shadows, stamps applied twice.
 */
function withoutRepeats(glyphs: GlyphTable, rows: readonly number[], direction: number): number[] {
  const kept: number[] = [];
  const byText = new Map<string, number[]>();
  const acrossStart = horizontal(direction) ? Y : X;
  for (const row of rows) {
    const text = glyphs.texts[row]!;
    const size = glyphs.get(row, SIZE);
    const start = glyphs.get(row, START);
    const across = glyphs.get(row, acrossStart);
    const same = byText.get(text);
    if (same?.some((other) => Math.abs(glyphs.get(other, START) - start) < DUPLICATE_ALONG_EM * size && Math.abs(glyphs.get(other, acrossStart) - across) < DUPLICATE_ACROSS_EM * size)) continue;
    if (same) same.push(row);
    else byText.set(text, [row]);
    kept.push(row);
  }
  return kept;
}

/**
 * Where a glyph's ink ends along the reading direction: its width (height down or up a page) from its start, the way
 * its advance goes (mirrored text advances backwards along it).
 */
function inkEnd(glyphs: GlyphTable, row: number, direction: number): number {
  const start = glyphs.get(row, START);
  const extent = horizontal(direction) ? glyphs.get(row, WIDTH) : glyphs.get(row, HEIGHT);
  return glyphs.get(row, END) < start ? start - extent : start + extent;
}

/** The rows without spaces that show no gap (COVERED_SPACE_EM): the glyphs on either side touch. */
function withoutCoveredSpaces(glyphs: GlyphTable, spaces: Uint8Array, rows: number[], direction: number): number[] {
  const covered = (index: number): boolean => {
    const previous = rows[index - 1];
    const next = rows[index + 1];
    if (spaces[rows[index]!] !== 1 || previous === undefined || next === undefined || spaces[previous] === 1 || spaces[next] === 1) return false;
    const forwards = glyphs.get(previous, END) < glyphs.get(previous, START) ? -1 : 1;
    const ink = inkEnd(glyphs, previous, direction);
    const slack = COVERED_SPACE_EM * glyphs.get(next, SIZE);
    // The space starts under the ink, and the glyph after it starts where the ink ends.
    return (ink - glyphs.get(rows[index]!, START)) * forwards > slack && (glyphs.get(next, START) - ink) * forwards <= slack;
  };
  for (let index = 1; index < rows.length - 1; index++) {
    if (covered(index)) return rows.filter((_, kept) => !covered(kept));
  }
  return rows;
}

/** Whether any chunk starts before the one before it ends: only then can text be drawn over other text of the line. */
function overlapping(chunks: readonly Chunk[]): boolean {
  for (let index = 1; index < chunks.length; index++) {
    const previous = chunks[index - 1]!;
    if (chunks[index]!.start < previous.end - DUPLICATE_ALONG_EM * previous.size) return true;
  }
  return false;
}

/** Where a glyph is seen along the reading direction: its box's [from, to), growing in reading order. */
function alongBox(glyphs: GlyphTable, row: number, direction: number): [number, number] {
  const x = glyphs.get(row, X);
  const y = glyphs.get(row, Y);
  switch (direction) {
    case RIGHT:
      return [x, x + glyphs.get(row, WIDTH)];
    case LEFT:
      return [-(x + glyphs.get(row, WIDTH)), -x];
    case DOWN:
      return [y, y + glyphs.get(row, HEIGHT)];
    default:
      return [-(y + glyphs.get(row, HEIGHT)), -y];
  }
}

/** How many pieces before and after a piece of white space are looked at for text it is drawn over. */
const OVERLAY_LOOKAROUND = 8;

/**
 * The rows of a line whose chunks overlap, in reading order. A chunk is cut where its glyphs are seen more than
 * CONTINUE_AHEAD_EM apart (character or word spacing moved the pen past text drawn later: an exponent drawn after
 * its base, the number under a root sign), and the pieces are read in the order they start. A piece of white space
 * only, drawn over the glyphs of another, is no gap on the page and is left out (a right-to-left line would read it
 * inside a word). `cuts` holds the rows on either side of a cut: the gap between them and their new neighbours is
 * where they are seen. A piece of marks only, drawn over another piece, goes after the glyph it is drawn on.
 */
function readPieces(glyphs: GlyphTable, kept: KeptRows, chunks: readonly Chunk[], direction: number): { rows: number[]; cuts: Set<number> } {
  const { order, spaces } = kept;
  const pieces: number[][] = [];
  const cuts = new Set<number>();
  for (const chunk of chunks) {
    let piece = [order[chunk.from]!];
    for (let at = chunk.from + 1; at < chunk.to; at++) {
      const row = order[at]!;
      const previous = order[at - 1]!;
      if (alongBox(glyphs, row, direction)[0] - alongBox(glyphs, previous, direction)[1] > CONTINUE_AHEAD_EM * glyphs.get(row, SIZE)) {
        pieces.push(piece);
        piece = [];
        cuts.add(previous).add(row);
      }
      piece.push(row);
    }
    pieces.push(piece);
  }
  // Chunks come in the order they start; only cut ones need sorting again (a stable sort keeps the rest as they are).
  if (cuts.size > 0) pieces.sort((left, right) => glyphs.get(left[0]!, START) - glyphs.get(right[0]!, START));
  const extents = pieces.map((piece) => [alongBox(glyphs, piece[0]!, direction)[0], alongBox(glyphs, piece[piece.length - 1]!, direction)[1]] as const);
  const drawnOver = (index: number): boolean => {
    const [from, to] = extents[index]!;
    for (let other = Math.max(0, index - OVERLAY_LOOKAROUND); other < Math.min(pieces.length, index + OVERLAY_LOOKAROUND + 1); other++) {
      if (other === index || pieces[other]!.every((row) => spaces[row] === 1)) continue;
      if (extents[other]![0] <= from && extents[other]![1] >= to) return true;
    }
    return false;
  };
  // Marks drawn on their own over a piece (raised or lowered, as some files draw Arabic harakat) follow the glyph
  // they are drawn on.
  const marksAfter = new Map<number, number[]>();
  const attachMarks = (index: number): boolean => {
    const piece = pieces[index]!;
    if (!piece.every((row) => isMarkOnly(glyphs.texts[row]!))) return false;
    const origin = glyphs.get(piece[0]!, START);
    for (let other = Math.max(0, index - OVERLAY_LOOKAROUND); other < Math.min(pieces.length, index + OVERLAY_LOOKAROUND + 1); other++) {
      const [from, to] = extents[other]!;
      if (other === index || origin <= from || origin >= to || pieces[other]!.every((row) => isMarkOnly(glyphs.texts[row]!))) continue;
      const letter = pieces[other]!.findLast((row) => alongBox(glyphs, row, direction)[0] <= origin)!;
      marksAfter.set(letter, [...(marksAfter.get(letter) ?? []), ...piece]);
      return true;
    }
    return false;
  };
  const read = pieces.filter((piece, index) => !(piece.every((row) => spaces[row] === 1) && drawnOver(index)) && !attachMarks(index));
  const rows: number[] = [];
  for (const piece of read) {
    for (const row of piece) rows.push(row, ...(marksAfter.get(row) ?? []));
  }
  return { rows, cuts };
}

/** Asked for every glyph kept: a one-character ASCII glyph, by far the commonest, is answered without the pattern. */
function isSpace(text: string): boolean {
  const code = text.charCodeAt(0);
  if (text.length === 1 && code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE_ONLY.test(text);
}

/**
 * The line's glyphs in order with a space inserted at each visible gap between words. The gap that counts as a word
 * break is WORD_GAP_EM of the font size, or more on a letter-spaced line (most letters apart) or run of letters, so
 * that spaced-out letters still read as one word.
 */
function joinLine(glyphs: GlyphTable, kept: KeptRows, chunks: readonly Chunk[], direction: number): JoinedLine {
  const { order, spaces } = kept;
  const overlaid = chunks.length > 1 && overlapping(chunks);
  const { rows: drawn, cuts } = overlaid
    ? readPieces(glyphs, kept, chunks, direction)
    : { rows: chunks.length === 1 ? order.slice(chunks[0]!.from, chunks[0]!.to) : chunks.flatMap((chunk) => order.slice(chunk.from, chunk.to)), cuts: undefined };
  const rows = withoutCoveredSpaces(glyphs, spaces, overlaid ? withoutRepeats(glyphs, drawn, direction) : drawn, direction);
  // The gap before each glyph, asked twice, computed once; none next to a space (no word break is inserted there).
  // Next to a cut, glyphs are apart as far as they are seen, not as far as their spacing took the pen.
  if (gapScratch.length < rows.length) gapScratch = new Float64Array(rows.length * 2);
  const gaps = gapScratch;
  // After a mark (moved back over its letter, then the pen moved on), from the furthest end since that letter.
  let reach = -Infinity;
  for (let index = 1; index < rows.length; index++) {
    const row = rows[index]!;
    const previous = rows[index - 1]!;
    reach = isMarkOnly(glyphs.texts[previous]!) ? Math.max(reach, glyphs.get(previous, END)) : glyphs.get(previous, END);
    gaps[index] = cuts?.has(row) || cuts?.has(previous) ? alongBox(glyphs, row, direction)[0] - alongBox(glyphs, previous, direction)[1] : glyphs.get(row, START) - reach;
  }
  const besideSpace = (index: number): boolean => spaces[rows[index - 1]!] === 1 || spaces[rows[index]!] === 1;
  const breakEms = wordBreakEms(glyphs, rows, gaps, besideSpace);
  const { texts } = glyphs;
  let joined: number[] = [];
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    if (index > 0 && !besideSpace(index)) {
      const size = glyphs.get(row, SIZE);
      const gap = gaps[index]!;
      // Far apart, or drawn back over earlier text (an overlay), is a word break.
      if (gap > breakEms[index]! * size || gap < -CONTINUE_BACK_EM * size * 2) joined.push(addGap(glyphs, rows[index - 1]!, row, direction));
    }
    joined.push(row);
  }
  if (kept.mayBeRightToLeft && joined.some((row) => containsRightToLeft(texts[row]!))) {
    joined = toLogicalOrder(marksBeforeTheirLetters(glyphs, joined, direction).map((row) => ({ row, text: texts[row]! }))).map(({ row }) => row);
  }
  let text = '';
  for (const row of joined) text += texts[row];
  return { rows: joined, text, direction };
}

const MARKS_ONLY = /^\p{M}+$/u;
/** Asked for every glyph of a line: below U+0300 (most glyphs) there is no combining mark. */
const isMarkOnly = (text: string): boolean => text.charCodeAt(0) >= 0x300 && MARKS_ONLY.test(text);

/**
 * The rows of a line in visual order with each run of marks (Hebrew points, Arabic harakat) that is drawn after the
 * letter it sits on, its origin moved back inside that letter's box, put before it (in reverse): reversed into
 * logical order, marks then follow their letter as typed. Marks drawn before their letter (the order HarfBuzz gives,
 * each in the box of the letter after it) are in place already.
 */
function marksBeforeTheirLetters(glyphs: GlyphTable, rows: number[], direction: number): number[] {
  const { texts } = glyphs;
  const isMark = (row: number): boolean => isMarkOnly(texts[row]!) && containsRightToLeft(texts[row]!);
  let ordered = rows;
  for (let index = 1; index < ordered.length; index++) {
    if (!isMark(ordered[index]!)) continue;
    let end = index + 1;
    while (end < ordered.length && isMark(ordered[end]!)) end++;
    const letter = ordered[index - 1]!;
    const [from, to] = alongBox(glyphs, letter, direction);
    const origin = glyphs.get(ordered[index]!, START);
    if (!isMark(letter) && origin > from + MARK_INSIDE && origin < to - MARK_INSIDE) {
      ordered = [...ordered.slice(0, index - 1), ...ordered.slice(index, end).reverse(), letter, ...ordered.slice(end)];
    }
    index = end - 1;
  }
  return ordered;
}

/**
 * The word break before each glyph (× its font size): the line's (wordBreakEm), or in a run of spaced-out letters
 * inside it more than the run's usual letter gap.
 */
function wordBreakEms(glyphs: GlyphTable, rows: readonly number[], gaps: Float64Array, besideSpace: (index: number) => boolean): Float64Array {
  if (breakScratch.length < rows.length) breakScratch = new Float64Array(rows.length * 2);
  const breaks = breakScratch;
  const lineEm = wordBreakEm(glyphs, rows, gaps, besideSpace);
  breaks.fill(lineEm, 0, rows.length);
  if (lineEm !== WORD_GAP_EM) return breaks;
  const relative = (index: number): number => gaps[index]! / glyphs.get(rows[index]!, SIZE);
  const glued = (index: number): boolean => !besideSpace(index) && relative(index) <= WORD_GAP_EM;
  const spacedOut = (index: number): boolean => besideSpace(index) || (relative(index) > WORD_GAP_EM && relative(index) <= LETTER_RUN_MAX_EM);
  for (let from = 1; from < rows.length; from++) {
    if (besideSpace(from) || !spacedOut(from)) continue;
    let to = from;
    while (to < rows.length && spacedOut(to)) to++;
    // A glyph close to the one before (after) it ends (starts) a word of unspaced letters: the gap from it is no
    // letter gap.
    const first = from > 1 && glued(from - 1) ? from + 1 : from;
    const end = to < rows.length && glued(to) ? to - 1 : to;
    const run: number[] = [];
    for (let index = first; index < end; index++) if (!besideSpace(index)) run.push(relative(index));
    if (run.length >= LETTER_RUN_MIN_GAPS) {
      run.sort((left, right) => left - right);
      const letterGap = run[Math.floor(run.length / 2)]!;
      if (letterGap <= LETTER_GAP_MAX_EM) breaks.fill(letterGap * LETTER_SPACED_GAP_FACTOR, first, end);
    }
    from = to;
  }
  return breaks;
}

/**
 * WORD_GAP_EM, or on a letter-spaced line (most letters apart, usually by no more than LETTER_GAP_MAX_EM) more than
 * its usual letter gap.
 */
function wordBreakEm(glyphs: GlyphTable, rows: readonly number[], gaps: Float64Array, besideSpace: (index: number) => boolean): number {
  let gapCount = 0;
  let wide = 0;
  for (let index = 1; index < rows.length; index++) {
    if (besideSpace(index)) continue;
    gapCount++;
    if (gaps[index]! / glyphs.get(rows[index]!, SIZE) > WORD_GAP_EM) wide++;
  }
  if (gapCount < 3 || wide * 2 < gapCount) return WORD_GAP_EM;
  const relative: number[] = [];
  for (let index = 1; index < rows.length; index++) {
    if (!besideSpace(index)) relative.push(gaps[index]! / glyphs.get(rows[index]!, SIZE));
  }
  relative.sort((left, right) => left - right);
  const letterGap = relative[Math.floor(relative.length / 2)]!;
  return letterGap <= LETTER_GAP_MAX_EM ? letterGap * LETTER_SPACED_GAP_FACTOR : WORD_GAP_EM;
}

/**
 * A row for a space standing for the gap between two glyphs, spanning it (or, when they overlap, sitting where the
 * first ends).
 */
function addGap(glyphs: GlyphTable, previous: number, next: number, direction: number): number {
  const previousEnd = glyphs.get(previous, END);
  const nextStart = glyphs.get(next, START);
  const from = Math.min(previousEnd, nextStart);
  const to = Math.max(previousEnd, nextStart);
  const size = glyphs.get(next, SIZE);
  if (horizontal(direction)) {
    const left = direction === RIGHT ? from : -to;
    return glyphs.add(' ', direction, size, left, glyphs.get(previous, Y), to - from, glyphs.get(previous, HEIGHT), from, to, 0);
  }
  const top = direction === DOWN ? from : -to;
  return glyphs.add(' ', direction, size, glyphs.get(previous, X), top, glyphs.get(previous, WIDTH), to - from, from, to, 0);
}

/**
 * The displayed box of each UTF-16 unit of the line's text at boxes[4i..4i+3]. Single precision keeps a thousandth of
 * a point on the largest page (14,400 pt) at half the memory: answers are given to the hundredth.
 */
function fillBoxes(boxes: Float32Array, glyphs: GlyphTable, rows: readonly number[], direction: number): void {
  let unit = 0;
  for (const row of rows) {
    // A glyph standing for several characters (a ligature) shares its box among them.
    const count = glyphs.texts[row]!.length;
    const x = glyphs.get(row, X);
    const y = glyphs.get(row, Y);
    const width = glyphs.get(row, WIDTH);
    const height = glyphs.get(row, HEIGHT);
    for (let index = 0; index < count; index++, unit++) {
      const offset = unit * 4;
      if (horizontal(direction)) {
        const share = width / count;
        const first = direction === RIGHT ? index : count - 1 - index;
        boxes[offset] = x + share * first;
        boxes[offset + 1] = y;
        boxes[offset + 2] = share;
        boxes[offset + 3] = height;
      } else {
        const share = height / count;
        const first = direction === DOWN ? index : count - 1 - index;
        boxes[offset] = x;
        boxes[offset + 1] = y + share * first;
        boxes[offset + 2] = width;
        boxes[offset + 3] = share;
      }
    }
  }
}
