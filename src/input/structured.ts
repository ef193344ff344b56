import type { ZodType } from 'zod';
import { UsageError } from '../core/errors.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting.js';
import { readInputText } from './text.js';

export type InputPath = readonly (string | number)[];

/** A YAML or JSON input file, parsed, with the means to point at any value in it by `file:line:column`. */
export interface StructuredInput {
  /** As shown to people: the path given, or `<stdin>`. */
  name: string;
  data: unknown;
  /** `file:line:column` of the value at exactly `path`, if the file has one there. */
  find(path: InputPath): string | undefined;
  /** `file:line:column` of the value at `path` (or of the closest parent that exists). */
  locate(path: InputPath): string;
}

export async function readStructuredFile(path: string, stdin: NodeJS.ReadableStream): Promise<StructuredInput> {
  return parseStructured(await readInputText(path, stdin, 'The input'), path === '-' ? '<stdin>' : path);
}

/** More aliases than any real participants, fields or envelope file uses; past it, a billion-laughs expansion. */
export const MAX_INPUT_ALIASES = 100;

type CstToken = import('yaml').CST.Token;

/**
 * How deep the file's collections nest, from the parser's concrete syntax tree (built without recursion, so any
 * depth is measured safely) before the composer, which recurses, ever sees it. Answers the offset where the limit is
 * first passed.
 */
function tooDeepAt(tokens: readonly CstToken[], limit: number): number | undefined {
  const pending: [CstToken | undefined | null, number][] = tokens.map((token) => [token, 0]);
  while (pending.length > 0) {
    const [token, depth] = pending.pop()!;
    if (!token) continue;
    switch (token.type) {
      case 'document':
        pending.push([token.value, depth]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        if (depth + 1 > limit) return token.offset;
        for (const item of token.items) {
          if ('key' in item) pending.push([item.key, depth + 1]);
          pending.push([item.value, depth + 1]);
        }
        break;
      default:
        break;
    }
  }
  return undefined;
}

/** JSON is YAML, so one parser serves both and gives positions for either. */
export async function parseStructured(text: string, name: string): Promise<StructuredInput> {
  const documents = await parseStructuredStream(text, name);
  if (documents.length > 1) {
    throw new UsageError(
      `${documents[1]!.locate([])}: more than one document (a second ---): put everything in one.`,
      'Remove the extra `---` documents, or give the file to `esign batch`, which reads YAML streams.',
      'INPUT_SYNTAX',
    );
  }
  return documents[0] ?? { name, data: null, find: () => undefined, locate: () => `${name}:1:1` };
}

type Yaml = typeof import('yaml');
type YamlNode = import('yaml').Node;
type YamlDocument = import('yaml').Document.Parsed;

/**
 * How every input is composed: a key written twice is an error (JSON.parse would silently keep the last), and `<<`
 * merge keys (`- <<: *base`) merge as YAML 1.1 defined them, own keys first, which spec files use to share settings.
 */
const composeOptions = { uniqueKeys: true, prettyErrors: false, merge: true } as const;

function isMergeKey(key: unknown): boolean {
  return typeof key === 'object' && key !== null && typeof (key as { value?: unknown }).value === 'symbol';
}

/**
 * The node written for the value at `path`: through aliases to what they name, and through `<<` merge keys to the
 * mapping a merged key comes from (own keys first, then each merged mapping in order, as the merge takes them).
 */
function nodeAt(yaml: Yaml, document: YamlDocument, path: InputPath): YamlNode | undefined {
  const resolve = (node: unknown): unknown => (yaml.isAlias(node) ? node.resolve(document) : node);
  const valueIn = (map: unknown, key: string | number, seen: Set<unknown>): unknown => {
    const target = resolve(map);
    if (!yaml.isMap(target) || seen.has(target)) return undefined;
    seen.add(target);
    const own = target.items.find((pair) => yaml.isScalar(pair.key) && !isMergeKey(pair.key) && String(pair.key.value) === String(key));
    if (own) return own.value;
    for (const pair of target.items.filter((candidate) => isMergeKey(candidate.key))) {
      const source = resolve(pair.value);
      for (const merged of yaml.isSeq(source) ? source.items : [source]) {
        const found = valueIn(merged, key, seen);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  let node: unknown = document.contents;
  for (const part of path) {
    const container = resolve(node);
    if (yaml.isMap(container)) node = valueIn(container, part, new Set());
    else if (yaml.isSeq(container) && typeof part === 'number') node = container.items[part];
    else return undefined;
  }
  return yaml.isNode(node) ? node : undefined;
}

/**
 * Where each value of a text is, for messages only. The syntax tree and the composed documents that hold positions
 * take some fifty times the text's size, and a batch of hundreds of envelopes would keep them for the whole run: so
 * they are composed again from the text the first time a position is asked for (an error, mostly), never before.
 */
function positionsOf(yaml: Yaml, text: string, name: string): (index: number) => { find(path: InputPath): string | undefined; start: string } {
  let documents: YamlDocument[] | undefined;
  let lineCounter: import('yaml').LineCounter | undefined;
  const position = (offset: number) => {
    const { line, col } = lineCounter!.linePos(offset);
    return `${name}:${line}:${col}`;
  };
  const compose = () => {
    if (!documents) {
      lineCounter = new yaml.LineCounter();
      // The text was measured or parsed whole already: composing it again cannot nest deeper than the limit.
      documents = [...new yaml.Composer(composeOptions).compose(new yaml.Parser(lineCounter.addNewLine).parse(text), true, text.length)];
    }
    return documents;
  };
  return (index) => ({
    find(path) {
      const document = compose()[index];
      const node = document && nodeAt(yaml, document, path);
      return node?.range ? position(node.range[0]) : undefined;
    },
    get start() {
      const contents = compose()[index]?.contents;
      return contents && yaml.isNode(contents) && contents.range ? position(contents.range[0]) : `${name}:1:1`;
    },
  });
}

function locatedInput(name: string, data: unknown, positions: { find(path: InputPath): string | undefined; start: string }): StructuredInput {
  return {
    name,
    data,
    find: (path) => positions.find(path),
    locate(path) {
      for (let length = path.length; length >= 0; length--) {
        const found = positions.find(path.slice(0, length));
        if (found) return found;
      }
      return positions.start;
    },
  };
}

/** Keys written in a JSON text (strings followed by a colon), counted without building anything. */
function jsonKeysWritten(text: string): number {
  let keys = 0;
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) !== 0x22) continue;
    for (index++; index < text.length && text.charCodeAt(index) !== 0x22; index++) if (text.charCodeAt(index) === 0x5c) index++;
    let next = index + 1;
    while (next < text.length && /\s/.test(text[next]!)) next++;
    if (text[next] === ':') keys++;
  }
  return keys;
}

function keysRead(data: unknown): number {
  let keys = 0;
  const pending = [data];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null) continue;
    const values = Object.values(item);
    if (!Array.isArray(item)) keys += values.length;
    pending.push(...values);
  }
  return keys;
}

