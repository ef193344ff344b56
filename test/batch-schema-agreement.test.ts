/**
 * The JSON Schema of batch files (schema/esign-batch.schema.json, what editors check with) refuses what `esign batch
 * validate` refuses, wherever JSON Schema can say it: the same invalid specs go to ajv (JSON Schema 2020-12, a
 * validator esign does not use itself) and to the built binary, and both must refuse each; the valid spec they are
 * made from passes both, so a refusal is for the one thing wrong.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runEsign, tempDir } from './support/cli.js';
import { DOCUMENT_FILE, invalidSpecs, validSpec } from './support/invalid-batch-specs.js';
import { simplePdf } from './support/pdfs.js';

const schema = JSON.parse(readFileSync(join(repoRoot, 'schema', 'esign-batch.schema.json'), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-schema-agreement-');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, DOCUMENT_FILE), await simplePdf({ pages: [['Signature']] }));
});

async function batchValidate(name: string, spec: unknown) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return runEsign(['batch', 'validate', file], { cwd: dir });
}

describe('the batch JSON Schema and `esign batch validate` agree', () => {
  it('both accept the valid spec the invalid ones are made from', async () => {
    expect(validate(validSpec), JSON.stringify(validate.errors)).toBe(true);
    const checked = await batchValidate('valid', validSpec);
    expect(checked.code, checked.stderr).toBe(0);
  });

  it.each(invalidSpecs.map(([reason, spec], index) => [reason, spec, index] as const))('both refuse %s', async (_reason, spec, index) => {
    expect(validate(spec), 'ajv accepted it').toBe(false);
    const checked = await batchValidate(`invalid-${index}`, spec);
    expect(checked.code, checked.stdout).toBe(2);
  });
});
