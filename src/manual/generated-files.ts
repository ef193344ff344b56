import { openApiDocument } from '../emulator/openapi.js';
import { templatePdfsModule } from '../emulator/template-drawing.js';
import { completionFiles } from './completions.js';
import { commandsManual } from './manual.js';
import { loadCommandTree } from './tree.js';

/**
 * The files written from the command tree (and the contract's OpenAPI document, as `esign api --openapi` prints it, and
 * the emulator's seeded template PDFs), by
 * path from the repository root: `npm run completions` and `npm run docs`.
 */
export async function generatedFiles(): Promise<Record<string, string>> {
  const tree = await loadCommandTree();
  return {
    ...Object.fromEntries(Object.entries(completionFiles).map(([path, generate]) => [path, generate(tree)])),
    'docs/commands.md': commandsManual(tree),
    'docs/openapi.json': `${JSON.stringify(await openApiDocument(), null, 2)}\n`,
    'src/emulator/template-pdfs.ts': await templatePdfsModule(),
  };
}
