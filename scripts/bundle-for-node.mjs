// One TypeScript entry bundled into one ESM file that Node runs from node_modules/.cache, its packages left external
// (they resolve from node_modules there): for build steps that run the program's own code (help pages, generated docs).
import { build } from 'esbuild';

export async function bundleForNode(entryPoint, outfile) {
  await build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    banner: { js: "import { createRequire as __esignCreateRequire } from 'node:module'; const require = __esignCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}
