import { describe, expect, it } from 'vitest';
import { simplePdf } from '../../test/support/pdfs.js';
import { withNativeBuiltins } from './native-builtins.js';
import { loadPdfText } from './text.js';

const builtins = (): unknown[] => [Array.prototype.push, JSON.parse, JSON.stringify, Function.prototype.toString];

describe('withNativeBuiltins', () => {
  it('puts back the built-ins a loader replaced, and answers what it loaded', async () => {
    const native = builtins();
    const loaded = await withNativeBuiltins(async () => {
      Array.prototype.push = function push(this: unknown[], ...items: unknown[]) {
        return Array.prototype.splice.call(this, this.length, 0, ...items).length;
      };
      JSON.parse = () => 'replaced';
      JSON.stringify = () => 'replaced';
      return 'module';
    });
    expect(loaded).toBe('module');
    expect(builtins()).toEqual(native);
  });

  it('also when the loader fails', async () => {
    const native = builtins();
    await expect(
      withNativeBuiltins(async () => {
        JSON.parse = () => 'replaced';
        throw new Error('import failed');
      }),
    ).rejects.toThrow('import failed');
    expect(builtins()).toEqual(native);
  });

  it('pdfjs loaded and a PDF read: Array push and JSON are still Node\'s own', async () => {
    const native = builtins();
    const text = await loadPdfText(await simplePdf({ pages: [['after pdfjs']] }));
    expect(text.pageTexts[0]!.lines[0]!.text).toBe('after pdfjs');
    expect(builtins()).toEqual(native);
  });
});
