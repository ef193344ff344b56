/**
 * What a batch is made of: batch files (`version: 1`, `defaults`, `envelopes`), YAML streams of envelope specs and
 * single spec files, in the order given. Each envelope becomes an entry that still points into its file, so every
 * later check reports `file:line:column`: a value merged from `defaults` points at `defaults`, and a value expanded
 * from an `each:` row names the row as well.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { unreadableFileMessage } from '../files/local-file.js';
import { decodeUtf8, readInputText } from '../input/text.js';
import { readFileCapped } from '../files/capped-read.js';
import { keyShapedPaths } from '../shared/keys.js';
import { formatPath, parseStructured, parseStructuredStream, validateInput, type InputPath, type StructuredInput } from '../input/structured.js';
import { BatchInvalidError, problemsOf, ROUTES, type BatchEntry, type BatchProblem, type Route } from './entry.js';

const refPattern = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `defaults` under an envelope: objects merge key by key, anything else (lists included) is replaced. */
export function mergeDefaults(defaults: unknown, envelope: unknown): unknown {
  if (!isRecord(defaults) || !isRecord(envelope)) return envelope === undefined ? defaults : envelope;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(envelope)) merged[key] = mergeDefaults(defaults[key], value);
  return merged;
}

/** A view of one envelope inside its file: paths are the envelope's own, positions the file's. */
function entryInput(document: StructuredInput, prefix: InputPath, defaultsPrefix: InputPath | undefined, data: unknown): StructuredInput {
  const find = (path: InputPath) => document.find([...prefix, ...path]) ?? (defaultsPrefix ? document.find([...defaultsPrefix, ...path]) : undefined);
  return {
    name: document.name,
    data,
    find,
    locate(path) {
      for (let length = path.length; length >= 0; length--) {
        const found = find(path.slice(0, length));
        if (found) return found;
      }
      return document.locate(prefix);
    },
  };
}

async function batchFileSchema() {
  const { z } = await import('zod');
  return z.strictObject({
    version: z.literal(1, { error: 'version must be 1 (the only batch file version)' }),
    defaults: z.record(z.string(), z.unknown(), { error: 'defaults must be a mapping of envelope spec keys' }).optional(),
    envelopes: z.array(z.unknown(), { error: 'envelopes must be a list of envelope specs' }).min(1, 'envelopes must list at least one envelope'),
  });
}

async function batchKeysSchema() {
  const { z } = await import('zod');
  return z.object({
    ref: z.string({ error: 'ref must be text' }).optional(),
    via: z.enum(ROUTES, { error: `via must be one of ${ROUTES.join(', ')}` }).default('flow'),
    send: z.boolean({ error: 'send must be true or false' }).default(true),
    each: z.string({ error: 'each must be the path of a .csv, .yaml or .json file of rows' }).min(1).optional(),
  });
}

/** 1-based columns where each field of a CSV's first line starts (commas inside quotes belong to the field). */
function headerColumns(text: string): number[] {
  const columns = [1];
  let quoted = false;
  for (let index = 0; index < text.length && (quoted || (text[index] !== '\n' && text[index] !== '\r')); index++) {
    if (text[index] === '"') quoted = !quoted;
    else if (text[index] === ',' && !quoted) columns.push(index + 2);
  }
  return columns;
}

/** A CSV header names each column once, and every column: a name written twice would keep only its last column. */
function headerProblems(header: readonly string[], text: string, name: string): string[] {
  const problems: string[] = [];
  const columns = headerColumns(text);
  header.forEach((column, index) => {
    const first = header.indexOf(column);
    if (column === '') problems.push(`${name}:1:${columns[index]}: column ${index + 1} has no name in the header line`);
    else if (first !== index) problems.push(`${name}:1:${columns[index]}: column ${JSON.stringify(column)} is named twice in the header line (first at ${name}:1:${columns[first]})`);
  });
  return problems;
}

