/**
 * Anchor search over text read by loadPdfText, following the contract's rules: N-th occurrence counted
 * in the whole document in page order, case-insensitive unless asked, optional whole-word matching,
 * repeated whitespace counted as one space, ligatures and other compatibility forms matched through NFKC.
 * A match never spans two lines.
 */
import type { Occurrence } from '../shared/values.js';
import type { Box, PageInfo, PageText, PdfText, TextLine } from './page-text.js';
import { clusterEnd, typedOrder } from './scripts.js';

export type { Occurrence };

/** Defaults the contract gives `occurrence`, which differ by operation; findAnchors itself has none. */
export const ANCHORS_FIND_DEFAULT_OCCURRENCE: Occurrence = 'all';
export const FIELD_ANCHOR_DEFAULT_OCCURRENCE: Occurrence = 'first';

export const ANCHOR_TEXT_MAX_LENGTH = 200;
export const ANCHOR_KEY_MAX_LENGTH = 100;

export interface Offset {
  x: number;
  y: number;
}

export interface AnchorSearch {
  key: string;
  text: string;
  /** Required here: the caller applies its operation's default (see the *_DEFAULT_OCCURRENCE constants). */
  occurrence: Occurrence;
  caseSensitive?: boolean;
  matchWholeWord?: boolean;
  /** Points added to the top-left of the found text; x right, y down. */
  offset?: Offset;
}

/** The contract's anchor match: top-left of the found text plus offset, in displayed page coordinates. */
export interface AnchorMatch extends Box {
  key: string;
  page: number;
}

/**
 * Why the options shared by anchors:find searches and field anchors (text, occurrence, caseSensitive,
 * matchWholeWord, offset) break the contract's value rules, or undefined when they are acceptable.
 * Takes any object because it checks parsed JSON.
 */
export function describeInvalidAnchorOptions(options: object): string | undefined {
  const { text, occurrence, caseSensitive, matchWholeWord, offset } = options as Record<string, unknown>;
  if (typeof text !== 'string') return 'anchor text must be a string';
  const length = [...text].length;
  if (length < 1 || length > ANCHOR_TEXT_MAX_LENGTH) {
    return `anchor text must be 1 to ${ANCHOR_TEXT_MAX_LENGTH} characters (got ${length})`;
  }
  if (
    given(occurrence) &&
    occurrence !== 'first' &&
    occurrence !== 'all' &&
    !(typeof occurrence === 'number' && Number.isInteger(occurrence) && occurrence >= 1)
  ) {
    return `anchor occurrence must be "first", "all" or an integer from 1 (got ${JSON.stringify(occurrence)})`;
  }
  if (given(caseSensitive) && typeof caseSensitive !== 'boolean') return 'anchor caseSensitive must be a boolean';
  if (given(matchWholeWord) && typeof matchWholeWord !== 'boolean') return 'anchor matchWholeWord must be a boolean';
  if (given(offset) && !(isRecord(offset) && isFiniteNumber(offset.x) && isFiniteNumber(offset.y))) {
    return 'anchor offset must be {x, y} with finite numbers';
  }
  return undefined;
}

/**
 * Why a list of anchors:find searches breaks the contract (keys and options), one message per problem. A key for
 * which `keyGiven` is false was derived by the caller (from the text): its length is not reported.
 */
export function describeInvalidSearches(searches: readonly object[], keyGiven: (index: number) => boolean = () => true): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  searches.forEach((search, index) => {
    if (!isRecord(search)) {
      problems.push(`searches[${index}] must be an object`);
      return;
    }
    const { key } = search;
    if (typeof key !== 'string' || key.length < 1 || [...key].length > ANCHOR_KEY_MAX_LENGTH) {
      if (keyGiven(index)) problems.push(`searches[${index}].key must be 1 to ${ANCHOR_KEY_MAX_LENGTH} characters`);
    } else if (seen.has(key)) {
      problems.push(`searches[${index}].key ${JSON.stringify(key)} is used twice; keys are unique in a call`);
    } else {
      seen.add(key);
    }
    const invalid = describeInvalidAnchorOptions(search);
    if (invalid) problems.push(`searches[${index}]: ${invalid}`);
  });
  return problems;
}

