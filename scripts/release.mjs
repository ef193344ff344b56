// `npm run release [-- --out <dir>]`: everything a CI job in another repository installs esign from, in one folder
// (default release/, which git ignores), as docs/ci.md's "Install esign" steps use it:
//   esign-<version>.tgz                       `npm install -g ./esign-<version>.tgz`, or `npx --package` it
//   esign-<version>-<platform>-<arch>[.exe]   the single executable (scripts/build-binary.mjs): download, chmod, run
//   esign-<version>.cdx.json                  the CycloneDX SBOM of the production dependencies (`npm sbom`)
//   SHA256SUMS                                `sha256sum -c SHA256SUMS`
// The executable is built unless dist/bin holds one newer than every file it is built from (.ci/run builds it first).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'release');
if (!out) throw new Error('--out needs a folder');
const { platform, arch } = process;
const executableName = `esign-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`;
const builtExecutable = join(root, 'dist', 'bin', executableName);
const npm = (args, options = {}) => execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });

/** The newest modification time under `path` (a file or a folder). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function executableIsStale() {
  if (!existsSync(builtExecutable)) return true;
  const sources = ['src', 'scripts/build-binary.mjs', 'scripts/binary-program.cjs', 'package.json', 'package-lock.json'].map((path) => newest(join(root, path)));
  return statSync(builtExecutable).mtimeMs < Math.max(...sources);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The tarball the registry would get. The build prepack would run is run only when dist/ is older than src/, so that
// a release made while tests run (test/ci-recipes.test.ts) does not rewrite the dist/ they run.
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out]));
if (executableIsStale()) execFileSync(process.execPath, [join(root, 'scripts', 'build-binary.mjs')], { cwd: root, stdio: 'inherit' });
const executable = `esign-${pkg.version}-${executableName.slice('esign-'.length)}`;
copyFileSync(builtExecutable, join(out, executable));

/**
 * The lockfile paths of the packages a production install has: the root's dependencies and, from each package found,
 * its own (dependencies, optional ones, peers that are not optional), each resolved as Node does (its own
 * node_modules, then upwards).
 */
function productionPaths(lock) {
  const { packages } = lock;
  const resolve = (from, name) => {
    for (let base = from; ; base = base.includes('/node_modules/') ? base.slice(0, base.lastIndexOf('/node_modules/')) : '') {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
    }
  };
  const kept = new Set();
  const visit = (path) => {
    if (kept.has(path)) return;
    kept.add(path);
    const entry = packages[path];
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
    for (const name of [...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }), ...peers]) {
      const found = resolve(path, name);
      if (found) visit(found);
    }
  };
  visit('');
  return kept;
}

// `npm sbom --omit dev` also drops a production package that a dev dependency uses too (commander here; npm/cli#7909):
// the whole tree is asked for, and kept are the components a production install has, by the lockfile.
const sbom = JSON.parse(npm(['sbom', '--sbom-format', 'cyclonedx']));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const shipped = new Set([...productionPaths(lock)].filter(Boolean).map((path) => `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${lock.packages[path].version}`));
shipped.add(sbom.metadata.component['bom-ref']);
sbom.components = sbom.components.filter((component) => shipped.has(component['bom-ref']));
sbom.dependencies = sbom.dependencies.filter((entry) => shipped.has(entry.ref)).map((entry) => ({ ...entry, dependsOn: (entry.dependsOn ?? []).filter((ref) => shipped.has(ref)) }));
// npm names the root component after the folder it runs in (a clone may be called anything): the package's name instead.
sbom.metadata.component.name = pkg.name;
const sbomFile = `esign-${pkg.version}.cdx.json`;
writeFileSync(join(out, sbomFile), `${JSON.stringify(sbom, null, 2)}\n`);

const files = [packed.filename, executable, sbomFile];
const sums = files.map((file) => `${createHash('sha256').update(readFileSync(join(out, file))).digest('hex')}  ${file}\n`).join('');
writeFileSync(join(out, 'SHA256SUMS'), sums);
for (const file of [...files, 'SHA256SUMS']) console.log(relative(process.cwd(), join(out, file)) || file);
