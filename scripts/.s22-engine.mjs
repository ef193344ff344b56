import { build } from 'esbuild';
import { pdfjsForText } from './pdfjs-for-text.mjs';
const [out, contents, minify] = process.argv.slice(2);
await build({
  stdin: { contents, resolveDir: '/work/main', sourcefile: 'pdf-engine.js' },
  outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20.19', legalComments: 'none',
  minifyWhitespace: minify === '1', minifyIdentifiers: minify === '1', charset: 'ascii',
  define: { 'import.meta.url': '__pdfjsModuleUrl' },
  banner: { js: 'const __pdfjsModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: process.env.NOPLUG ? [] : [pdfjsForText], logLevel: 'warning',
});
