import { completionFiles } from './completions.js';
import { commandsManual } from './manual.js';
import { loadCommandTree } from './tree.js';

/** The files written from the command tree, by path from the repository root: `npm run completions` and `npm run docs`. */
export async function generatedFiles(): Promise<Record<string, string>> {
  const tree = await loadCommandTree();
  return {
    ...Object.fromEntries(Object.entries(completionFiles).map(([path, generate]) => [path, generate(tree)])),
    'docs/commands.md': commandsManual(tree),
  };
}
