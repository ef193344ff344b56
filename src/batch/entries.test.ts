import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ndaPdf } from '../../test/support/pdfs.js';
import { UsageError } from '../core/errors.js';
import { checkBatch } from './check.js';
import { mergeDefaults, readBatch } from './entries.js';
import { BatchInvalidError } from './entry.js';

let dir: string;
const noStdin = () => Readable.from([]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-batch-unit-'));
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

const validBatch = () => ({
  version: 1,
  defaults: { message: 'Please sign', documents: [{ ref: 'nda', file: 'nda.pdf' }] },
  envelopes: [
    {
      ref: 'one',
      title: 'One',
      participants: [{ ref: 'ada', name: 'Ada', email: 'ada@example.com' }],
      fields: [{ type: 'SIGNATURE', documentRef: 'nda', participantRef: 'ada', size: { width: 150, height: 40 }, anchor: { text: '{{signature}}', occurrence: 1 } }],
    },
    {
      ref: 'two',
      title: 'Two',
      via: 'send-now',
      participants: [{ ref: 'bob', name: 'Bob', email: 'bob@example.com', deliveryMethod: 'SMS', phoneNumber: '+33612345678' }],
      fields: [{ type: 'SIGNATURE', documentRef: 'nda', participantRef: 'bob', pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }],
    },
  ],
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Paths to every value of a document, for mutations to aim at. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => paths(item, [...prefix, index]))];
  if (value && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...prefix, key]))];
  return here;
}

function mutate(root: Json, path: (string | number)[], kind: number, replacement: Json, name: string): Json {
  const copy = structuredClone(root);
  if (path.length === 0) return replacement;
  const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string, Json>)[key as string] as Json, copy) as Record<string, Json> | Json[];
  const key = path[path.length - 1]!;
  if (kind === 0) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (kind === 1 && !Array.isArray(parent)) {
    const value = parent[key as string]!;
    delete parent[key as string];
    parent[name] = value;
  } else {
    (parent as Record<string, Json>)[key as string] = replacement;
  }
  return copy;
}

describe('batch specs under random mutation', () => {
  it('the valid spec is valid', async () => {
    writeFileSync(join(dir, 'valid.yaml'), stringify(validBatch()));
    const checked = await checkBatch(await readBatch([join(dir, 'valid.yaml')], noStdin()));
    expect(checked.map((entry) => entry.entry.ref)).toEqual(['one', 'two']);
  });

  it('either validates or fails with exit 2 and file:line:column for every problem, never anything else', async () => {
    const base = validBatch() as unknown as Json;
    const allPaths = paths(base);
    let counter = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...allPaths),
        fc.integer({ min: 0, max: 2 }),
        fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 })),
        fc.string({ minLength: 1, maxLength: 12 }),
        async (path, kind, replacement, name) => {
          const file = join(dir, `mutated-${counter++}.yaml`);
          writeFileSync(file, stringify(mutate(base, path, kind, replacement as Json, name)));
          try {
            await checkBatch(await readBatch([file], noStdin()), Date.parse('2026-01-01T00:00:00Z'));
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            expect((error as UsageError).exitCode).toBe(2);
            const problems = error instanceof BatchInvalidError ? error.problems : [{ where: (error as UsageError).message }];
            for (const problem of problems) expect(problem.where).toMatch(/mutated-\d+\.yaml:\d+(:\d+)?/);
          }
        },
      ),
      { numRuns: 80 },
    );
  }, 60_000);
});

describe('a batch of no envelope', () => {
  const spec = (each: string) => `ref: r\neach: ${each}\ntitle: T\n`;
  it.each([
    ['an empty file', 'empty.yaml', '', 'empty.yaml:1:1: no envelope spec'],
    ['a file of comments', 'comments.yaml', '# nothing\n# here\n', 'comments.yaml:1:1: no envelope spec'],
    ['a stream of empty documents', 'dashes.yaml', '---\n---\n', 'dashes.yaml:1:1: no envelope spec'],
    ['each: an empty CSV', 'each-empty.yaml', spec('empty.csv'), 'each-empty.yaml:2:7: each: empty.csv has no rows'],
    ['each: a CSV of only a header', 'each-header.yaml', spec('header.csv'), 'each-header.yaml:2:7: each: header.csv has no rows'],
    ['each: an empty YAML list', 'each-list.yaml', spec('rows.yaml'), 'each-list.yaml:2:7: each: rows.yaml has no rows'],
  ])('is refused, saying where: %s', async (_case, name, text, expected) => {
    writeFileSync(join(dir, 'empty.csv'), '');
    writeFileSync(join(dir, 'header.csv'), 'name,email\n');
    writeFileSync(join(dir, 'rows.yaml'), 'rows: []\n');
    writeFileSync(join(dir, name), text);
    const error = await readBatch([join(dir, name)], noStdin()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BatchInvalidError);
    expect((error as BatchInvalidError).problems.map((problem) => `${problem.where.replace(`${dir}/`, '')}: ${problem.message}`).join('\n')).toContain(expected);
  });

  it('is refused from /dev/null and from an empty standard input', async () => {
    for (const [path, stdin] of [['/dev/null', noStdin()], ['-', Readable.from([''])]] as const) {
      const error = await readBatch([path], stdin).catch((caught: unknown) => caught);
      expect((error as BatchInvalidError).problems[0]!.message, path).toContain('no envelope spec');
    }
  });
});

describe('mergeDefaults', () => {
  it('merges mappings key by key and lets the envelope replace lists and values', () => {
    expect(mergeDefaults({ message: 'a', documents: [1], deep: { x: 1, y: 2 } }, { documents: [2], deep: { y: 3 } })).toEqual({ message: 'a', documents: [2], deep: { x: 1, y: 3 } });
  });
});

describe('${{ env.X }} and ${{ row.X }} read what was set, never what every object inherits', () => {
  it.each([
    ['env.toString', 'environment variable toString is not set'],
    ['env.constructor', 'environment variable constructor is not set'],
    ["env['hasOwnProperty']", 'environment variable hasOwnProperty is not set'],
    ['row.toString', 'has no column "toString"'],
    ['row.__proto__', 'has no column "__proto__"'],
  ])('${{ %s }} is a problem at its place, not JavaScript function text', async (expression, expected) => {
    writeFileSync(join(dir, 'inherited-rows.yaml'), '- { company: Acme }\n');
    writeFileSync(join(dir, 'inherited.yaml'), `ref: r\neach: inherited-rows.yaml\ntitle: "NDA \${{ ${expression} }}"\n`);
    const error = await readBatch([join(dir, 'inherited.yaml')], noStdin(), { HOME: '/home/ada' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BatchInvalidError);
    const problems = (error as BatchInvalidError).problems.map((problem) => `${problem.where.replace(`${dir}/`, '')}: ${problem.message}`).join('\n');
    expect(problems).toContain(expected);
    expect(problems).toContain('inherited.yaml:3:');
    expect(problems).not.toContain('native code');
  });

  it('reads a variable that is set, from the environment given', async () => {
    writeFileSync(join(dir, 'own-env.yaml'), 'ref: r\ntitle: "NDA ${{ env.COMPANY }}"\nmessage: m\nparticipants: []\n');
    const entries = await readBatch([join(dir, 'own-env.yaml')], noStdin(), { COMPANY: 'Acme' }).catch((caught: unknown) => caught);
    expect(JSON.stringify(entries)).toContain('NDA Acme');
  });
});
