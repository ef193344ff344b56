// Bundles src/ into dist/esign.js. Heavy dependencies stay external and are imported only by the commands that use
// them, so `esign --version` and `--help` parse one small file.
import { mkdirSync, readFileSync, rmSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { bundleForNode } from './bundle-for-node.mjs';
import { pdfjsForText } from './pdfjs-for-text.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = join(root, 'dist', 'esign.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function isStale() {
  try {
    const built = statSync(outfile).mtimeMs;
    return newestSource(join(root, 'src')) > built || statSync(join(root, 'package.json')).mtimeMs > built;
  } catch {
    return true;
  }
}

/**
 * The full zod stays a package, imported by the commands that check input files; `zod/mini`, which checks every API
 * answer, is bundled into the client's chunk: the part it uses, one file, no package resolution at start-up.
 */
const zodClassicExternal = {
  name: 'zod-classic-external',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, (args) => ({ path: args.path, external: true }));
  },
};

if (!process.argv.includes('--if-stale') || isStale()) {
  // dist/bin holds the single executable (scripts/build-binary.mjs), which this build does not make.
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (const name of readdirSync(join(root, 'dist'))) if (name !== 'bin') rmSync(join(root, 'dist', name), { recursive: true, force: true });
  await build({
    entryPoints: { esign: join(root, 'src', 'main.ts'), 'pdf-text-worker': join(root, 'src', 'pdf', 'text-worker.ts') },
    outdir: join(root, 'dist'),
    // Code reached only through a dynamic import (the emulator, the PDF module, most command work) goes to chunks
    // loaded on first use, so `esign --version` compiles only the command tree.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    legalComments: 'none',
    define: { ESIGN_VERSION: JSON.stringify(pkg.version) },
    external: [
      '@inquirer/prompts',
      '@napi-rs/keyring',
      'cosmiconfig',
      'fastify',
      'fflate',
      'ora',
      'pdf-lib',
      'pdfjs-dist',
      'standardwebhooks',
      'undici',
      'yaml',
    ],
    plugins: [zodClassicExternal],
    // commander is CommonJS: give the ESM bundle a require for its node: imports.
    banner: { js: "import { createRequire as __esignCreateRequire } from 'node:module'; const require = __esignCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The PDF engine (bin/pdf-engine.cjs): pdfjs as one CommonJS module, changed for reading text, and V8's code cache
  // of it reading a document, for the Node that builds.
  const engine = join(root, 'dist', 'pdf-engine.cjs');
  await build({
    stdin: {
      contents: "export * as library from 'pdfjs-dist/legacy/build/pdf.mjs'; export * as worker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';",
      resolveDir: root,
      sourcefile: 'pdf-engine.js',
    },
    outfile: engine,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20.19',
    legalComments: 'none',
    // bin/pdf-engine.cjs reads the engine as Latin-1, which is the same text only for ASCII.
    charset: 'ascii',
    // pdfjs's own module URL, which it builds a require from, is the engine's.
    define: { 'import.meta.url': '__pdfjsModuleUrl' },
    banner: { js: 'const __pdfjsModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [pdfjsForText],
    logLevel: 'warning',
  });
  execFileSync(process.execPath, [join(root, 'scripts', 'pdf-engine-cache.cjs'), engine], { stdio: 'inherit' });
  // Every help page, as the program itself prints it, for bin/help-pages.cjs to answer `--help` at once: the program
  // runs each command line in a process of its own (scripts/help-pages.ts, bundled with the packages left external,
  // under node_modules where they resolve), so whatever the command framework prints is what the file holds.
  const helpPagesScript = join(root, 'node_modules', '.cache', 'esign', 'help-pages.mjs');
  await bundleForNode(join(root, 'scripts', 'help-pages.ts'), helpPagesScript);
  const helpPages = execFileSync(process.execPath, [helpPagesScript], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  writeFileSync(join(root, 'dist', 'help.json'), helpPages);
}
