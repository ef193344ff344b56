/**
 * Where every glyph of a page is drawn, from the page's pdfjs operator list: the text state (font, size, character
 * and word spacing, horizontal scaling, rise, text and line matrices) is run the way PDF §9.4 and pdfjs's canvas
 * renderer run it, with each glyph's own advance width from the font, so a glyph's position is exact rather than
 * a share of its run. Positions are displayed top-left page coordinates (the viewport transform applied).
 */
import type { ReadingDirection } from './page-text.js';

export type Matrix = [number, number, number, number, number, number];

/** Reading directions as numbers in a glyph table: even ones run horizontally. */
export const RIGHT = 0;
export const DOWN = 1;
export const LEFT = 2;
export const UP = 3;
export const DIRECTION_NAMES: readonly ReadingDirection[] = ['right', 'down', 'left', 'up'];

/** Character and word spacing up to this many em spaces letters out; wider is a gap between them. */
const SPACING_MAX_EM = 1;

// Columns of a glyph table row, in points as displayed. The font size:
export const SIZE = 0;
/** Bounding box of the glyph: its advance width (spacing excluded) from descent to ascent. */
export const X = 1;
export const Y = 2;
export const WIDTH = 3;
export const HEIGHT = 4;
/** Along the reading direction: where the glyph's origin is and where the next glyph would start (spacing included). */
export const START = 5;
export const END = 6;
/** Across the reading direction: where the baseline is. */
export const BASELINE = 7;
const COLUMNS = 8;

/**
 * The drawn glyphs of a page, a row each: what the glyph stands for (the font's Unicode mapping, possibly several
 * characters for a ligature, or ''), its reading direction, and its numbers at numbers[row * 8 + column]. Rows rather
 * than an object per glyph: a dense page draws 6,600 glyphs, and the objects cost the garbage collector more than
 * the reading. One table is refilled page after page.
 */
export class GlyphTable {
  count = 0;
  texts: string[] = [];
  directions = new Uint8Array(4096);
  numbers = new Float64Array(4096 * COLUMNS);

  clear(): void {
    this.count = 0;
    this.texts.length = 0;
  }

  /** Appends a row and gives its index; `numbers` is then read afresh (it may have grown). */
  add(text: string, direction: number, size: number, x: number, y: number, width: number, height: number, start: number, end: number, baseline: number): number {
    const row = this.count++;
    if (row === this.directions.length) {
      const directions = new Uint8Array(row * 2);
      directions.set(this.directions);
      this.directions = directions;
      const numbers = new Float64Array(row * 2 * COLUMNS);
      numbers.set(this.numbers);
      this.numbers = numbers;
    }
    this.texts[row] = text;
    this.directions[row] = direction;
    const offset = row * COLUMNS;
    const numbers = this.numbers;
    numbers[offset + SIZE] = size;
    numbers[offset + X] = x;
    numbers[offset + Y] = y;
    numbers[offset + WIDTH] = width;
    numbers[offset + HEIGHT] = height;
    numbers[offset + START] = start;
    numbers[offset + END] = end;
    numbers[offset + BASELINE] = baseline;
    return row;
  }

  get(row: number, column: number): number {
    return this.numbers[row * COLUMNS + column]!;
  }

  set(row: number, column: number, value: number): void {
    this.numbers[row * COLUMNS + column] = value;
  }
}

/** The few things the text state needs from a font, as pdfjs exports them. */
export interface FontMetrics {
  fontMatrix?: number[];
  ascent?: number;
  descent?: number;
  vertical?: boolean;
  defaultVMetrics?: number[];
  bbox?: number[];
  isType3Font?: boolean;
}

interface PdfjsGlyph {
  unicode: string;
  width: number;
  isSpace: boolean;
  originalCharCode?: number;
  vmetric?: number[];
}

/** The operator ids pdfjs gives the operations that move text (pdfjs's OPS table). */
export type TextOps = Record<
  | 'save'
  | 'restore'
  | 'transform'
  | 'beginText'
  | 'setCharSpacing'
  | 'setWordSpacing'
  | 'setHScale'
  | 'setLeading'
  | 'setFont'
  | 'setTextRise'
  | 'moveText'
  | 'setLeadingMoveText'
  | 'setTextMatrix'
  | 'nextLine'
  | 'showText'
  | 'showSpacedText'
  | 'setGState'
  | 'paintFormXObjectBegin'
  | 'paintFormXObjectEnd'
  | 'beginAnnotation'
  | 'endAnnotation'
  | 'beginMarkedContent'
  | 'beginMarkedContentProps'
  | 'endMarkedContent',
  number
