// Bundles src/ into dist/program/esign.cjs (the program: one CommonJS script that bin/program.cjs compiles with V8's
// code cache) and dist/program/pdf-text-worker.js (the PDF reader threads, ES modules), pdfjs into
// dist/pdf-engine.cjs (bin/pdf-engine.cjs), and the packages of bin/program.cjs's PACKAGE_SCRIPTS (yaml and zod, fastify,
// prompts, ora, pdf-lib) into scripts of their own. Other heavy dependencies stay external and are imported only by the
// commands that use them.
import { mkdirSync, readFileSync, rmSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { bundleForNode } from './bundle-for-node.mjs';
import { chalkForEsign, commanderForEsign } from './packages-for-esign.mjs';
import { pdfjsForText } from './pdfjs-for-text.mjs';
import programModule from '../bin/program.cjs';

const { PACKAGE_SCRIPTS } = programModule;

const root = fileURLToPath(new URL('..', import.meta.url));
const programFile = join(root, 'dist', 'program', 'esign.cjs');
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
    const built = statSync(programFile).mtimeMs;
    return newestSource(join(root, 'src')) > built || statSync(join(root, 'package.json')).mtimeMs > built;
  } catch {
    return true;
  }
}

const externalPackages = [
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
];

/**
 * The program's import() of a package or built-in module, as `__esignImport(…)`: Node 20 runs no import() in a script
 * compiled by vm, where the program runs, so bin/program.cjs passes one that Node runs. Run as a module instead (Node
 * 22.1+ without the build's code cache), the program's own import() is used (the banner).
 */
function importsThroughHost(text) {
  const replaced = text.replaceAll(/\bimport\(("(?:node:[\w/]+|(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]+)?)")\)/g, '__esignImport($1)');
  const left = /\bimport\((?!specifier\))/.exec(replaced);
  if (left) throw new Error(`the program keeps an import() that bin/program.cjs cannot run: ${replaced.slice(left.index, left.index + 80)}`);
  return replaced;
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
  // The program: one script, in dist/program/ with the reader threads' module, both finding the PDF engine at
  // `../pdf-engine.cjs` (src/pdf/pdfjs.ts). What a command reaches only through a dynamic import (the emulator, the
  // PDF module, most command work) is evaluated on first use; the code cache holds what a small local search compiles.
  const [program] = (
    await build({
      entryPoints: [join(root, 'src', 'main.ts')],
      outfile: programFile,
      write: false,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20.19',
      // bin/program.cjs reads the program as Latin-1, which is the same text only for ASCII.
      charset: 'ascii',
      legalComments: 'none',
      define: { ESIGN_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__esignModuleUrl' },
      external: externalPackages,
      plugins: [zodClassicExternal, commanderForEsign, chalkForEsign],
      banner: { js: 'var __esignImport = __esignImport ?? ((specifier) => import(specifier)); const __esignModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
      logLevel: 'warning',
    })
  ).outputFiles;
  mkdirSync(dirname(programFile), { recursive: true });
  writeFileSync(programFile, importsThroughHost(program.text));
  // The PDF reader threads' module, beside the program (src/pdf/text.ts finds it there).
  await build({
    entryPoints: { 'pdf-text-worker': join(root, 'src', 'pdf', 'text-worker.ts') },
    outdir: dirname(programFile),
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    legalComments: 'none',
    external: externalPackages,
    plugins: [zodClassicExternal],
    // commander is CommonJS: give the ESM bundle a require for its node: imports.
    banner: { js: "import { createRequire as __esignCreateRequire } from 'node:module'; const require = __esignCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The PDF engine (bin/pdf-engine.cjs): pdfjs as one CommonJS module, changed for reading text, and V8's code cache
  // of it reading a document, for the Node that builds. The legacy build's library, evaluated first, polyfills what
  // Node 20 lacks for the modern build's worker, which brings no polyfills of its own (scripts/pdfjs-for-text.mjs).
  const engine = join(root, 'dist', 'pdf-engine.cjs');
  await build({
    stdin: {
      contents: "export * as library from 'pdfjs-dist/legacy/build/pdf.mjs'; export * as worker from 'pdfjs-dist/build/pdf.worker.mjs';",
      resolveDir: root,
      sourcefile: 'pdf-engine.js',
    },
    outfile: engine,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20.19',
    legalComments: 'none',
    // Without its indentation, comments and long local names the engine is half the size: read on every start of a
    // command that reads a PDF. pdfjs depends on no function's or class's name, and src/pdf/pdfjs-budgets.ts finds
    // pdfjs's classes by the methods they bring.
    minifyWhitespace: true,
    minifyIdentifiers: true,
    // bin/pdf-engine.cjs reads the engine as Latin-1, which is the same text only for ASCII.
    charset: 'ascii',
    // pdfjs's own module URL, which it builds a require from, is the engine's.
    define: { 'import.meta.url': '__pdfjsModuleUrl' },
    banner: { js: 'const __pdfjsModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [pdfjsForText],
    logLevel: 'warning',
  });
  execFileSync(process.execPath, [join(root, 'scripts', 'pdf-engine-cache.cjs'), engine], { stdio: 'inherit' });
  // The packages scripts (bin/program.cjs): the packages a command imports, each script's as one CommonJS script, for
  // the program's import() of them, with V8's code cache of it recorded while a command used them.
  for (const [stem, names] of Object.entries(PACKAGE_SCRIPTS)) {
    await build({
      stdin: {
        contents: `${names.map((name, index) => `import * as p${index} from '${name}';`).join(' ')} export const packages = { ${names.map((name, index) => `'${name}': p${index}`).join(', ')} };`,
        resolveDir: root,
        // As an ES module of its own (.mjs), esbuild gives a CommonJS package the namespace Node's import() gives it: its
        // module.exports as `default`, whatever its __esModule flag says (pdf-lib has one).
        sourcefile: `${stem}.mjs`,
      },
      outfile: join(root, 'dist', `${stem}.cjs`),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20.19',
      legalComments: 'none',
      // bin/program.cjs reads it as Latin-1, which is the same text only for ASCII.
      charset: 'ascii',
      logLevel: 'warning',
    });
  }
  execFileSync(process.execPath, [join(root, 'scripts', 'program-cache.cjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (const stem of Object.keys(PACKAGE_SCRIPTS)) execFileSync(process.execPath, [join(root, 'scripts', 'program-cache.cjs'), stem], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Every help page, as the program itself prints it, for bin/help-pages.cjs to answer `--help` at once: the program
  // runs each command line in a process of its own (scripts/help-pages.ts, bundled with the packages left external,
  // under node_modules where they resolve), so whatever the command framework prints is what the file holds.
  const helpPagesScript = join(root, 'node_modules', '.cache', 'esign', 'help-pages.mjs');
  await bundleForNode(join(root, 'scripts', 'help-pages.ts'), helpPagesScript);
  const helpPages = execFileSync(process.execPath, [helpPagesScript], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  writeFileSync(join(root, 'dist', 'help.json'), helpPages);
}
