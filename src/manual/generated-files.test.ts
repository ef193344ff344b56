import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from './generated-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = await generatedFiles();

describe('files generated from the command tree and the operation table', () => {
  it.each(Object.keys(files))('%s is what the generator makes now', (path) => {
    const command = path.startsWith('completions/') ? 'npm run completions' : 'npm run docs';
    const committed = readFileSync(join(root, path), 'utf8');
    expect(committed === files[path], `${path} is out of date with the code it is generated from: run \`${command}\` and commit the result`).toBe(true);
  });
});
