/**
 * A whole number as an option's value: decimal digits and nothing else. Number() alone would also take 1e2, 0x10,
 * 0b11, 12.0 and an empty text (0). A leading + or - is refused too: no option takes a signed number, and one spelling
 * per value keeps scripts plain.
 */
export function parseWholeNumber(text: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
    throw new Error(`expected a whole number ${range}, in plain digits (no sign, decimal point, exponent or 0x).`);
  }
  return value;
}