>;

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** What pdfjs assumes for a font that reports no ascent. */
const DEFAULT_ASCENT = 0.8;

/** m1 × m2 in PDF's row-vector convention: m2 applied first, then m1 (pdfjs's Util.transform). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

interface GraphicsState {
  ctm: Matrix;
  font: FontMetrics | undefined;
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
  /** Horizontal scaling as a factor (Tz / 100). */
  hScale: number;
  leading: number;
  rise: number;
}

function initialState(ctm: Matrix): GraphicsState {
  return { ctm, font: undefined, fontSize: 0, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0 };
}

/** Ascent and descent in em, from the font's metrics or (Type3) its bounding box through its font matrix. */
export function fontExtent(font: FontMetrics | undefined): { ascent: number; descent: number } {
  if (font?.isType3Font && font.bbox && font.fontMatrix) {
    const top = font.bbox[3]! * font.fontMatrix[3]!;
    const bottom = font.bbox[1]! * font.fontMatrix[3]!;
    if (top > bottom && top - bottom < 4) return { ascent: top, descent: Math.min(0, bottom) };
  }
  const reportedDescent = font?.descent !== undefined && font.descent < 0 ? font.descent : undefined;
  let ascent = font?.ascent !== undefined && font.ascent > 0 && font.ascent < 4 ? font.ascent : reportedDescent !== undefined ? 1 + reportedDescent : DEFAULT_ASCENT;
  let descent = reportedDescent ?? ascent - 1;
  // No glyph rises above the font's bounding box: some fonts report a line height (hhea) as their ascent, and the box of
  // a subset holding only low glyphs (digits, lower case) is lower still. Below a quarter em it is taken as broken.
  const scale = font?.fontMatrix?.[3] ?? 0.001;
  const [, bottom, , top] = (font?.bbox ?? []).map((value) => value * scale);
  if (top !== undefined && bottom !== undefined && top > 0.25 && top < 2) {
    ascent = Math.min(ascent, top);
    if (bottom < 0) descent = Math.max(descent, bottom);
  }
  return { ascent, descent };
}

function directionOf(dx: number, dy: number): number {
  return Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? RIGHT : LEFT) : dy >= 0 ? DOWN : UP;
}

/** A point's coordinate along the reading direction, growing in reading order. */
export function along(direction: number, x: number, y: number): number {
  switch (direction) {
    case RIGHT:
      return x;
    case LEFT:
      return -x;
    case DOWN:
      return y;
    default:
      return -y;
  }
}

/**
 * Runs the operator list's text operations and fills `glyphs` with each glyph drawn on the visible part of the page,
 * in drawing order. `viewport` maps PDF user space to displayed page coordinates; `fontOf` resolves pdfjs's loaded
 * font names; `layerShown` says whether an optional content group (a layer, as pdfjs gives it) is shown: text in a
 * layer that is off (a draft watermark, a header for print only) is not drawn, and viewers and poppler leave it out.
 */
