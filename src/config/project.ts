import { statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import type { Loader } from 'cosmiconfig';
import { UsageError } from '../core/errors.js';
import { readFileCapped } from '../files/capped-read.js';
import { keyPattern, keyShapedLines } from '../shared/keys.js';
import { crypto } from '../shared/crypto.js';
import { trustCommand, trustState, type TrustedProjectConfig, type TrustState } from './trust.js';

/** Non-secret settings a repository may carry (`.esignrc`, `esign.config.js`, `package.json#esign`, ...). */
export interface ProjectConfig {
  profile?: string;
  baseUrl?: string;
  sandboxBaseUrl?: string;
  output?: { json?: boolean; color?: boolean };
}

export interface LoadedProjectConfig {
  config: ProjectConfig;
  filepath: string;
  /** Whether the user trusts this file as it is now (`esign config trust`): only then may its base URLs be used. */
  trust: TrustState;
}

/** A project config file found, read and hashed, but not yet evaluated. */
export interface ProjectConfigFile {
  filepath: string;
  /** The path trust is recorded under: the file itself, symbolic links resolved. */
  realpath: string;
  text: string;
  sha256: string;
  /** Evaluating it would run its code (a JavaScript or TypeScript module), so it is evaluated only once trusted. */
  executesCode: boolean;
}

/** cosmiconfig's loaders for these read data; every other loader it has (`.js`, `.cjs`, `.mjs`, `.ts`, ...) runs code. */
const dataExtensions = new Set(['.json', '.yaml', '.yml', '']);

const secretProperty = /^(api[-_]?key|key|secret|token|test[-_]?key|live[-_]?key)$/i;

/** A key committed to a repository is a leaked key: refuse it loudly rather than use it. */
function findSecret(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return keyPattern.test(value) ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${name}` : name;
      if (secretProperty.test(name) && child !== undefined && child !== null && child !== '') return childPath;
      const found = findSecret(child, childPath);
      if (found) return found;
    }
  }
  return undefined;
}

function isPackageJson(filepath: string): boolean {
  return basename(filepath) === 'package.json';
}

function readError(filepath: string, error: unknown): UsageError {
  if (error instanceof UsageError) {
    // Not a regular file (a device, a pipe, a symlink to /dev/stdin): said by readFileCapped, with a hint for here.
    error.hint = 'Make it a regular file, or remove it: a project config is never read from a device or a pipe.';
    return error;
  }
  return new UsageError(`Could not read the esign project config ${filepath}: ${(error as Error).message}`, undefined, 'CONFIG_INVALID');
}

async function describeFile(filepath: string, text: string): Promise<ProjectConfigFile> {
  return {
    filepath,
    realpath: await realpath(filepath),
    text,
    sha256: crypto().createHash('sha256').update(text).digest('hex'),
    executesCode: !dataExtensions.has(extname(filepath)),
  };
}

function hasEsignProperty(filepath: string, text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw readError(filepath, error);
  }
  return typeof parsed === 'object' && parsed !== null && Object.hasOwn(parsed, 'esign');
}

/**
 * cosmiconfig's search places for module `esign`, in its order: its getDefaultSearchPlaces('esign'), which
 * project.test.ts keeps this equal to. Written out because every command searches them: importing them from cosmiconfig
 * started Node's ES module loader and loaded cosmiconfig's loaders (node:crypto among them), about 16 ms of `esign me`.
 */
const SEARCH_PLACES = [
  'package.json',
  '.esignrc',
  '.esignrc.json',
  '.esignrc.yaml',
  '.esignrc.yml',
  '.esignrc.js',
  '.esignrc.ts',
  '.esignrc.cjs',
  '.esignrc.mjs',
  '.config/esignrc',
  '.config/esignrc.json',
  '.config/esignrc.yaml',
  '.config/esignrc.yml',
  '.config/esignrc.js',
  '.config/esignrc.ts',
  '.config/esignrc.cjs',
  '.config/esignrc.mjs',
  'esign.config.js',
  'esign.config.ts',
  'esign.config.cjs',
  'esign.config.mjs',
];

function nothingAt(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * The project config cosmiconfig would find in `cwd` (its search places for module `esign`, in its order), found
 * WITHOUT evaluating it: a file that runs code must not run before it is trusted. cosmiconfig's own search is not used
 * because it evaluates what it finds, honours `$import` and reads a meta config (`.config/config.js`) that can run code.
 */
export async function findProjectConfigFile(cwd = process.cwd()): Promise<ProjectConfigFile | undefined> {
  for (const place of SEARCH_PLACES) {
    const filepath = join(resolve(cwd), place);
    // Most places hold nothing: a stat tells at once, where each open that fails was a trip to libuv's thread pool
    // (21 of them, 2 ms of every command). What the stat cannot tell is left to the reading, which knows every case.
    if (nothingAt(filepath)) continue;
    let text: string;
    try {
      text = (await readFileCapped(filepath, `The esign project config ${filepath}`)).toString('utf8');
    } catch (error) {
      if (['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) continue;
      throw readError(filepath, error);
    }
    if (text.trim() === '') continue;
    if (isPackageJson(filepath) && !hasEsignProperty(filepath, text)) continue;
    return describeFile(filepath, text);
  }
  return undefined;
}

/** A file named on the command line (`esign config trust <file>`), read and hashed but not evaluated. */
export async function readProjectConfigFile(path: string): Promise<ProjectConfigFile> {
  const filepath = resolve(path);
  let text: string;
  try {
    text = (await readFileCapped(filepath, `The esign project config ${filepath}`)).toString('utf8');
  } catch (error) {
    throw readError(filepath, error);
  }
  return describeFile(filepath, text);
}

/** Key-shaped text anywhere in the file, comments included, is refused: the raw text is scanned, not only the values. */
export function assertNoKeyShapedText(file: ProjectConfigFile): void {
  const lines = keyShapedLines(file.text);
  if (lines.length === 0) return;
  throw new UsageError(
    `${file.filepath} contains an API key (key-shaped text on line ${lines.join(', ')}). Keys must never be stored in project files.`,
    'Remove it from the file (and rotate it if the file was committed); store keys with `esign profiles add <name>`.',
    'CONFIG_CONTAINS_KEY',
  );
}

/** `import x from '…'`, `import '…'`, `export … from '…'`: the quoted specifier. */
const staticImport = /\b(?:import|export)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?(['"])([^'"\n]*)\1/g;
/** `import(…)`, `require(…)`: whatever is between the parentheses. */
const callImport = /\b(?:import|require)\s*\(([^)]*)\)/g;

/**
 * The trust covers the config file's own text. A module it loads from the project (`import h from './helper.mjs'`)
 * could change afterwards and run untrusted, so a code config may load only Node's built-in modules and installed
 * packages, each named by a literal: anything else, or a specifier esign cannot read, is named here.
 */
export function uncoveredImports(text: string): string[] {
  const found: string[] = [];
  const check = (specifier: string) => {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:') || specifier.includes('\\') || /^[a-z]:/i.test(specifier)) found.push(specifier);
  };
  for (const match of text.matchAll(staticImport)) check(match[2]!);
  for (const match of text.matchAll(callImport)) {
    const literal = /^\s*(['"`])([^'"`$]*)\1\s*$/.exec(match[1]!);
    if (literal) check(literal[2]!);
    else found.push(`${match[0].split('(')[0]!.trim()}(${match[1]!.trim()})`);
  }
  return found;
}

