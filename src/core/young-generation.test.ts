import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The young generation's capacity after a loop that keeps most of what it makes (what makes V8 grow it), in a Node
 * of its own: V8's flags are the whole process's. `hold` calls holdYoungGeneration after the loop's first unit.
 */
function youngGenerationAfterLoop(hold: boolean): { first: number; last: number } {
  const module = transformSync(readFileSync(fileURLToPath(new URL('./young-generation.ts', import.meta.url)), 'utf8'), { loader: 'ts', format: 'cjs' }).code;
  const script = [
    'const module = { exports: {} };',
    `new Function('module', 'exports', ${JSON.stringify(module)})(module, module.exports);`,
    "const { getHeapSpaceStatistics } = require('node:v8');",
    "const capacity = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;",
    'const kept = [];',
    'const unit = () => { for (let index = 0; index < 20000; index++) kept.push({ index, text: "unit " + index }); };',
    'unit();',
    'const first = capacity();',
    `if (${hold}) module.exports.holdYoungGeneration();`,
    'for (let round = 0; round < 40; round++) unit();',
    'process.stdout.write(JSON.stringify({ first, last: capacity() }));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { first: number; last: number };
}

describe('holdYoungGeneration', () => {
  it("keeps V8's young generation at the size it had when called, where the same loop otherwise grows it", () => {
    const held = youngGenerationAfterLoop(true);
    expect(held.last).toBe(held.first);
    const grown = youngGenerationAfterLoop(false);
    expect(grown.last).toBeGreaterThan(grown.first);
  });
});