/** Rows for `each:`: a CSV with a header line, or a YAML/JSON list of mappings (or `{rows: [...]}`). */
async function readRows(path: string, where: string): Promise<{ values: Record<string, unknown>; where: string }[]> {
  let bytes: Buffer;
  try {
    bytes = await readFileCapped(path, `${where}: each ${path}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${unreadableFileMessage(path, error, `${where}: each`)}.`, 'Give the rows file relative to the spec file.', 'INPUT_UNREADABLE');
  }
  const name = basename(path);
  const text = decodeUtf8(bytes, name);
  if (extname(path).toLowerCase() === '.csv') {
    const { parse } = await import('csv-parse/sync');
    let records: { record: Record<string, string>; info: { lines: number } }[];
    let problems: string[] = [];
    try {
      const columns = (header: string[]) => ((problems = headerProblems(header, text, name)), header);
      records = parse(text, { columns, info: true, skip_empty_lines: true, trim: true, bom: true }) as typeof records;
    } catch (error) {
      const line = (error as { lines?: number }).lines;
      throw new UsageError(`${name}${line ? `:${line}` : ''}: ${(error as Error).message}`, 'Fix the CSV: one header line, then one line per row; quote values that hold commas.', 'INPUT_SYNTAX');
    }
    if (problems.length) throw new UsageError(problems, 'Give each column of the header line its own name: ${{ row.<name> }} reads the column of that name.', 'INPUT_INVALID');
    return records.map(({ record, info }) => ({ values: record, where: `${name}:${info.lines}` }));
  }
  const input = await parseStructured(text, name);
  const list = Array.isArray(input.data) ? input.data : isRecord(input.data) && Array.isArray(input.data.rows) ? input.data.rows : undefined;
  if (!list) throw new UsageError(`${input.locate([])}: expected a list of rows (mappings), or rows: [...].`, undefined, 'INPUT_INVALID');
  const prefix = Array.isArray(input.data) ? [] : ['rows'];
  return list.map((values, index) => {
    if (!isRecord(values)) throw new UsageError(`${input.locate([...prefix, index])}: each row must be a mapping of column names to values.`, undefined, 'INPUT_INVALID');
    return { values, where: input.locate([...prefix, index]) };
  });
}

const expression = /\$\{\{\s*(.*?)\s*\}\}/g;

interface Scope {
  row?: { values: Record<string, unknown>; where: string };
  env: NodeJS.ProcessEnv;
  /** The variables read, in the order first read. */
  envRead: Set<string>;
}

