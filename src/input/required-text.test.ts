import { describe, expect, it } from 'vitest';
import { nonBlank } from './required-text.js';

describe('nonBlank', () => {
  it('refuses an empty or whitespace-only text and keeps any other as given', () => {
    const title = nonBlank('title');
    for (const blank of ['', '   ', '\t\n']) expect(() => title(blank)).toThrow('the title is blank');
    expect(title(' NDA ')).toBe(' NDA ');
  });
});
