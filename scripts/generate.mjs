// `npm run completions` and `npm run docs`: writes completions/ and docs/commands.md from the command tree (and with
// docs, docs/openapi.json and the emulator's template PDFs, src/emulator/template-pdfs.ts). The
// command modules are TypeScript, so src/manual/generated-files.ts is bundled first (esbuild, dependencies left external)
// into node_modules/.cache, where those dependencies resolve.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode } from './bundle-for-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const prefixes = { completions: ['completions/'], docs: ['docs/', 'src/emulator/'] };
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in prefixes));
if (unknown.length || !wanted.length) {
  console.error(`usage: node scripts/generate.mjs ${Object.keys(prefixes).join('|')}...`);
  process.exitCode = 2;
} else {
  const bundle = join(root, 'node_modules', '.cache', 'esign', 'generated-files.mjs');
  mkdirSync(dirname(bundle), { recursive: true });
  await bundleForNode(join(root, 'src', 'manual', 'generated-files.ts'), bundle);
  const { generatedFiles } = await import(pathToFileURL(bundle).href);
  for (const [path, text] of Object.entries(await generatedFiles())) {
    if (!wanted.some((name) => prefixes[name].some((prefix) => path.startsWith(prefix)))) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
}
