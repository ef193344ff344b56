// `npm run schema`: writes the JSON Schema of batch files, as the built `esign batch schema` prints it, to the file
// the package ships (schema/esign-batch.schema.json) and that the examples' `yaml-language-server` lines point at.
// test/batch-examples.test.ts fails when the committed file differs from what the command prints.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = execFileSync(process.execPath, [join(root, 'bin', 'esign.cjs'), 'batch', 'schema'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
mkdirSync(join(root, 'schema'), { recursive: true });
writeFileSync(join(root, 'schema', 'esign-batch.schema.json'), schema.endsWith('\n') ? schema : `${schema}\n`);
console.log('wrote schema/esign-batch.schema.json');
