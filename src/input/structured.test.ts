import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { MAX_NESTING_DEPTH } from '../shared/nesting.js';
import { z } from 'zod';
import { MAX_INPUT_ALIASES, parseStructured, validateInput } from './structured.js';

async function refusal(text: string, name = 'input.yaml'): Promise<UsageError> {
  const error = await parseStructured(text, name).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).exitCode).toBe(2);
  return error as UsageError;
}

/** The classic billion laughs: nine aliases of nine aliases, nine levels down (10^9 strings once expanded). */
function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 9; level++) {
    const name = String.fromCharCode(97 + level);
    const previous = String.fromCharCode(96 + level);
    lines.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

describe('parseStructured limits', () => {
  it('refuses a billion-laughs YAML with exit 2 instead of expanding it', async () => {
    const started = Date.now();
    const error = await refusal(billionLaughs());
    expect(error.code).toBe('INPUT_ALIASES');
    expect(error.message).toContain(`past ${MAX_INPUT_ALIASES} copies`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('still reads a file with a few aliases', async () => {
    const input = await parseStructured('defaults: &d {role: SIGNER}\nparticipants:\n  - {<<: *d, name: Ada}\n  - *d\n', 'p.yaml');
    expect(input.data).toStrictEqual({ defaults: { role: 'SIGNER' }, participants: [{ role: 'SIGNER', name: 'Ada' }, { role: 'SIGNER' }] });
  });

  it('refuses an alias of no anchor at its line and column, saying it is not defined', async () => {
    const error = await refusal('version: 1\nenvelopes: [*nope]\n');
    expect(error.code).toBe('INPUT_SYNTAX');
    expect(error.message).toBe('input.yaml:2:13: the alias *nope is not defined: no anchor &nope comes before it.');
    // An anchor written after its alias does not count.
    expect((await refusal('a: *later\nb: &later 1\n')).message).toMatch(/^input\.yaml:1:4: the alias \*later is not defined/);
  });
});

describe('parseStructured merge keys', () => {
  const text = [
    'base: &base', //                         1
    '  title: Base', //                       2
    '  deadline: 7d', //                      3
    'extra: &extra { message: Hi, title: X }', // 4
    'list:', //                               5
    '  - <<: *base', //                       6
    '    title: Own', //                      7
    '  - <<: [*extra, *base]', //             8
    '',
  ].join('\n');

  it('merges << mappings (own keys first, then each merged mapping in order)', async () => {
    const { data } = await parseStructured(text, 'm.yaml');
    expect((data as { list: unknown }).list).toStrictEqual([
      { title: 'Own', deadline: '7d' },
      { message: 'Hi', title: 'X', deadline: '7d' },
    ]);
  });

  it('points a merged value at where it is written', async () => {
    const input = await parseStructured(text, 'm.yaml');
    expect(input.locate(['list', 0, 'title'])).toBe('m.yaml:7:12');
    expect(input.locate(['list', 0, 'deadline'])).toBe('m.yaml:3:13');
    expect(input.locate(['list', 1, 'title'])).toBe('m.yaml:4:37');
    expect(input.locate(['list', 1, 'deadline'])).toBe('m.yaml:3:13');
  });

  it('refuses a merge of something that is not a mapping, at its place', async () => {
    const error = await refusal('a: &a [1]\nb:\n  <<: *a\n');
    expect(error.message).toMatch(/^input\.yaml:3:7: a << merge key takes a mapping/);
    expect((await refusal('b:\n  <<: [{ x: 1 }, text]\n')).message).toMatch(/^input\.yaml:2:18: a << merge key takes a mapping/);
  });

  it('refuses an alias that refers to itself', async () => {
    expect((await refusal('a: &a [*a]\n')).code).toMatch(/^INPUT_/);
  });

  it('refuses 10,000-deep JSON arrays with exit 2 and the place where the limit is passed', async () => {
    const error = await refusal(`{"fields": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'fields.json');
    expect(error.code).toBe('INPUT_TOO_DEEP');
    expect(error.message).toMatch(new RegExp(`^fields\\.json:1:\\d+: nested more than ${MAX_NESTING_DEPTH} levels deep`));
  });

  it('refuses deeply nested block YAML and compact sequences', async () => {
    const block = Array.from({ length: 500 }, (_, depth) => `${' '.repeat(depth)}a:`).join('\n') + '\n';
    expect((await refusal(block)).code).toBe('INPUT_TOO_DEEP');
    expect((await refusal(`${'- '.repeat(10_000)}x\n`)).code).toBe('INPUT_TOO_DEEP');
  });

  it('refuses depth built from aliases', async () => {
    // Each part is within the limit in the text; the alias puts one inside the other.
    const deep = `${'['.repeat(MAX_NESTING_DEPTH - 4)}x${']'.repeat(MAX_NESTING_DEPTH - 4)}`;
    const error = await refusal(`deep: &d ${deep}\nuse: [[[[[[*d]]]]]]\n`);
    expect(error.code).toBe('INPUT_TOO_DEEP');
    expect(error.message).toContain('once its aliases are expanded');
  });

  it(`reads nesting up to ${MAX_NESTING_DEPTH} levels`, async () => {
    const depth = MAX_NESTING_DEPTH;
    const input = await parseStructured(`${'['.repeat(depth)}1${']'.repeat(depth)}`, 'ok.json');
    let value = input.data;
    for (let level = 0; level < depth; level++) value = (value as unknown[])[0];
    expect(value).toBe(1);
  });

  it('refuses a second YAML document', async () => {
    const error = await refusal('a: 1\n---\nb: 2\n');
    expect(error.code).toBe('INPUT_SYNTAX');
    expect(error.message).toMatch(/^input\.yaml:3:1: more than one document/);
  });
});

describe('parseStructured of JSON', () => {
  // A YAML comment first sends the same JSON through the YAML parser: both ways must read the same data.
  const throughYaml = (json: string) => parseStructured(`# yaml\n${json}`, 'input.yaml');

  it('reads any JSON value as the YAML parser reads it', async () => {
    const { default: fc } = await import('fast-check');
    const json = fc.jsonValue({ maxDepth: 6 }).filter((value) => typeof value === 'object' && value !== null);
    await fc.assert(
      fc.asyncProperty(json, fc.constantFrom(undefined, 2), async (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect((await parseStructured(text, 'input.json')).data).toStrictEqual((await throughYaml(text)).data);
      }),
      { numRuns: 200 },
    );
  });

  it('points at values by line and column, as for YAML', async () => {
    const text = '{\n  "title": "x",\n  "participants": [\n    {"name": "Ada"},\n    {"name": 7}\n  ]\n}\n';
    const input = await parseStructured(text, 'spec.json');
    expect(input.locate(['participants', 1, 'name'])).toBe('spec.json:5:14');
    expect(input.locate(['participants', 1, 'email'])).toBe('spec.json:5:5');
    expect(input.find(['missing'])).toBeUndefined();
    expect(input.locate([])).toBe('spec.json:1:1');
  });

  it('refuses a key written twice (JSON.parse would keep the last) with its place', async () => {
    const error = await refusal('{"title": "a",\n "title": "b"}', 'spec.json');
    expect(error.code).toBe('INPUT_SYNTAX');
    expect(error.message).toMatch(/^spec\.json:2:2: Map keys must be unique/);
    // A colon inside a string is not a key.
    expect((await parseStructured('{"a": "b:c", "d": "\\":"}', 'ok.json')).data).toStrictEqual({ a: 'b:c', d: '":' });
  });

  it('refuses a JSON syntax error with its place', async () => {
    const error = await refusal('{"title": "a",\n "x": [1}', 'spec.json');
    expect(error.code).toBe('INPUT_SYNTAX');
    expect(error.message).toMatch(/^spec\.json:2:\d+: /);
  });
});

describe('validateInput messages for a value of the wrong kind', () => {
  const schema = z.strictObject({ title: z.string(), people: z.array(z.strictObject({ name: z.string({ error: 'name is required' }) })) });
  const problems = async (text: string): Promise<string[]> => {
    try {
      validateInput(await parseStructured(text, 'spec.yaml'), schema);
    } catch (error) {
      return (error as UsageError).message.split('\n');
    }
    return [];
  };

  it('says a missing key is required, and names both kinds for a value of another kind', async () => {
    expect(await problems('people:\n  - name: [A]\n  - {}\n')).toEqual([
      'spec.yaml:1:1: title: required, but missing',
      'spec.yaml:2:11: people[0].name: expected text, found a list',
      'spec.yaml:3:5: people[1].name: required, but missing',
    ]);
  });

  it('says an empty file is empty', async () => {
    expect(await problems('# only a comment\n')).toEqual(['spec.yaml:1:1: the file is empty; expected a mapping']);
  });
});

describe('validateInput says every kind of zod issue as a sentence, with what is accepted and what was found', () => {
  const schema = z.strictObject({
    count: z.number().optional(),
    page: z.int().min(1).optional(),
    when: z.union([z.string(), z.date()]).optional(),
    deadline: z.union([z.string(), z.date()], { error: 'expected a date-time or a duration' }).optional(),
    kind: z.enum(['A', 'B']).optional(),
    name: z.string().max(3).optional(),
    list: z.array(z.string()).min(2).optional(),
    step: z.number().multipleOf(5).optional(),
    mail: z.email().optional(),
  });
  const problem = async (text: string): Promise<string> => {
    try {
      validateInput(await parseStructured(text, 'spec.yaml'), schema);
    } catch (error) {
      return (error as UsageError).message.replace(/^spec\.yaml:\d+:\d+: /, '');
    }
    throw new Error('valid');
  };

  it.each([
    ['count: .nan', 'count: expected a number, found not a number (.nan)'],
    ['count: 1e400', 'count: expected a number, found an infinite number (.inf, or a number too large to hold, such as 1e400)'],
    ['page: 1.5', 'page: expected a whole number, found a number (1.5)'],
    ['page: 99999999999999999999999', 'page: too large: must be at most 9007199254740991, found 1e+23'],
    ['page: 0', 'page: too small: must be at least 1, found 0'],
    ['when: null', 'when: expected text or a date, found nothing (null)'],
    ['when: [1]', 'when: expected text or a date, found a list'],
    ['deadline: 7', 'deadline: expected a date-time or a duration; found a whole number (7)'],
    ['kind: C', 'kind: must be one of "A", "B", found "C"'],
    ['name: abcd', 'name: too large: must be at most 3 characters long'],
    ['list: [a]', 'list: too small: must be a list of at least 2 items'],
    ['step: 7', 'step: must be a multiple of 5, found 7'],
    ['mail: x', 'mail: must be a valid email'],
  ])('%s', async (text, says) => {
    const message = await problem(`${text}\n`);
    expect(message).toBe(says);
    expect(message).not.toMatch(/Invalid input|Too big|Too small|expected int|<=/);
  });
});
