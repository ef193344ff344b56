// `npm run build:binary`: esign as one executable that needs no Node, dist/bin/esign-<platform>-<arch>[.exe], made with
// Node's single executable application support from the official Node 24 binary (npm package node-<platform>-<arch>).
//   1. esbuild bundles src/ with every dependency into one CommonJS program (inside the executable, `require` loads
//      Node's built-in modules only); TypeScript, which only a trusted esign.config.ts needs, goes into one of its own;
//   2. that Node runs the program as the executable will (scripts/binary-program.cjs): for the help text, and for
//      V8's code cache of `esign me` against an emulator the program starts, so a command starts without compiling;
//   3. esbuild bundles the executable's main, src/sea/main.ts: a few lines, so that `--version` starts as fast as
//      Node itself; the program, its code cache, TypeScript, the keyring's native addon and pdfjs's CMaps are assets;
//   4. that Node writes the preparation blob, and postject injects it into a copy of that Node binary.
// Run it on the platform you build for (macOS: `codesign` signs the result ad hoc; Windows: sign it yourself if you
// distribute it). See README.md, "A single executable".
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { fetchNode } from './fetch-node.mjs';
import { pdfjsForText } from './pdfjs-for-text.mjs';
import { commanderForEsign } from './packages-for-esign.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { platform, arch } = process;

/** Asset names the executable reads them under: src/sea/main.ts, src/sea/typescript.ts, src/sea/keyring.ts, src/pdf/pdfjs.ts. */
const PROGRAM_ASSET = 'esign.js';
const PROGRAM_CODE_CACHE_ASSET = 'esign.js.cache';
const TYPESCRIPT_ASSET = 'typescript.js';
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
 * `await import('node:fs/promises')` (src/ loads some built-in modules lazily) would stay an import() in the CommonJS
 * program, which the executable runs through vm with Node's default loader: Node then prints an ExperimentalWarning
 * (vm.USE_MAIN_CONTEXT_DEFAULT_LOADER) on the first command that takes that path (`batch run`, `envelopes download`).
 * Each such built-in becomes a bundled module that requires it, so no import() of a built-in is left.
 */
const builtinsRequired = {
  name: 'builtins-required',
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, ({ path, kind }) => (kind === 'dynamic-import' ? { path, namespace: 'builtin-required' } : undefined));
    builder.onLoad({ filter: /.*/, namespace: 'builtin-required' }, ({ path }) => ({ contents: `module.exports = require(${JSON.stringify(path)});`, loader: 'js' }));
  },
};

/** A CommonJS module's text as the function of Node's module parameters that src/sea/commonjs-asset.ts calls. */
function wrapCommonJs(file) {
  writeFileSync(file, `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`);
}

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node24', minify: true, legalComments: 'none', logLevel: 'warning' };
const node = fetchNode('24');
const work = mkdtempSync(join(tmpdir(), 'esign-binary-'));
const program = join(work, PROGRAM_ASSET);
/**
 * The program run by that Node as the executable runs it: in a scratch configuration with no keychain, none of the
 * caller's esign settings, and no NODE_OPTIONS (V8 refuses a code cache recorded under other V8 flags).
 */
const programEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ESIGN_') && name !== 'NODE_OPTIONS')),
  ESIGN_CONFIG_DIR: join(work, 'config'),
  ESIGN_NO_KEYRING: '1',
  NO_COLOR: '1',
};
const runProgram = (args, options = {}) =>
  execFileSync(node, [join(root, 'scripts', 'binary-program.cjs'), program, ...args], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options, env: { ...programEnv, ...options.env } });

/** The emulator, served by the program itself; resolves with its address and key once it listens. */
function startEmulator() {
  const child = spawn(node, [join(root, 'scripts', 'binary-program.cjs'), program, '--json', 'emulator', '--port', '0'], { cwd: work, env: programEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      try {
        const { url, keys } = JSON.parse(out);
        resolve({ url, key: keys[0], stop: () => child.kill('SIGTERM') });
      } catch {
        // not all of it yet
      }
    });
    child.on('exit', (code) => reject(new Error(`the program's emulator exited (${code}) before it listened`)));
  });
}

