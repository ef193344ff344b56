// `npm run build:binary`: esign as one executable that needs no Node, dist/bin/esign-<platform>-<arch>[.exe], made with
// Node's single executable application support from the official Node 24 binary (npm package node-<platform>-<arch>).
//   1. esbuild bundles src/ with every dependency into one CommonJS file (a SEA's main must be one script that
//      require()s nothing but Node's built-in modules);
//   2. that Node writes the preparation blob: the bundle, its V8 code cache, and the assets the bundle cannot hold
//      (the keyring's native addon, pdfjs's CMaps);
//   3. postject injects the blob into a copy of that Node binary.
// Run it on the platform you build for (macOS: `codesign` signs the result ad hoc; Windows: sign it yourself if you
// distribute it). See README.md, "A single executable".
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { fetchNode } from './fetch-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { platform, arch } = process;

/** Asset names the bundle reads them under: src/sea/keyring.ts and src/pdf/pdfjs.ts. */
const KEYRING_ASSET = 'keyring.node';
const CMAP_ASSET_PREFIX = 'pdfjs-cmaps/';

/** @napi-rs/keyring's addon for this platform, from its per-platform package (an optional dependency of it). */
function keyringAddon() {
  const suffix = { linux: `linux-${arch}-gnu`, darwin: `darwin-${arch}`, win32: `win32-${arch}-msvc` }[platform];
  if (!suffix) throw new Error(`no @napi-rs/keyring addon is known for ${platform}`);
  const keyringDir = dirname(require.resolve('@napi-rs/keyring/package.json'));
  return createRequire(join(keyringDir, 'index.js')).resolve(`@napi-rs/keyring-${suffix}/keyring.${suffix}.node`);
}

/**
 * pdfjs tries to load @napi-rs/canvas when it is imported, for rendering esign never does, and warns on stderr when
 * that fails, which it always does in the executable. esign asks pdfjs for errors only (src/pdf/text.ts); the bundle
 * starts pdfjs at that level so these warnings, printed before any option can be passed, stay quiet too.
 */
const pdfjsErrorsOnly = {
  name: 'pdfjs-errors-only',
  setup(builder) {
    builder.onLoad({ filter: /pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf\.mjs$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const initial = 'let verbosity = VerbosityLevel.WARNINGS;';
      if (!source.includes(initial)) throw new Error(`${path} no longer starts with "${initial}": update scripts/build-binary.mjs`);
      return { contents: source.replace(initial, 'let verbosity = VerbosityLevel.ERRORS;'), loader: 'js' };
    });
  },
};

/**
 * Runs before the bundle's modules. `esign --version` answers here, as bin/esign.cjs does under Node, without running
 * the module set-up (a CommonJS main may `return`). The executable's own path stands in for the module URL that
 * pdfjs builds a require from (one that finds nothing, as it should).
 */
const prelude = [
  `if (process.argv.length === 3 && ['--version', '-v'].includes(process.argv[2])) { process.stdout.write(${JSON.stringify(`${pkg.version}\n`)}); return; }`,
  'const __esignModuleUrl = require("node:url").pathToFileURL(__filename).href;',
].join('\n');

const work = mkdtempSync(join(tmpdir(), 'esign-binary-'));
try {
  const bundle = join(work, 'esign.cjs');
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    minify: true,
    // --debug stack traces, and fastify, which names plugins after their functions, keep readable names.
    keepNames: true,
    legalComments: 'none',
    define: { ESIGN_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__esignModuleUrl' },
    banner: { js: prelude },
    alias: { '@napi-rs/keyring': join(root, 'src', 'sea', 'keyring.ts') },
    plugins: [pdfjsErrorsOnly],
    logLevel: 'warning',
  });

  const cmapDir = join(dirname(require.resolve('pdfjs-dist/package.json')), 'cmaps');
  const assets = { [KEYRING_ASSET]: keyringAddon() };
  for (const name of readdirSync(cmapDir)) if (name.endsWith('.bcmap')) assets[`${CMAP_ASSET_PREFIX}${name}`] = join(cmapDir, name);
  const blob = join(work, 'esign.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }));

  const node = fetchNode('24');
  execFileSync(node, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

  const outDir = join(root, 'dist', 'bin');
  const output = join(outDir, `esign-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`);
  mkdirSync(outDir, { recursive: true });
  rmSync(output, { force: true });
  copyFileSync(node, output);
  chmodSync(output, 0o755);
  if (platform === 'darwin') execFileSync('codesign', ['--remove-signature', output]);
  const { inject } = require('postject');
  await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ...(platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
  if (platform === 'darwin') execFileSync('codesign', ['--sign', '-', output]);
  console.log(output);
} finally {
  rmSync(work, { recursive: true, force: true });
}