function lookup(text: string, scope: Scope): { value?: unknown; problem?: string } {
  const match = /^(row|env)(?:\.([A-Za-z_][\w-]*)|\[\s*(['"])(.*?)\3\s*\])$/.exec(text);
  if (!match) return { problem: `\${{ ${text} }} is not an expression esign knows: use \${{ row.<column> }} or \${{ env.<NAME> }}` };
  const name = match[2] ?? match[4]!;
  if (match[1] === 'env') {
    scope.envRead.add(name);
    // Own variables only: `env.toString` is not a variable, whatever every object inherits.
    const value = Object.hasOwn(scope.env, name) ? scope.env[name] : undefined;
    return value === undefined ? { problem: `environment variable ${name} is not set` } : { value };
  }
  if (!scope.row) return { problem: `\${{ row.${name} }} is used, but this envelope has no each: rows` };
  if (!Object.hasOwn(scope.row.values, name)) {
    return { problem: `row ${scope.row.where} has no column ${JSON.stringify(name)} (columns: ${Object.keys(scope.row.values).join(', ')})` };
  }
  return { value: scope.row.values[name] };
}

/** What a value found by an expression is, for a message: text, numbers and true/false can go into text. */
function unusableInText(value: unknown): string | undefined {
  if (value === null) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return undefined;
}

/**
 * Replaces `${{ row.x }}` and `${{ env.X }}` in every string; a string that is one expression keeps the value's type.
 * Within text, only text, numbers and true/false are put in: a list, a mapping or null would be sent as "[object
 * Object]" or "null", and a `${{` never closed would be sent as written, so each is a problem at its place.
 */
function interpolate(value: unknown, path: InputPath, scope: Scope, input: StructuredInput, problems: BatchProblem[]): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${{')) return value;
    const problem = (message: string) => problems.push({ where: input.locate(path), message: `${formatPath(path)}: ${message}` });
    const unclosed = value.replace(expression, '').indexOf('${{');
    if (unclosed >= 0) {
      problem(`\${{ is not closed with }} (in ${JSON.stringify(value)})`);
      return value;
    }
    const whole = /^\$\{\{\s*(.*?)\s*\}\}$/.exec(value);
    if (whole && !whole[1]!.includes('}}')) {
      const { value: found, problem: missing } = lookup(whole[1]!, scope);
      if (missing) problem(missing);
      return found ?? value;
    }
    return value.replace(expression, (original, text: string) => {
      const { value: found, problem: missing } = lookup(text, scope);
      if (missing) problem(missing);
      const unusable = unusableInText(found);
      if (unusable) problem(`${original} is ${unusable}, which cannot be put into text: only text, a number or true/false can`);
      return found === undefined || unusable ? original : String(found);
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => interpolate(item, [...path, index], scope, input, problems));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, [...path, key], scope, input, problems)]));
  return value;
}

/** The `${{ }}` expressions written along `path` of the raw spec, where the value there came from. */
function expressionsAlong(raw: unknown, path: InputPath): string[] {
  let value = raw;
  for (const part of [undefined, ...path]) {
    if (part !== undefined) value = typeof value === 'object' && value !== null ? (value as Record<string | number, unknown>)[part] : undefined;
    if (typeof value === 'string') return value.match(expression) ?? [];
  }
  return [];
}

/**
 * An API key goes in the Authorization header and nowhere else: text shaped like one, wherever it comes from (the
 * spec, a row, an environment variable such as ESIGN_API_KEY), is never made envelope data.
 */
function keyProblems(raw: unknown, expanded: unknown, input: StructuredInput): BatchProblem[] {
  return keyShapedPaths(expanded).map((path) => {
    const from = expressionsAlong(raw, path);
    return {
      where: input.locate(path),
      message: `${formatPath(path)}: holds text shaped like an API key${from.length ? ` (from ${from.join(', ')})` : ''}; an API key is never sent as envelope data`,
      hint: 'Remove the key from the spec, its rows and the variables it names: esign sends the key only in the Authorization header.',
    };
  });
}

function withData(input: StructuredInput, data: unknown): StructuredInput {
  return { ...input, data };
}

/**
 * The paths given, each once: a file given twice (by any path to it) would repeat all its envelopes under the refs
 * of the first, and standard input given twice is empty the second time.
 */
async function givenOnce(paths: readonly string[], problems: BatchProblem[]): Promise<string[]> {
  const first = new Map<string, number>();
  const once: string[] = [];
  for (const [index, path] of paths.entries()) {
    const identity = path === '-' ? '-' : await realpath(path).catch(() => resolve(path));
    const earlier = first.get(identity);
    if (earlier === undefined) {
      first.set(identity, index);
      once.push(path);
      continue;
    }
    problems.push({
      where: `${path === '-' ? '<stdin>' : path}:1:1`,
      message:
        path === '-'
          ? `standard input (-) is given twice (arguments ${earlier + 1} and ${index + 1}); it can be read only once`
          : `${path} is given twice (arguments ${earlier + 1} and ${index + 1}${paths[earlier] === path ? '' : `, as ${paths[earlier]}`}); each spec file is read once`,
      hint: 'Give each spec file once.',
    });
  }
  return once;
}

/** Reads every source into entries, expanded and with unique refs; every problem of every source is reported at once. */
export async function readBatch(paths: readonly string[], stdin: NodeJS.ReadableStream, env: NodeJS.ProcessEnv = process.env): Promise<BatchEntry[]> {
  if (paths.length === 0) throw new UsageError('No batch file given.', 'Name one or more spec files: esign batch validate batch.yaml.');
  const problems: BatchProblem[] = [];
  const located: { input: StructuredInput; base: string; defaultRef?: string }[] = [];

  for (const path of await givenOnce(paths, problems)) {
    const name = path === '-' ? '<stdin>' : path;
    const base = path === '-' ? process.cwd() : dirname(resolve(path));
    let documents: StructuredInput[];
    try {
      documents = await parseStructuredStream(await readInputText(path, stdin, 'The batch', 'Check the path.'), name);
    } catch (error) {
      problems.push(...problemsOf(error));
      continue;
    }
    const stem = basename(name).replace(/\.(ya?ml|json)$/i, '');
    if (documents.every((document) => document.data === null || document.data === undefined)) {
      problems.push({
        where: `${name}:1:1`,
        message: 'no envelope spec: the file is empty, or holds only comments and empty YAML documents',
        hint: 'Write an envelope spec, or a batch file (version: 1, envelopes: [...]); esign batch schema describes both.',
      });
      continue;
    }
    for (const [index, document] of documents.entries()) {
      const data = document.data;
      if (isRecord(data) && ('envelopes' in data || 'version' in data)) {
        let batch: { defaults?: Record<string, unknown>; envelopes: unknown[] };
        try {
          batch = validateInput(document, await batchFileSchema(), 'A batch file is version: 1, optional defaults, and envelopes: a list of envelope specs.');
        } catch (error) {
          problems.push(...problemsOf(error));
          continue;
        }
        batch.envelopes.forEach((envelope, position) => {
          // A template brings its own documents and fields: defaults for those apply to the other routes only.
          const { documents: _documents, fields: _fields, ...templateDefaults } = batch.defaults ?? {};
          const merged = mergeDefaults(isRecord(envelope) && envelope.via === 'template' ? templateDefaults : batch.defaults, envelope);
          located.push({ input: entryInput(document, ['envelopes', position], batch.defaults ? ['defaults'] : undefined, merged), base });
        });
      } else if (data === null || data === undefined) {
        continue;
      } else {
        located.push({ input: entryInput(document, [], undefined, data), base, defaultRef: documents.length > 1 ? `${stem}-${index + 1}` : stem });
      }
    }
  }

  const entries: BatchEntry[] = [];
  /** Entries whose expressions all expanded: the others would only repeat their problem in other words. */
  const checkable: BatchEntry[] = [];
  const keysSchema = await batchKeysSchema();
  for (const { input, base, defaultRef } of located) {
    if (!isRecord(input.data)) {
      problems.push({ where: input.locate([]), message: 'an envelope spec must be a mapping (title, participants, documents, fields)' });
      continue;
    }
    let keys: { ref?: string; via: Route; send: boolean; each?: string };
    try {
      keys = validateInput(input, keysSchema.loose());
    } catch (error) {
      problems.push(...problemsOf(error));
      continue;
    }
    const rawRef = typeof input.data.ref === 'string' ? input.data.ref : undefined;
    if (rawRef === undefined && defaultRef === undefined) {
      problems.push({ where: input.locate([]), message: 'ref is required for each envelope of a batch file', hint: 'Give every envelope a ref unique in the batch (e.g. ref: nda-acme).' });
      continue;
    }
    const { each: _each, ...rest } = input.data;
    const rowsFile = keys.each ? resolve(base, keys.each) : undefined;
    const rows = rowsFile ? await readRows(rowsFile, input.locate(['each'])).catch((error: unknown) => (problems.push(...problemsOf(error)), undefined)) : [undefined];
    if (!rows) continue;
    if (rows.length === 0) {
      problems.push({
        where: input.locate(['each']),
        message: `each: ${keys.each} has no rows, so this spec would send nothing`,
        hint: 'Give each: a CSV with a header line and at least one row, or a YAML/JSON list of at least one mapping.',
      });
      continue;
    }
    for (const [index, row] of rows.entries()) {
      const found: BatchProblem[] = [];
      const envRead = new Set<string>();
      const expanded = interpolate(rest, [], { ...(row ? { row } : {}), env, envRead }, input, found) as Record<string, unknown>;
      found.push(...keyProblems(rest, expanded, input));
      problems.push(...found.map((problem) => (row ? { ...problem, message: `${problem.message} (row ${row.where})` } : problem)));
      let ref = typeof expanded.ref === 'string' ? expanded.ref : defaultRef!;
      if (row && !(rawRef ?? '').includes('${{')) ref = `${ref}-${index + 1}`;
      if (!refPattern.test(ref)) {
        problems.push({ where: input.locate(['ref']), message: `ref ${JSON.stringify(ref)}${row ? ` (row ${row.where})` : ''} must be 1-100 letters, digits, ".", "_", "@", "+" or "-"` });
        continue;
      }
      const entry: BatchEntry = { ref, via: keys.via, send: keys.send, input: withData(input, expanded), base, ...(row ? { row: row.where, rowsFile } : {}), ...(envRead.size ? { envNames: [...envRead] } : {}) };
      entries.push(entry);
      if (!found.length) checkable.push(entry);
    }
  }

  const seen = new Map<string, BatchEntry>();
  for (const entry of entries) {
    const earlier = seen.get(entry.ref);
    if (earlier) {
      problems.push({
        where: entry.input.locate(['ref']),
        message: `ref ${JSON.stringify(entry.ref)}${entry.row ? ` (row ${entry.row})` : ''} is already used at ${earlier.input.locate(['ref'])}${earlier.row ? ` (row ${earlier.row})` : ''}`,
        hint: 'Each envelope of a batch needs its own ref: it names the envelope in the journal, the report and on re-runs.',
      });
    }
    seen.set(entry.ref, entry);
  }
  if (problems.length) {
    // Every problem is listed in one run: those of the entries that could be read too, not only the reading's.
    const { checkBatch } = await import('./check.js');
    await checkBatch(checkable).catch((error: unknown) => problems.push(...problemsOf(error)));
    throw new BatchInvalidError(problems);
  }
  return entries;
}

/**
 * Every file the entries read besides the spec files: rows files and the documents they name, for every entry (those
 * of other shards included), so that no journal or report of the run can replace one of them.
 */
export function entryInputFiles(entries: readonly BatchEntry[]): string[] {
  const files = new Set<string>();
  for (const entry of entries) {
    if (entry.rowsFile) files.add(entry.rowsFile);
    const documents = isRecord(entry.input.data) ? entry.input.data.documents : undefined;
    if (!Array.isArray(documents)) continue;
    for (const document of documents) if (isRecord(document) && typeof document.file === 'string') files.add(resolve(entry.base, document.file));
  }
  return [...files];
}