export function pageGlyphs(
  ops: TextOps,
  operatorList: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> },
  viewport: Matrix,
  page: { width: number; height: number },
  fontOf: (loadedName: string) => FontMetrics | undefined,
  glyphs: GlyphTable,
  layerShown: (group: unknown) => boolean = () => true,
): void {
  glyphs.clear();
  // Marked content open at this point, each shown or not (only an /OC one can be off), and how many are off.
  const markedShown: boolean[] = [];
  let hiddenLayers = 0;
  const stack: GraphicsState[] = [];
  let state = initialState(IDENTITY);
  let textMatrix: Matrix = IDENTITY;
  let lineMatrix: Matrix = IDENTITY;

  const moveText = (tx: number, ty: number): void => {
    lineMatrix = multiply(lineMatrix, [1, 0, 0, 1, tx, ty]);
    textMatrix = lineMatrix;
  };
  const setFont = (name: string, size: number): void => {
    state.font = fontOf(name);
    state.fontSize = size;
  };

  const show = (items: readonly (PdfjsGlyph | number)[]): void => {
    const font = state.font;
    const { fontSize, charSpacing, wordSpacing, hScale, rise } = state;
    if (!font || fontSize === 0) return;
    const toPage = multiply(viewport, multiply(state.ctm, textMatrix));
    const vertical = font.vertical === true;
    const widthScale = (font.fontMatrix?.[0] ?? 0.001) * fontSize;
    const { ascent, descent } = fontExtent(font);
    // Text space: the advance direction, and the glyph's "up" (ascent) direction scaled by the font size.
    const [a, b, c, d] = toPage;
    const advanceX = vertical ? -c : a;
    const advanceY = vertical ? -d : b;
    const direction = directionOf(advanceX, advanceY);
    const size = Math.abs(fontSize) * Math.hypot(c, d);
    let position = 0;
    // The row of the glyph drawn last in this run, while no other has followed it, and where its own width ends.
    let previousRow = -1;
    let previousInkEnd = 0;
    const alongPage = (u: number, v: number): number => along(direction, a * u + c * v + toPage[4], b * u + d * v + toPage[5]);
    for (const item of items) {
      if (typeof item === 'number') {
        // TJ adjustments are thousandths of the font size, against the writing direction.
        position -= (item / 1000) * fontSize * (vertical ? 1 : hScale);
        if (item > 0 && previousRow !== -1) {
          // A move back takes back the spacing the glyph before was given (never its own width: glyphs drawn right
          // to left move back over it): tables justify a cell's digits with a wide character spacing (Tc) that each
          // TJ takes back. The next glyph is expected where the pen now is.
          const pulledBack = vertical ? alongPage(0, -position) : alongPage(position, rise);
          glyphs.set(previousRow, END, Math.max(previousInkEnd, Math.min(glyphs.get(previousRow, END), pulledBack)));
        }
        continue;
      }
      previousRow = -1;
      const spacing = charSpacing + (item.isSpace ? wordSpacing : 0);
      let glyphWidth: number;
      let advance: number;
      // The glyph's rectangle in text space: [left, bottom] to [right, top], before the text matrix.
      let left: number, right: number, bottom: number, top: number;
      if (!vertical) {
        glyphWidth = item.width * widthScale * hScale;
        advance = (item.width * widthScale + spacing) * hScale;
        left = position;
        right = position + glyphWidth;
        bottom = rise + descent * fontSize;
        top = rise + ascent * fontSize;
      } else {
        const vmetric = item.vmetric ?? font.defaultVMetrics;
        const w1 = vmetric ? -vmetric[0]! : item.width;
        glyphWidth = w1 * widthScale;
        advance = w1 * widthScale - spacing;
        const half = (vmetric ? vmetric[1]! : item.width * 0.5) * widthScale;
        left = -half;
        right = -half + item.width * widthScale;
        top = -position;
        bottom = -position - glyphWidth;
      }
      const e = toPage[4];
      const f = toPage[5];
      // The rectangle's corners through the text-to-page matrix; its bounding box is the glyph's displayed box.
      const x1 = a * left + c * bottom + e;
      const x2 = a * right + c * bottom + e;
      const x3 = a * left + c * top + e;
      const x4 = a * right + c * top + e;
      const y1 = b * left + d * bottom + f;
      const y2 = b * right + d * bottom + f;
      const y3 = b * left + d * top + f;
      const y4 = b * right + d * top + f;
      const minX = Math.min(x1, x2, x3, x4);
      const maxX = Math.max(x1, x2, x3, x4);
      const minY = Math.min(y1, y2, y3, y4);
      const maxY = Math.max(y1, y2, y3, y4);
      const originU = vertical ? 0 : position;
      const originV = vertical ? -position : rise;
      // Where the next glyph is expected: spacing wider than an em is no tracking but a gap (a table's cells drawn
      // in one run, set apart by character spacing; room left for an exponent drawn later), and the glyph ends where
      // its ink does.
      const spacingAlong = advance - glyphWidth;
      const expected = spacingAlong > SPACING_MAX_EM * Math.abs(fontSize) * (vertical ? 1 : hScale) ? glyphWidth : advance;
      const endU = vertical ? 0 : position + expected;
      const endV = vertical ? -position - expected : rise;
      const originX = a * originU + c * originV + e;
      const originY = b * originU + d * originV + f;
      position += advance;
      if (hiddenLayers > 0 || maxX < 0 || minX > page.width || maxY < 0 || minY > page.height) continue;
      const endX = a * endU + c * endV + e;
      const endY = b * endU + d * endV + f;
      previousInkEnd = vertical ? alongPage(0, -position + advance - glyphWidth) : alongPage(position - advance + glyphWidth, rise);
      previousRow = glyphs.add(
        glyphText(item),
        direction,
        size,
        minX,
        minY,
        maxX - minX,
        maxY - minY,
        along(direction, originX, originY),
        along(direction, endX, endY),
        direction === RIGHT || direction === LEFT ? originY : originX,
      );
    }
    textMatrix = vertical ? multiply(textMatrix, [1, 0, 0, 1, 0, -position]) : multiply(textMatrix, [1, 0, 0, 1, position, 0]);
  };

  // Operations setting one number of the text state (Tz is a percentage).
  const numberSetters = new Map<number, (value: number) => void>([
    [ops.setCharSpacing, (value) => (state.charSpacing = value)],
    [ops.setWordSpacing, (value) => (state.wordSpacing = value)],
    [ops.setHScale, (value) => (state.hScale = value / 100)],
    [ops.setLeading, (value) => (state.leading = value)],
    [ops.setTextRise, (value) => (state.rise = value)],
  ]);
  const { fnArray, argsArray } = operatorList;
  for (let index = 0; index < fnArray.length; index++) {
    const fn = fnArray[index]!;
    const args = argsArray[index] as unknown[] | null;
    const setNumber = numberSetters.get(fn);
    if (setNumber) {
      setNumber(args![0] as number);
      continue;
    }
    switch (fn) {
      case ops.save:
        stack.push({ ...state });
        break;
      case ops.restore:
        state = stack.pop() ?? state;
        break;
      case ops.transform:
        state.ctm = multiply(state.ctm, args as Matrix);
        break;
      case ops.beginText:
        textMatrix = lineMatrix = IDENTITY;
        break;
      case ops.setFont:
        setFont(args![0] as string, args![1] as number);
        break;
      case ops.moveText:
        moveText(args![0] as number, args![1] as number);
        break;
      case ops.setLeadingMoveText:
        state.leading = -(args![1] as number);
        moveText(args![0] as number, args![1] as number);
        break;
      case ops.nextLine:
        moveText(0, -state.leading);
        break;
      case ops.setTextMatrix:
        textMatrix = lineMatrix = matrixOf(args![0]);
        break;
      case ops.showText:
      case ops.showSpacedText:
        show(args![0] as (PdfjsGlyph | number)[]);
        break;
      case ops.setGState:
        for (const [key, value] of args![0] as [string, unknown][]) {
          if (key === 'Font') setFont((value as [string, number])[0], (value as [string, number])[1]);
        }
        break;
      case ops.paintFormXObjectBegin:
        stack.push({ ...state });
        if (args?.[0]) state.ctm = multiply(state.ctm, matrixOf(args[0]));
        break;
      case ops.beginAnnotation:
        // An appearance stream is drawn from user space through its own placement, with a fresh text state.
        stack.push(state);
        state = initialState(multiply(matrixOf(args![2]), matrixOf(args![3])));
        textMatrix = lineMatrix = IDENTITY;
        break;
      case ops.beginMarkedContent:
        markedShown.push(true);
        break;
      case ops.beginMarkedContentProps: {
        const shown = args![0] !== 'OC' || layerShown(args![1]);
        markedShown.push(shown);
        if (!shown) hiddenLayers++;
        break;
      }
      case ops.endMarkedContent:
        if (markedShown.pop() === false) hiddenLayers--;
        break;
      case ops.paintFormXObjectEnd:
      case ops.endAnnotation:
        state = stack.pop() ?? state;
        break;
    }
  }
}

/** A matrix operand as pdfjs gives it (an array or a typed array): Array.from would take the slow iterator path. */
function matrixOf(operand: unknown): Matrix {
  const m = operand as ArrayLike<number>;
  return [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
}

const PRIVATE_USE = /^[\uE000-\uF8FF]+$/u;
/** Symbol fonts' space and no-break space, moved to private use as all their characters are (U+F000 + the code). */
const SYMBOL_FONT_SPACES = new Set(['\uF020', '\uF0A0']);

/**
 * A glyph's characters as they count as text: a private-use code point drawn from the space character code (how
 * symbol fonts encode their space), or a symbol font's own space whatever its code (a two-byte font's), is a space.
 */
function glyphText(glyph: PdfjsGlyph): string {
  const { unicode } = glyph;
  // Private use starts at U+E000: a plain space (most of them) is answered without the pattern.
  if (unicode === '') return glyph.isSpace || glyph.originalCharCode === 0x20 ? ' ' : '';
  if (unicode.charCodeAt(0) < 0xe000) return unicode;
  if (SYMBOL_FONT_SPACES.has(unicode)) return ' ';
  if ((glyph.isSpace || glyph.originalCharCode === 0x20) && PRIVATE_USE.test(unicode)) return ' ';
  return unicode;
}
