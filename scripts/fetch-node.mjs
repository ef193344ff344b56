// Prints the path of a Node.js binary of the given major version (default 24) for this machine, installing the npm
// package node-<platform>-<arch>@<major> into node_modules/.cache/esign-node/<major> when it is not there yet.
// Used by `npm run build:binary` (the single executable is made from it) and by CI (the packed install is tested
// under it): `node scripts/fetch-node.mjs 24`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The npm package that holds Node's binary for a platform and architecture, and where the binary is in it. */
export function nodePackage(platform = process.platform, arch = process.arch) {
  const name = `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
  return { name, binary: platform === 'win32' ? join('bin', 'node.exe') : join('bin', 'node') };
}

export function fetchNode(major = '24') {
  const directory = join(root, 'node_modules', '.cache', 'esign-node', major);
  const { name, binary } = nodePackage();
  const path = join(directory, 'node_modules', name, binary);
  if (!existsSync(path)) {
    mkdirSync(directory, { recursive: true });
    // The tarball is the official build; npm's cache makes a second install offline.
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', directory, `${name}@${major}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    if (!existsSync(path)) throw new Error(`${name}@${major} installed, but ${path} is not there`);
  }
  return path;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(fetchNode(process.argv[2]));
}
