/**
 * Script-specific spellings that a reader sees as one thing: the clusters anchor search normalises as a unit (a
 * letter with its combining marks, a syllable's conjoining jamo, a vowel drawn before its consonant with that
 * consonant), and the order of their characters as typed. NFKC alone does not do this: it composes what is in
 * logical order, and many files hold these characters in the order their glyphs are drawn.
 */

const COMBINING_MARK = /\p{M}/u;
const LETTER = /\p{L}/u;

/**
 * Vowel signs drawn before (left of) their consonant in Indic scripts, Sinhala, Myanmar and Khmer, typed after it:
 * Devanagari I, Bengali I, E, AI, Gurmukhi I, Gujarati I, Oriya E, AI, Tamil E, EE, AI, Malayalam E, EE, AI, Sinhala
 * E, EE, AI, Myanmar E, Khmer OE, YA, AI. A file that maps each glyph to its character, in drawing order, has them
 * first (Hindi कि read as "िक").
 */
const PRE_BASE_VOWEL = new Set([
  0x093f, 0x094e, 0x09bf, 0x09c7, 0x09c8, 0x0a3f, 0x0abf, 0x0b47, 0x0b48, 0x0bc6, 0x0bc7, 0x0bc8, 0x0d46, 0x0d47, 0x0d48, 0x0dd9, 0x0dda, 0x0ddb,
  0x1031, 0x17c1, 0x17c2, 0x17c3,
]);
/** Viramas (and Myanmar's, Khmer's COENG): the next consonant is part of the same syllable. */
const VIRAMA = new Set([0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d4d, 0x0dca, 0x1039, 0x17d2]);
/** Nuktas and Myanmar's medials: typed with the consonant, before a vowel sign. */
const CONSONANT_MARK = /[\u093C\u09BC\u0A3C\u0ABC\u0B3C\u103B-\u103E]/u;

const isMark = (code: number): boolean => code >= 0x300 && COMBINING_MARK.test(String.fromCodePoint(code));
const isLetter = (code: number): boolean => LETTER.test(String.fromCodePoint(code));
const width = (code: number): number => (code > 0xffff ? 2 : 1);

/** Hangul vowel and final jamo (and their extensions): they compose with the jamo before them into a syllable. */
const isTrailingJamo = (code: number): boolean => (code >= 0x1160 && code <= 0x11ff) || (code >= 0xd7b0 && code <= 0xd7ff);
const isJamo = (code: number): boolean => (code >= 0x1100 && code <= 0x11ff) || (code >= 0xa960 && code <= 0xa97f) || (code >= 0xd7b0 && code <= 0xd7ff) || (code >= 0xac00 && code <= 0xd7a3);

/** Where the consonant part starting at `position` ends: the consonant, its nukta or medials, conjuncts through viramas. */
function consonantEnd(raw: string, position: number): number {
  let end = position + width(raw.codePointAt(position)!);
  while (end < raw.length) {
    const code = raw.codePointAt(end)!;
    if (CONSONANT_MARK.test(String.fromCodePoint(code))) {
      end += width(code);
    } else if (VIRAMA.has(code) && end + 1 < raw.length && isLetter(raw.codePointAt(end + 1)!)) {
      end += 1 + width(raw.codePointAt(end + 1)!);
    } else {
      break;
    }
  }
  return end;
}

/**
 * Where the cluster of `raw` that starts at `start` ends. A letter takes its combining marks, a jamo the vowel and final
 * jamo after it, and a vowel sign drawn before its consonant (first, or after a space) takes the consonant part and
 * the marks after it. A vowel sign drawn before its consonant is typed right after a consonant part: after anything
 * else (white space, another vowel sign, a cluster that had one already) it starts the next cluster.
 */
export function clusterEnd(raw: string, start: number): number {
  const code = raw.codePointAt(start)!;
  const preBase = PRE_BASE_VOWEL.has(code);
  let position = start + width(code);
  if (preBase && position < raw.length && isLetter(raw.codePointAt(position)!)) position = consonantEnd(raw, position);
  else if (isJamo(code)) while (position < raw.length && isTrailingJamo(raw.charCodeAt(position))) position++;
  let previous = raw.codePointAt(position - 1)!;
  while (position < raw.length) {
    const next = raw.codePointAt(position)!;
    if (!isMark(next)) break;
    if (PRE_BASE_VOWEL.has(next) && (preBase || !(isLetter(previous) || CONSONANT_MARK.test(String.fromCodePoint(previous))))) break;
    previous = next;
    position += width(next);
  }
  return position;
}

/** NIKHAHIT (Lao NIGGAHITA) drawn before the tone marks of its letter, and SARA AA drawn before the NIKHAHIT. */
const NIKHAHIT_BEFORE_TONE = /([\u0E4D\u0ECD])([\u0E48-\u0E4B\u0EC8-\u0ECB]+)/gu;
const SARA_AA_BEFORE_NIKHAHIT = /([\u0E32\u0EB2])([\u0E4D\u0ECD])/gu;

/**
 * A cluster (from clusterEnd) in the order it is typed, for NFKC to compose. A vowel sign drawn before its consonant
 * goes after the consonant part (Bengali কো drawn as "েকা" reads "কো"). Thai and Lao SARA AM is NIKHAHIT + SARA AA to
 * NFKC, after the letter's tone mark (น้ำ: NO NU, MAI THO, NIKHAHIT, SARA AA); files draw the NIKHAHIT before the tone
 * mark, or after the SARA AA, as the glyphs stack, and a reader sees one word.
 */
export function typedOrder(cluster: string): string {
  const code = cluster.codePointAt(0)!;
  if (PRE_BASE_VOWEL.has(code) && cluster.length > 1) {
    const vowel = String.fromCodePoint(code);
    const consonant = consonantEnd(cluster, vowel.length);
    return cluster.slice(vowel.length, consonant) + vowel + cluster.slice(consonant);
  }
  if (code >= 0x0e00 && code <= 0x0eff) return cluster.replace(NIKHAHIT_BEFORE_TONE, '$2$1').replace(SARA_AA_BEFORE_NIKHAHIT, '$2$1');
  return cluster;
}
