/**
 * The legacy pdfjs build replaces Array.prototype.push, JSON.parse, JSON.stringify and Function.prototype.toString with
 * core-js versions although Node's own are correct for every use here. The replacements are several times slower and
 * would slow down the whole process (push is in every hot loop, JSON.parse in every emulator request), not only pdfjs:
 * about a quarter of the CPU time of reading 500 dense pages.
 */
const REPLACED = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [JSON, 'stringify'],
  [Function.prototype, 'toString'],
] as const;

/** Runs `load` (the imports of pdfjs's modules) and puts Node's own built-ins back when it ends. */
export async function withNativeBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const saved = REPLACED.map(([owner, name]) => [owner, name, Object.getOwnPropertyDescriptor(owner, name)!] as const);
  try {
    return await load();
  } finally {
    for (const [owner, name, descriptor] of saved) Object.defineProperty(owner, name, descriptor);
  }
}