/** JSON clients often send null for an option they leave out. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * All matches of every search, search by search in the order given, each in document order.
 * A search without any match contributes nothing.
 */
export function findAnchors(text: PdfText, searches: readonly AnchorSearch[]): AnchorMatch[] {
  return selectOccurrences(
    searches,
    (function* () {
      for (const pageText of text.pageTexts) yield pageMatches(pageText, searches);
    })(),
  );
}

/** Every occurrence of each search on one page (an array per search, in the order given), in reading order. */
export function pageMatches(pageText: PageText, searches: readonly AnchorSearch[]): AnchorMatch[][] {
  return searches.map((search) => {
    const fold = search.caseSensitive !== true;
    const needle = normalise(search.text, fold).text;
    const matches: AnchorMatch[] = [];
    for (const line of pageText.lines) {
      const index = indexOf(line, fold);
      for (const [from, to] of occurrencesIn(index.text, needle, search.matchWholeWord === true)) {
        const box = boxOfRawRange(line, rawStartOf(index, from), rawEndOf(index, to - 1));
        matches.push({
          key: search.key,
          page: pageText.page,
          x: box.x + (search.offset?.x ?? 0),
          y: box.y + (search.offset?.y ?? 0),
          width: box.width,
          height: box.height,
        });
      }
    }
    return matches;
  });
}

/**
 * The matches each search asks for, search by search, from every page's pageMatches in page order: the N-th
 * occurrence is counted in the whole document. Pages are read only until every search has what it asks for.
 */
export function selectOccurrences(searches: readonly AnchorSearch[], pages: Iterable<AnchorMatch[][]>): AnchorMatch[] {
  const selected = searches.map((): AnchorMatch[] => []);
  const seen = searches.map(() => 0);
  const done = searches.map(() => false);
  for (const page of pages) {
    searches.forEach((search, index) => {
      const wanted = search.occurrence;
      for (const match of page[index]!) {
        if (done[index]) return;
        seen[index]!++;
        if (wanted === 'all' || wanted === 'first' || wanted === seen[index]) {
          selected[index]!.push(match);
          if (wanted !== 'all') done[index] = true;
        }
      }
    });
    if (done.every(Boolean)) break;
  }
  return selected.flat();
}

/** Non-overlapping [from, to) ranges of `needle` in `haystack`, left to right. */
function* occurrencesIn(haystack: string, needle: string, wholeWord: boolean): Generator<[number, number]> {
  if (needle === '') return;
  let from = haystack.indexOf(needle);
  while (from !== -1) {
    const to = from + needle.length;
    if (!wholeWord || (!endsWithWordCharacter(haystack.slice(Math.max(0, from - 2), from)) && !startsWithWordCharacter(haystack.slice(to, to + 2)))) {
      yield [from, to];
      from = haystack.indexOf(needle, to);
    } else {
      from = haystack.indexOf(needle, from + 1);
    }
  }
}

// Two UTF-16 units are enough to hold the code point next to the match, even outside the BMP. A combining
// mark counts as part of the letter it sits on.
const endsWithWordCharacter = (text: string): boolean => /[\p{L}\p{N}\p{M}]$/u.test(text);
const startsWithWordCharacter = (text: string): boolean => /^[\p{L}\p{N}\p{M}]/u.test(text);

/**
 * A line's text in the form searches compare, and for each of its UTF-16 units the range of the line's
 * raw text it came from (NFKC can turn one character into several, whitespace runs become one space).
 * Without `rawStart` and `rawEnd` the text maps one to one onto the raw text.
 */
interface LineIndex {
  text: string;
  rawStart?: number[];
  rawEnd?: number[];
}

const rawStartOf = (index: LineIndex, unit: number): number => index.rawStart?.[unit] ?? unit;
const rawEndOf = (index: LineIndex, unit: number): number => index.rawEnd?.[unit] ?? unit + 1;