/**
 * postject's LIEF (WebAssembly) reports, through console.warn, each ELF section of Node's binary whose name it does not
 * find in the section name table: `.note.100` and `.note`, 9 lines on Linux x64 (nodejs/postject#83,
 * lief-project/LIEF#816). It only reads those names; the executable is injected and runs as it should (the single
 * executable tests run it). Those lines are counted into one that says so; any other warning is printed as it is.
 */
const KNOWN_LIEF_NOTE = /^warning: Can't find string offset for section name '\.note(\.\d+)?'$/;
async function injectBlob(output, blob) {
  const { inject } = require('postject');
  const warn = console.warn;
  let known = 0;
  // Replaced before the first inject: LIEF's module binds console.warn when it is instantiated.
  console.warn = (...parts) => (parts.length === 1 && KNOWN_LIEF_NOTE.test(String(parts[0])) ? known++ : warn(...parts));
  try {
    await inject(output, 'NODE_SEA_BLOB', blob, {
      sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
      ...(platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
  } finally {
    console.warn = warn;
  }
  if (known) console.log(`postject: ${known} notes that Node's .note sections have no name in its section name table (harmless, nodejs/postject#83)`);
}

try {
  await build({
    ...common,
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile: program,
    // --debug stack traces, and fastify, which names plugins after their functions, keep readable names.
    keepNames: true,
    define: { ESIGN_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__esignModuleUrl' },
    // The executable's own path stands in for the module URL that pdfjs builds a require from (one that finds nothing,
    // as it should).
    banner: { js: 'const __esignModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    alias: { '@napi-rs/keyring': join(root, 'src', 'sea', 'keyring.ts'), typescript: join(root, 'src', 'sea', 'typescript.ts') },
    plugins: [pdfjsForText, commanderForEsign, builtinsRequired],
  });
  wrapCommonJs(program);
  const typescript = join(work, TYPESCRIPT_ASSET);
  await build({ ...common, entryPoints: [require.resolve('typescript')], outfile: typescript });
  wrapCommonJs(typescript);

  const help = runProgram(['--help']);
  const codeCache = join(work, PROGRAM_CODE_CACHE_ASSET);
  const emulator = await startEmulator();
  try {
    runProgram(['me'], { stdio: 'ignore', env: { ESIGN_CODE_CACHE_OUT: codeCache, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key } });
  } finally {
    emulator.stop();
  }

  const main = join(work, 'main.cjs');
  await build({ ...common, entryPoints: [join(root, 'src', 'sea', 'main.ts')], outfile: main, define: { ESIGN_VERSION: JSON.stringify(pkg.version), ESIGN_HELP: JSON.stringify(help) } });

  const cmapDir = join(dirname(require.resolve('pdfjs-dist/package.json')), 'cmaps');
  const assets = { [PROGRAM_ASSET]: program, [PROGRAM_CODE_CACHE_ASSET]: codeCache, [TYPESCRIPT_ASSET]: typescript, [KEYRING_ASSET]: keyringAddon() };
  for (const name of readdirSync(cmapDir)) if (name.endsWith('.bcmap')) assets[`${CMAP_ASSET_PREFIX}${name}`] = join(cmapDir, name);
  const blob = join(work, 'esign.blob');
  const config = join(work, 'sea-config.json');
  // The main is a few lines: Node's code cache for it would save nothing. The program has its own (above).
  writeFileSync(config, JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false, assets }));
  execFileSync(node, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

  const outDir = join(root, 'dist', 'bin');
  const output = join(outDir, `esign-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`);
  mkdirSync(outDir, { recursive: true });
  rmSync(output, { force: true });
  copyFileSync(node, output);
  chmodSync(output, 0o755);
  if (platform === 'darwin') execFileSync('codesign', ['--remove-signature', output]);
  await injectBlob(output, readFileSync(blob));
  if (platform === 'darwin') execFileSync('codesign', ['--sign', '-', output]);
  console.log(output);
} finally {
  rmSync(work, { recursive: true, force: true });
}
