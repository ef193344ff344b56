// The "Key safety" tables of docs/security.md (linked from the README) name, for each promise, the tests that hold it.
// A renamed or deleted test would leave a promise that nothing proves: every file named must exist and hold every test
// name given for it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const page = readFileSync(join(root, 'docs', 'security.md'), 'utf8');
const section = page.slice(page.indexOf('\n## Key safety\n'));

/** Markdown escapes in a table cell (`\<`, `\|`, `` \` ``) stand for the characters themselves. */
const unescape = (text: string) => text.replace(/\\([<>|`*_])/g, '$1');

interface Proof {
  guarantee: string;
  file: string;
  names: string[];
}

function proofs(): Proof[] {
  const found: Proof[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| guarantee ')) continue;
    const cells = line.slice(2, -2).split(/ \| (?=`)/);
    const guarantee = cells[0]!;
    for (const part of cells.slice(1).join(' | ').split(/; (?=`)/)) {
      const match = /^`([^`]+)`: (.*)$/.exec(part);
      if (!match) throw new Error(`docs/security.md: cannot read the proof "${part}" of "${guarantee}"`);
      // "(and the five cases beside it)" points at the cases next to the one named.
      const names = match[2]!.split('; ').map((name) => unescape(name.replace(/ \(and [^)]*beside it\)$/, '')));
      found.push({ guarantee, file: match[1]!, names });
    }
  }
  return found;
}

describe('docs/security.md key-safety tables', () => {
  it('name at least one test for every promise', () => {
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| guarantee '));
    expect(rows.length).toBeGreaterThan(40);
    for (const row of rows) expect(row, row).toMatch(/\| `(test|src)\/[^`]+\.test\.ts`: /);
  });

  it.each(proofs().map((proof) => [proof.file, proof] as const))('%s holds the tests named for it', (_file, proof) => {
    const path = join(root, proof.file);
    expect(existsSync(path), `${proof.file}, named for "${proof.guarantee}"`).toBe(true);
    const source = readFileSync(path, 'utf8');
    for (const name of proof.names) expect(source.includes(name), `${proof.file} has no test "${name}" (named for "${proof.guarantee}")`).toBe(true);
  });
});