/** Refuses a code config whose trust would not cover what it runs (see uncoveredImports). */
export function assertSelfContained(file: ProjectConfigFile): void {
  if (!file.executesCode) return;
  const uncovered = uncoveredImports(file.text);
  if (uncovered.length === 0) return;
  throw new UsageError(
    `${file.filepath} loads code that trusting it would not cover: ${uncovered.map((specifier) => JSON.stringify(specifier)).join(', ')}. A changed module would run without being trusted again.`,
    'Put what it needs in the file itself (it may import Node built-ins and installed packages), or use a data file (.esignrc.yaml).',
    'PROJECT_CONFIG_NOT_SELF_CONTAINED',
  );
}

function assertMayEvaluate(file: ProjectConfigFile, trust: TrustState): void {
  if (!file.executesCode) return;
  if (trust === 'trusted') {
    // Trusted before this rule: the trust cannot vouch for its imports either.
    assertSelfContained(file);
    return;
  }
  throw new UsageError(
    `${file.filepath} is a program: loading it would run its code, and ${trust === 'changed' ? 'it has changed since you trusted it' : 'you have not trusted it'}.`,
    `Read it; if you trust it, run \`${trustCommand(file.realpath)}\`. A data file (.esignrc.yaml, .esignrc.json) needs no trust unless it sets a base URL.`,
    'PROJECT_CONFIG_UNTRUSTED',
  );
}