/**
 * A JSON text read by JSON.parse: the same data the YAML parser gives (JSON is YAML), with none of its syntax tree.
 * Anything JSON.parse would read differently (a syntax error, a key written twice, which it silently takes the last
 * of) or too deep goes to the YAML parser, which says what is wrong and where.
 */
function plainJson(text: string): { data: unknown } | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (nestsDeeperThan(data) || keysRead(data) !== jsonKeysWritten(text)) return undefined;
  return { data };
}

/**
 * Every document of a YAML stream (`---` separated), each able to point at its values by `file:line:column`. Depth
 * is measured on the syntax tree before anything recursive runs, and aliases may not expand into a bomb.
 */
export async function parseStructuredStream(text: string, name: string): Promise<StructuredInput[]> {
  const yaml = await import('yaml');
  const positions = positionsOf(yaml, text, name);
  const json = plainJson(text);
  if (json) return [locatedInput(name, json.data, positions(0))];
  const lineCounter = new yaml.LineCounter();
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${name}:${line}:${col}`;
  };
  const tokens = [...new yaml.Parser(lineCounter.addNewLine).parse(text)];
  const deepAt = tooDeepAt(tokens, MAX_NESTING_DEPTH);
  if (deepAt !== undefined) {
    throw new UsageError(
      `${position(deepAt)}: nested more than ${MAX_NESTING_DEPTH} levels deep; esign reads no deeper.`,
      'Participants, fields and envelope files nest a few levels at most: check that this is the file you meant.',
      'INPUT_TOO_DEEP',
    );
  }
  const documents = [...new yaml.Composer(composeOptions).compose(tokens, true, text.length)];
  const firstError = documents.flatMap((document) => document.errors)[0];
  if (firstError) {
    throw new UsageError(
      `${position(firstError.pos[0])}: ${firstError.message.split('\n')[0]}`,
      name.endsWith('.json') ? 'Fix the JSON syntax at that place.' : 'Fix the YAML syntax at that place (indentation, quotes, a missing colon).',
      'INPUT_SYNTAX',
    );
  }
  return documents.map((document, index) => {
    assertAliasesResolve(yaml, document, position);
    let data: unknown;
    try {
      data = document.toJS({ maxAliasCount: MAX_INPUT_ALIASES });
    } catch (error) {
      if (!(error instanceof ReferenceError)) throw error;
      throw new UsageError(
        `${name}: its aliases (*name) expand past ${MAX_INPUT_ALIASES} copies, or an alias is used inside the value it names (${error.message}).`,
        'Write the values out, or use fewer aliases: esign does not expand alias bombs.',
        'INPUT_ALIASES',
      );
    }
    // Aliases can nest what the text does not.
    if (nestsDeeperThan(data)) {
      throw new UsageError(`${name}: nested more than ${MAX_NESTING_DEPTH} levels deep once its aliases are expanded; esign reads no deeper.`, undefined, 'INPUT_TOO_DEEP');
    }
    return locatedInput(name, data, positions(index));
  });
}

/**
 * Every alias names an anchor written before it, and every `<<` merges mappings: said at the alias or the merge, where
 * converting the document would throw without a place (or, for a merge of a list, with a stack trace).
 */
function assertAliasesResolve(yaml: Yaml, document: YamlDocument, position: (offset: number) => string): void {
  const at = (node: YamlNode) => position(node.range?.[0] ?? 0);
  yaml.visit(document, {
    Alias(_key, alias) {
      if (alias.resolve(document)) return;
      throw new UsageError(
        `${at(alias)}: the alias *${alias.source} is not defined: no anchor &${alias.source} comes before it.`,
        `Mark the value to reuse with &${alias.source} before this alias, or check the spelling of the name.`,
        'INPUT_SYNTAX',
      );
    },
    Pair(_key, pair) {
      if (!isMergeKey(pair.key)) return;
      const value = yaml.isAlias(pair.value) ? pair.value.resolve(document) : pair.value;
      const sources = yaml.isSeq(value) ? value.items : [value];
      // An alias that names nothing is reported as such, by the Alias visitor.
      const bad = sources.find((source) => {
        const merged = yaml.isAlias(source) ? source.resolve(document) : source;
        return merged !== undefined && !yaml.isMap(merged);
      });
      if (bad === undefined) return;
      throw new UsageError(
        `${at(yaml.isNode(bad) && !yaml.isAlias(pair.value) ? bad : (pair.value as YamlNode))}: a << merge key takes a mapping (*name of one) or a list of them; this is not a mapping.`,
        'Write `<<: *base` where `&base` marks a mapping, or write the keys out.',
        'INPUT_SYNTAX',
      );
    },
  });
}

/** A usage error that points into the input file. */
export function inputError(input: StructuredInput, path: InputPath, message: string, hint?: string): UsageError {
  const where = path.length ? ` (${formatPath(path)})` : '';
  return new UsageError(`${input.locate(path)}: ${message}${where}`, hint, 'INPUT_INVALID', { file: input.name, path: formatPath(path) });
}

export function formatPath(path: InputPath): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
}

function valueAt(data: unknown, path: InputPath): unknown {
  let value = data;
  for (const part of path) value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[part] : undefined;
  return value;
}

const kindNames: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'nothing (null)',
  date: 'a date',
  record: 'a mapping',
  literal: 'a fixed value',
};

function kindName(expected: string): string {
  return kindNames[expected] ?? expected;
}

function kindOf(value: unknown): string {
  if (value === null) return kindNames.null!;
  if (Array.isArray(value)) return kindNames.array!;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'not a number (.nan)';
    if (!Number.isFinite(value)) return 'an infinite number (.inf, or a number too large to hold, such as 1e400)';
    return `${Number.isInteger(value) ? 'a whole number' : 'a number'} (${value})`;
  }
  return kindNames[typeof value] ?? typeof value;
}

/** zod's own texts ("Invalid input: …", "Too big: expected int to be <=9007199254740991"), as opposed to a schema's. */
const zodDefault = /^(Invalid\b|Too (big|small)\b|Unrecognized keys?\b)/;

/**
 * A value of the wrong kind, said plainly: a missing key is "required, but missing", and a value of another kind names
 * both kinds. zod's own text ("Invalid input: expected string, received undefined") and a schema's "… is required"
 * say neither.
 */
function typeMessage(message: string, expected: string, value: unknown, isRoot: boolean): string {
  if (value === undefined || (isRoot && value === null)) return isRoot ? `the file is empty; expected ${kindName(expected)}` : 'required, but missing';
  if (zodDefault.test(message) || / is required\b/.test(message)) return `expected ${kindName(expected)}, found ${kindOf(value)}`;
  return message;
}

type Issue = import('zod').core.$ZodIssue;

function limitOf(origin: string, bound: number | bigint, inclusive: boolean | undefined, word: 'most' | 'least'): string {
  const exact = inclusive === false ? (word === 'most' ? `less than ${bound}` : `more than ${bound}`) : `at ${word} ${bound}`;
  if (origin === 'string') return `${exact} character${bound === 1 ? '' : 's'} long`;
  if (origin === 'array' || origin === 'set') return `a list of ${exact} item${bound === 1 ? '' : 's'}`;
  return exact;
}

/**
 * Every kind of zod issue as a sentence that says what is accepted and what was found; a schema's own message (one
 * the project wrote) is kept, with what was found added when the value was of another kind.
 */
function issueMessage(issue: Issue, value: unknown, isRoot: boolean): string {
  const own = !zodDefault.test(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(issue.message, issue.expected, value, isRoot);
    case 'invalid_union': {
      if (value === undefined) return 'required, but missing';
      if (own) return `${issue.message}; found ${kindOf(value)}`;
      const expected = issue.errors.flatMap((branch) => branch.filter((inner) => inner.code === 'invalid_type' && inner.path.length === 0).map((inner) => kindName((inner as { expected: string }).expected)));
      if (expected.length === issue.errors.length) return `expected ${[...new Set(expected)].join(' or ')}, found ${kindOf(value)}`;
      // One branch fits the kind of value: its own problems say what is wrong.
      const nearest = issue.errors.find((branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0));
      return nearest?.[0] ? issueMessage(nearest[0], value, isRoot) : `not one of the accepted forms, found ${kindOf(value)}`;
    }
    case 'too_big':
      return own ? issue.message : `too large: must be ${limitOf(issue.origin, issue.maximum, issue.inclusive, 'most')}${typeof value === 'number' ? `, found ${value}` : ''}`;
    case 'too_small':
      return own ? issue.message : `too small: must be ${limitOf(issue.origin, issue.minimum, issue.inclusive, 'least')}${typeof value === 'number' ? `, found ${value}` : ''}`;
    case 'invalid_value':
      return own ? issue.message : `must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((item) => JSON.stringify(item)).join(', ')}`}, found ${typeof value === 'string' ? JSON.stringify(value) : kindOf(value)}`;
    case 'invalid_format':
      return own ? issue.message : `must be ${issue.format === 'regex' ? `text matching ${issue.pattern ?? 'the expected form'}` : `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return own ? issue.message : `must be a multiple of ${issue.divisor}${typeof value === 'number' ? `, found ${value}` : ''}`;
    case 'invalid_key':
      return own ? issue.message : `a key of this mapping is not accepted: ${issue.issues.map((inner) => issueMessage(inner, undefined, false)).join('; ')}`;
    case 'invalid_element':
      return own ? issue.message : `an item is not accepted: ${issue.issues.map((inner) => issueMessage(inner, undefined, false)).join('; ')}`;
    default:
      return issue.message;
  }
}

