// Records V8's code caches of the program and of the input packages for scripts/build.mjs, each by running a command
// with it compiled from its text, under V8's default flags (V8 refuses a cache recorded under others), and writing the
// cache of every function compiled by then as the command exits, so that a command starts with what it needs compiled.
// What the run does not reach is compiled on first use, as before.
//   node scripts/program-cache.cjs                  the program (bin/program.cjs): `anchors find --local` on a
//                                                   small document
//   node scripts/program-cache.cjs input-packages   yaml and zod (bin/program.cjs): `fields check --local` of a YAML
//                                                   fields file with an anchored field on that document
// The command's answer goes to stdout.
'use strict';
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { compileInputPackages, compileProgram, inputPackagesCacheFile, packageImporter, programCacheFile } = require('../bin/program.cjs');
const { sampleDocument } = require('./pdf-engine-cache.cjs');

// Compiled from its text (no cache): the cache recorded then holds exactly what this run compiled.
const noCache = join(__dirname, 'no-such-cache');
const recordInputPackages = process.argv[2] === 'input-packages';
const program = compileProgram(recordInputPackages ? undefined : noCache);
const inputPackages = recordInputPackages ? compileInputPackages(noCache) : undefined;
const recorded = recordInputPackages ? { script: inputPackages.script, file: inputPackagesCacheFile() } : { script: program.script, file: programCacheFile() };
const args = recordInputPackages ? ['fields', 'check', '--local', 'sample.pdf', '--file', 'fields.yaml'] : ['--json', 'anchors', 'find', '--local', 'sample.pdf', '--text', 'ANCHOR'];
const FIELDS = ['fields:', '  - participantId: p1', '    type: SIGNATURE', '    anchor: { text: ANCHOR, occurrence: first, offset: { x: 0, y: -12 } }', '    size: { width: 150, height: 30 }', ''].join('\n');
const work = mkdtempSync(join(tmpdir(), 'esign-program-cache-'));

sampleDocument().then((bytes) => {
  writeFileSync(join(work, 'sample.pdf'), bytes);
  writeFileSync(join(work, 'fields.yaml'), FIELDS);
  process.chdir(work);
  process.on('exit', (code) => {
    rmSync(work, { recursive: true, force: true });
    if (code !== 0) return;
    writeFileSync(recorded.file, recorded.script.createCachedData());
  });
  process.argv = [process.argv[0], join(__dirname, '..', 'bin', 'esign.cjs'), ...args];
  program.run(packageImporter(() => inputPackages));
});