/** Evaluates a file with cosmiconfig's loader for its extension and checks the settings it holds. */
export async function evaluateProjectConfigFile(file: ProjectConfigFile): Promise<ProjectConfig | undefined> {
  let loaded: unknown;
  if (!file.executesCode) {
    // Data is read as every other input file is, so a mistake is reported at its file:line:column.
    const { parseStructured } = await import('../input/structured.js');
    loaded = (await parseStructured(file.text, file.filepath)).data;
  } else {
    const { defaultLoaders } = await import('cosmiconfig/dist/defaults.js');
    const extension = extname(file.filepath);
    const loaders: Readonly<Record<string, Loader>> = defaultLoaders;
    const loader = loaders[extension || 'noExt'];
    if (!loader) throw new UsageError(`${file.filepath}: esign cannot read ${extension} files.`, undefined, 'CONFIG_INVALID');
    try {
      loaded = await loader(file.filepath, file.text);
    } catch (error) {
      throw readError(file.filepath, error);
    }
  }
  const config: unknown = isPackageJson(file.filepath) ? (loaded as Record<string, unknown> | null)?.esign : loaded;
  if (config === undefined || config === null) return undefined;
  const secretAt = findSecret(config, '');
  if (secretAt) {
    throw new UsageError(
      `${file.filepath} contains an API key (at ${secretAt}). Keys must never be stored in project files.`,
      'Remove it from the file (and rotate it if the file was committed); store keys with `esign profiles add <name>`.',
      'CONFIG_CONTAINS_KEY',
    );
  }
  const { z } = await import('zod');
  const schema = z.strictObject({
    profile: z.string().optional(),
    baseUrl: z.string().optional(),
    sandboxBaseUrl: z.string().optional(),
    output: z.strictObject({ json: z.boolean().optional(), color: z.boolean().optional() }).optional(),
  });
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      `${file.filepath}: ${issue.path.join('.') || '(root)'}: ${issue.message}.`,
      'Allowed settings: profile, baseUrl, sandboxBaseUrl, output.json, output.color.',
      'CONFIG_INVALID',
    );
  }
  return parsed.data;
}

/**
 * The project config of `cwd`: found without evaluation, refused if it holds key-shaped text, evaluated only if it is
 * data or trusted code, and returned with its trust state so that its base URLs are used only once trusted.
 */
export async function loadProjectConfig(cwd: string, trusted: () => Promise<readonly TrustedProjectConfig[]>): Promise<LoadedProjectConfig | undefined> {
  const file = await findProjectConfigFile(cwd);
  if (!file) return undefined;
  assertNoKeyShapedText(file);
  const trust = trustState(file, await trusted());
  assertMayEvaluate(file, trust);
  const config = await evaluateProjectConfigFile(file);
  return config ? { filepath: file.filepath, config, trust } : undefined;
}
