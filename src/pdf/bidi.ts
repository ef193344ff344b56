/**
 * Right-to-left text back in logical order. A PDF draws glyphs where they appear, so a line read left to right is in
 * visual order; Hebrew and Arabic are read (and searched) in logical order. Each glyph's characters stay together
 * (a ligature's own Unicode mapping is already logical) and keep their box; only the order of glyphs changes.
 *
 * A reduced form of the Unicode Bidirectional Algorithm, enough for text already laid out: strong types from the
 * script, numbers keep their left-to-right order, neutrals take the direction of the strong text around them, and
 * the reordering rule L2 (which is its own inverse for a given set of levels) turns visual order into logical order.
 * Rule L4 (mirroring) is not undone: a bracket in right-to-left text is drawn with the mirrored glyph, and files map
 * that glyph to the character it stands for (Microsoft Word's "(ב)" is drawn, left to right, as the shapes "(ב)" mapped
 * to ")", "ב", "("), so visual order reversed is already the text.
 */

type BidiClass = 'L' | 'R' | 'N' | 'EN';

/** Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and their presentation forms. */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\uD802[\uDC00-\uDFFF]|\uD803[\uDC00-\uDE7F]|\uD83B[\uDE00-\uDEFF]/u;
const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{N}/u;
/** A line is laid out right to left when at least this share of its strong characters are right-to-left. */
const RIGHT_TO_LEFT_SHARE = 0.3;

function classOf(text: string): BidiClass {
  for (const char of text) {
    if (RIGHT_TO_LEFT.test(char)) return 'R';
    if (LETTER.test(char)) return 'L';
    if (DIGIT.test(char)) return 'EN';
  }
  return 'N';
}

/** Whether the text may hold a right-to-left character: asked for every glyph, so answered from the code units. */
function mayBeRightToLeft(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 0x0590 && code <= 0x08ff) || (code >= 0xfb1d && code <= 0xfeff) || code === 0xd802 || code === 0xd803 || code === 0xd83b) return true;
  }
  return false;
}

/** Whether the text holds a right-to-left character. */
export function containsRightToLeft(text: string): boolean {
  return mayBeRightToLeft(text) && RIGHT_TO_LEFT.test(text);
}

/** Items of a visually ordered line in logical order; the same array when it holds no right-to-left text. */
export function toLogicalOrder<T extends { text: string }>(items: readonly T[]): readonly T[] {
  if (!items.some((item) => containsRightToLeft(item.text))) return items;
  const classes = items.map((item) => classOf(item.text));
  const rightToLeft = classes.filter((type) => type === 'R').length;
  const leftToRight = classes.filter((type) => type === 'L').length;
  const base = rightToLeft >= RIGHT_TO_LEFT_SHARE * (rightToLeft + leftToRight) ? 1 : 0;
  const levels = new Array<number>(items.length);
  // Numbers read left to right; next to right-to-left text they count as right-to-left for the neutrals around them.
  const strong = classes.map((type) => (type === 'EN' ? (base === 1 ? 'R' : undefined) : type === 'N' ? undefined : type));
  classes.forEach((type, index) => {
    if (type === 'R') levels[index] = 1;
    else if (type === 'L') levels[index] = base === 1 ? 2 : 0;
  });
  for (let index = 0; index < items.length; index++) {
    if (levels[index] !== undefined) continue;
    let end = index;
    while (end < items.length && levels[end] === undefined) end++;
    // A run of neutrals and numbers: numbers stay left to right, neutrals follow the strong text on both sides.
    const before = nearestStrong(strong, index - 1, -1);
    const after = nearestStrong(strong, end, 1);
    const around = before !== undefined && before === after ? before : base === 1 ? 'R' : 'L';
    const context = before === 'R' || after === 'R' || base === 1 ? 'R' : 'L';
    for (let position = index; position < end; position++) {
      if (classes[position] === 'EN') levels[position] = context === 'R' ? 2 : 0;
      else levels[position] = around === 'R' ? 1 : base === 1 ? 2 : 0;
    }
    index = end - 1;
  }
  return reorder(items, levels);
}

function nearestStrong(strong: readonly (BidiClass | undefined)[], from: number, step: 1 | -1): BidiClass | undefined {
  for (let index = from; index >= 0 && index < strong.length; index += step) {
    if (strong[index] !== undefined) return strong[index];
  }
  return undefined;
}

/** Rule L2: from the highest level down to 1, reverse every run at that level or higher. */
function reorder<T>(items: readonly T[], levels: readonly number[]): T[] {
  const order = items.map((_, index) => index);
  const levelOf = [...levels];
  const highest = Math.max(...levels);
  for (let level = highest; level >= 1; level--) {
    for (let index = 0; index < order.length; index++) {
      if (levelOf[index]! < level) continue;
      let end = index;
      while (end < order.length && levelOf[end]! >= level) end++;
      reverse(order, index, end);
      reverse(levelOf, index, end);
      index = end;
    }
  }
  return order.map((index) => items[index]!);
}

function reverse(values: unknown[], from: number, to: number): void {
  for (let left = from, right = to - 1; left < right; left++, right--) {
    [values[left], values[right]] = [values[right], values[left]];
  }
}