/**
 * Validates with a zod schema; every problem (up to 10) is reported with its `file:line:column`, so one run shows
 * what to fix. An unknown key names the closest known one (`titel` → `title`).
 */
export function validateInput<T>(input: StructuredInput, schema: ZodType<T>, hint?: string): T {
  const result = schema.safeParse(input.data);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 10).flatMap((issue) => {
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, path);
      return issue.keys.map((key) => {
        const nearest = closest(key, known);
        return `${input.locate([...path, key])}: ${formatPath([...path, key])}: unknown key${nearest ? `; did you mean ${JSON.stringify(nearest)}?` : known.length ? ` (known: ${known.join(', ')})` : ''}`;
      });
    }
    const message = issueMessage(issue, valueAt(input.data, path), path.length === 0);
    return [`${input.locate(path)}: ${path.length ? `${formatPath(path)}: ` : ''}${message}`];
  });
  const more = result.error.issues.length > 10 ? [`(and ${result.error.issues.length - 10} more)`] : [];
  throw new UsageError([...issues, ...more], hint, 'INPUT_INVALID', { file: input.name, issues });
}

interface ZodDefinition {
  type: string;
  shape?: Record<string, ZodType>;
  element?: ZodType;
  innerType?: ZodType;
  in?: ZodType;
  options?: ZodType[];
  getter?: () => ZodType;
}

function definitionOf(schema: ZodType): ZodDefinition {
  return (schema as unknown as { _zod: { def: ZodDefinition } })._zod.def;
}

/** The keys an object schema knows at `path` (through arrays, optionals, defaults, pipes and unions). */
export function knownKeysAt(schema: ZodType, path: InputPath): string[] {
  const definition = definitionOf(schema);
  const inner = definition.innerType ?? definition.in ?? definition.getter?.();
  if (inner) return knownKeysAt(inner, path);
  if (definition.type === 'union') return [...new Set((definition.options ?? []).flatMap((option) => knownKeysAt(option, path)))];
  if (path.length === 0) return definition.type === 'object' ? Object.keys(definition.shape ?? {}) : [];
  const [head, ...rest] = path;
  if (definition.type === 'array' && typeof head === 'number' && definition.element) return knownKeysAt(definition.element, rest);
  if (definition.type === 'object' && typeof head === 'string' && definition.shape?.[head]) return knownKeysAt(definition.shape[head], rest);
  return [];
}

/** The known word within a small edit distance of `word` (case ignored), if there is one. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(word.toLowerCase(), key.toLowerCase());
    if (distance <= Math.max(2, Math.floor(key.length / 3)) && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
