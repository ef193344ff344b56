import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDefaultSearchPlaces } from 'cosmiconfig/dist/defaults.js';
import { describe, expect, it } from 'vitest';
import { findProjectConfigFile, loadProjectConfig } from './project.js';
import { trustCommand, trustState, type TrustedProjectConfig } from './trust.js';

const key = 'ab_test_AAAAAAAAAAAAAAAA1234';

function project(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'esign-project-')));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

async function trustOf(dir: string): Promise<TrustedProjectConfig[]> {
  const file = (await findProjectConfigFile(dir))!;
  return [{ path: file.realpath, sha256: file.sha256, trustedAt: new Date().toISOString() }];
}

/** A program that, if it ever runs, leaves a marker file next to itself. */
function markerProgram(marker: string, module: 'cjs' | 'esm'): string {
  const write = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
  return module === 'cjs' ? `${write};\nmodule.exports = { profile: 'acme' };\n` : `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { profile: 'acme' };\n`;
}

describe('project config (cosmiconfig search places, module name esign)', () => {
  it('is found from the working directory, with its trust state', async () => {
    const dir = project({ '.esignrc.yaml': 'profile: acme\nsandboxBaseUrl: https://sandbox.example\n' });
    const loaded = await loadProjectConfig(dir, async () => []);
    expect(loaded).toEqual({ filepath: join(dir, '.esignrc.yaml'), trust: 'untrusted', config: { profile: 'acme', sandboxBaseUrl: 'https://sandbox.example' } });
    expect((await loadProjectConfig(dir, async () => await trustOf(dir)))?.trust).toBe('trusted');
  });

  it('is looked for at each of cosmiconfig’s search places, in its order', async () => {
    const places = getDefaultSearchPlaces('esign');
    const dir = project(Object.fromEntries(places.map((place) => [place, place === 'package.json' ? '{"esign":{}}' : 'profile: acme\n'])));
    const found: string[] = [];
    for (const place of places) {
      found.push((await findProjectConfigFile(dir))!.filepath);
      rmSync(join(dir, place));
    }
    expect(found).toEqual(places.map((place) => join(dir, place)));
    expect(await findProjectConfigFile(dir)).toBeUndefined();
  });

  it('follows cosmiconfig’s order, skipping empty files and a package.json without an esign property', async () => {
    const dir = project({ 'package.json': '{"name":"x"}', '.esignrc': '  \n', '.esignrc.json': '{"profile":"json"}', '.config/esignrc.yaml': 'profile: later\n' });
    expect((await loadProjectConfig(dir, async () => []))?.config).toEqual({ profile: 'json' });
    const withPackage = project({ 'package.json': '{"name":"x","esign":{"profile":"pkg"}}', '.esignrc.json': '{"profile":"json"}' });
    expect((await loadProjectConfig(withPackage, async () => []))?.config).toEqual({ profile: 'pkg' });
    expect(await loadProjectConfig(project({}), async () => [])).toBeUndefined();
  });

  it('records trust under the real path and withdraws it when the content changes', async () => {
    const dir = project({ '.esignrc.yaml': 'profile: acme\n' });
    const trusted = await trustOf(dir);
    const linked = project({});
    symlinkSync(join(dir, '.esignrc.yaml'), join(linked, '.esignrc.yaml'));
    expect((await loadProjectConfig(linked, async () => trusted))?.trust).toBe('trusted');
    writeFileSync(join(dir, '.esignrc.yaml'), 'profile: acme\nsandboxBaseUrl: https://elsewhere.example\n');
    expect((await loadProjectConfig(dir, async () => trusted))?.trust).toBe('changed');
    expect(trustState({ realpath: '/other', sha256: trusted[0]!.sha256 }, trusted)).toBe('untrusted');
  });

  it('never runs a program config (.js, .cjs, .mjs, .ts, .config/esignrc.js) that is not trusted', async () => {
    const cases: Array<[string, 'cjs' | 'esm']> = [
      ['esign.config.js', 'cjs'],
      ['.esignrc.cjs', 'cjs'],
      ['.esignrc.mjs', 'esm'],
      ['esign.config.ts', 'esm'],
      ['.config/esignrc.js', 'cjs'],
    ];
    for (const [name, module] of cases) {
      const dir = project({});
      const marker = join(dir, 'ran.txt');
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), markerProgram(marker, module));
      await expect(loadProjectConfig(dir, async () => []), name).rejects.toMatchObject({
        code: 'PROJECT_CONFIG_UNTRUSTED',
        message: expect.stringContaining(`${join(dir, name)} is a program: loading it would run its code`),
        hint: expect.stringContaining(trustCommand(join(dir, name))),
      });
      expect(existsSync(marker), name).toBe(false);
    }
  });

  it('runs a trusted program config, and refuses it again once changed', async () => {
    const dir = project({});
    const marker = join(dir, 'ran.txt');
    writeFileSync(join(dir, 'esign.config.cjs'), markerProgram(marker, 'cjs'));
    const trusted = await trustOf(dir);
    expect((await loadProjectConfig(dir, async () => trusted))?.config).toEqual({ profile: 'acme' });
    expect(existsSync(marker)).toBe(true);
    writeFileSync(join(dir, 'esign.config.cjs'), `${markerProgram(`${marker}.2`, 'cjs')}// edited\n`);
    await expect(loadProjectConfig(dir, async () => trusted)).rejects.toThrow(/changed since you trusted it/);
    expect(existsSync(`${marker}.2`)).toBe(false);
  });

  it('never runs a trusted program config that loads a module of the project, which could change without a new trust', async () => {
    const dir = project({ 'helper.mjs': `export default () => 'acme';\n` });
    const marker = join(dir, 'ran.txt');
    writeFileSync(join(dir, 'esign.config.mjs'), `import h from './helper.mjs';\n${markerProgram(marker, 'esm').replace("{ profile: 'acme' }", '{ profile: h() }')}`);
    const trusted = await trustOf(dir);
    const error = await loadProjectConfig(dir, async () => trusted).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('PROJECT_CONFIG_NOT_SELF_CONTAINED');
    expect((error as Error).message).toContain('"./helper.mjs"');
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    ["import h from './helper.mjs';", ['./helper.mjs']],
    ["import { a } from \"../shared/a.js\"; export * from '/etc/x.mjs';", ['../shared/a.js', '/etc/x.mjs']],
    ["const m = await import(`./${name}.mjs`);", ['import(`./${name}.mjs`)']],
    ["const m = require(path.join(__dirname, 'h.cjs'));", ["require(path.join(__dirname, 'h.cjs')"]],
    ["import 'file:///tmp/x.mjs';", ['file:///tmp/x.mjs']],
    ["import { readFileSync } from 'node:fs'; import yaml from 'yaml'; const os = require('os'); await import('zod');", []],
  ] as const)('a code config may load only built-ins and packages by literal name: %s', async (text, uncovered) => {
    const { uncoveredImports } = await import('./project.js');
    expect(uncoveredImports(text)).toEqual(uncovered);
  });

  it('does not follow $import, which could pull in a program', async () => {
    const dir = project({ '.esignrc.yaml': '$import: ./evil.cjs\nprofile: acme\n' });
    const marker = join(dir, 'ran.txt');
    writeFileSync(join(dir, 'evil.cjs'), markerProgram(marker, 'cjs'));
    await expect(loadProjectConfig(dir, async () => [])).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(existsSync(marker)).toBe(false);
  });

  it('does not read cosmiconfig’s meta config (.config/config.js), which would run code', async () => {
    const dir = project({ '.esignrc.yaml': 'profile: acme\n' });
    const marker = join(dir, 'ran.txt');
    mkdirSync(join(dir, '.config'));
    writeFileSync(join(dir, '.config', 'config.cjs'), markerProgram(marker, 'cjs'));
    writeFileSync(join(dir, '.config', 'config.js'), markerProgram(marker, 'cjs'));
    expect((await loadProjectConfig(dir, async () => []))?.config).toEqual({ profile: 'acme' });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses key-shaped text anywhere in the raw file, comments included, naming the file and line', async () => {
    const cases: Record<string, string> = {
      '.esignrc.yaml': `profile: acme\n# old key, do not use: ${key}\n`,
      '.esignrc.json': `{\n  "profile": "acme",\n  "note": "${key}"\n}\n`,
      'esign.config.js': `// ${key}\nmodule.exports = {};\n`,
    };
    const lines: Record<string, number> = { '.esignrc.yaml': 2, '.esignrc.json': 3, 'esign.config.js': 1 };
    for (const [name, content] of Object.entries(cases)) {
      const dir = project({ [name]: content });
      const error = await loadProjectConfig(dir, async () => []).catch((failure: unknown) => failure as Error);
      expect(error, name).toMatchObject({ code: 'CONFIG_CONTAINS_KEY' });
      expect((error as Error).message).toContain(`${join(dir, name)} contains an API key (key-shaped text on line ${lines[name]})`);
      expect((error as Error).message).not.toContain(key);
    }
  });

  it('refuses a secret under a key-like property name, and keys spelled with escapes', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'x', esign: { profile: 'p', apiKey: 'not-key-shaped' } }) });
    await expect(loadProjectConfig(dir, async () => [])).rejects.toThrow(/package\.json contains an API key \(at apiKey\)/);
    const escaped = project({ '.esignrc.json': JSON.stringify({ profile: 'p' }).replace('}', `,"note":"ab\\u005ftest_AAAAAAAAAAAAAAAA1234"}`) });
    await expect(loadProjectConfig(escaped, async () => [])).rejects.toThrow(/contains an API key \(at note\)/);
  });

  it('refuses unknown settings with the allowed list', async () => {
    const dir = project({ '.esignrc.yaml': 'profle: acme\n' });
    await expect(loadProjectConfig(dir, async () => [])).rejects.toThrow(/profle|Unrecognized/);
  });
});

describe('trust command in hints', () => {
  it('quotes a path so that it can be pasted into a shell', () => {
    expect(trustCommand('/repo/.esignrc')).toBe('esign config trust /repo/.esignrc');
    expect(trustCommand("/my repo/it's/.esignrc")).toBe(`esign config trust '/my repo/it'\\''s/.esignrc'`);
  });
});