const lineIndexes = new WeakMap<TextLine, { exact?: LineIndex; folded?: LineIndex }>();

function indexOf(line: TextLine, fold: boolean): LineIndex {
  let cached = lineIndexes.get(line);
  if (!cached) {
    cached = {};
    lineIndexes.set(line, cached);
  }
  const slot = fold ? 'folded' : 'exact';
  return (cached[slot] ??= normalise(line.text, fold));
}

/** Printable ASCII without whitespace runs is already normalised, and lower-casing keeps its length. */
const ALREADY_NORMAL = /^(?:[\x21-\x7e]| (?! ))*$/;
const WHITESPACE = /^\s+$/u;

function isAsciiWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * NFKC per cluster (a character with its combining marks, see scripts.ts), in the order the cluster is typed, so a
 * ligature expands in place and keeps its origin; case folding when asked, and whitespace runs collapsed to one space.
 */
function normalise(raw: string, fold: boolean): LineIndex {
  if (ALREADY_NORMAL.test(raw)) return { text: fold ? raw.toLowerCase() : raw };
  let text = '';
  const rawStart: number[] = [];
  const rawEnd: number[] = [];
  let position = 0;
  while (position < raw.length) {
    const start = position;
    const code = raw.codePointAt(position)!;
    position = clusterEnd(raw, start);
    const single = position - start === 1 && code < 0x80;
    let form = single ? raw[start]! : typedOrder(raw.slice(start, position)).normalize('NFKC');
    if (fold) form = foldCase(form);
    if (form === '') continue;
    if (single ? isAsciiWhitespace(code) : WHITESPACE.test(form)) {
      if (text.endsWith(' ')) {
        rawEnd[rawEnd.length - 1] = position;
        continue;
      }
      form = ' ';
    }
    for (let unit = 0; unit < form.length; unit++) {
      rawStart.push(start);
      rawEnd.push(position);
    }
    text += form;
  }
  return { text, rawStart, rawEnd };
}

/**
 * Full case folding as JavaScript can do it: upper then lower case maps ß to ss and final sigma to sigma,
 * which lower case alone does not.
 */
function foldCase(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.toUpperCase().toLowerCase();
}

/** The displayed box of raw line characters [from, to): the union of the boxes of the glyphs they come from. */
function boxOfRawRange(line: TextLine, from: number, to: number): Box {
  const { boxes } = line;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (let unit = from; unit < to; unit++) {
    const offset = unit * 4;
    left = Math.min(left, boxes[offset]!);
    top = Math.min(top, boxes[offset + 1]!);
    right = Math.max(right, boxes[offset]! + boxes[offset + 2]!);
    bottom = Math.max(bottom, boxes[offset + 1]! + boxes[offset + 3]!);
  }
  return { x: thousandths(left), y: thousandths(top), width: thousandths(right - left), height: thousandths(bottom - top) };
}

/** Boxes are held in single precision, good to a thousandth of a point on the largest page: no finer digit is real. */
const thousandths = (value: number): number => Math.round(value * 1000) / 1000;

/** The anchors:find answer, as the service gives it and `anchors find --local` prints it. */
export interface AnchorSearchResult {
  pages: PageInfo[];
  truncated: boolean;
  matches: AnchorMatch[];
}

const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** The anchors:find answer for the searches in a document's text. */
export function anchorSearchResult(text: PdfText, searches: readonly AnchorSearch[]): AnchorSearchResult {
  return anchorSearchAnswer(text, findAnchors(text, searches));
}

/**
 * The anchors:find answer for a document's matches (findAnchors, or searchPdf's): positions to the hundredth of a
 * point, finer than any placement needs, and stable across runs.
 */
export function anchorSearchAnswer(document: Pick<PdfText, 'pages' | 'truncated'>, found: readonly AnchorMatch[]): AnchorSearchResult {
  const matches = found.map((match) => ({
    key: match.key,
    page: match.page,
    x: hundredths(match.x),
    y: hundredths(match.y),
    width: hundredths(match.width),
    height: hundredths(match.height),
  }));
  return { pages: document.pages, truncated: document.truncated, matches };
}
