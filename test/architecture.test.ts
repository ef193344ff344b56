import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/cli.js';

const require = createRequire(import.meta.url);
const config = require(join(repoRoot, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] };
/** The layers in the order the rules state them, top floor first. */
const ruledFolders = config.forbidden.flatMap((rule) => /^(.+)-imports-down$/.exec(rule.name)?.[1] ?? []);

describe('ARCHITECTURE.md and the layer rules', () => {
  it('every folder of src/ (and main.ts) has a layer rule, or is the emulator, which has its own', () => {
    const folders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? [entry.name] : []));
    expect(config.forbidden.map((rule) => rule.name)).toContain('emulator-stands-apart');
    expect(config.forbidden.map((rule) => rule.name)).toContain('no-circular');
    expect([...folders.filter((name) => name !== 'emulator'), 'main'].sort()).toEqual([...ruledFolders].sort());
  });

  it('the floors table of ARCHITECTURE.md lists the folders in the rules\' order', () => {
    const text = readFileSync(join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
    const rows = text.split('\n').filter((line) => /^\| (\d+|apart) \|/.test(line));
    const named = rows.flatMap((row) => [...row.split('|')[2]!.matchAll(/`([a-z-]+)(?:\/|\.ts)`/g)].map((match) => match[1]!));
    expect(named).toEqual([...ruledFolders, 'emulator']);
    expect(text.split('\n').length).toBeLessThan(150);
  });
});

describe('the test projects (vitest.config.ts)', () => {
  it('runs every unit test that replaces a module with vi.mock in a registry of its own', async () => {
    const { UNIT_TESTS_MOCKING_MODULES } = await import('../vitest.config.js');
    const unitTests = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.test.ts'));
    const mocking = unitTests.filter((path) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(repoRoot, 'src', path), 'utf8'))).map((path) => `src/${path}`);
    expect(mocking.length).toBeGreaterThan(0);
    expect([...UNIT_TESTS_MOCKING_MODULES].sort()).toEqual(mocking.sort());
  });
});
