// Records V8's code cache of the program for scripts/build.mjs: compiles dist/program/esign.cjs as bin/program.cjs
// does, under V8's default flags (V8 refuses a cache recorded under others), runs `anchors find --local` on a small
// document with it, and writes the cache of every function compiled by then when the program exits, so that a
// command starts with what it needs compiled. What the search does not reach is compiled on first use, as before.
//   node scripts/program-cache.cjs   (writes the cache beside the program; the search's answer goes to stdout)
'use strict';
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { compileProgram, importPackage, programCacheFile } = require('../bin/program.cjs');
const { sampleDocument } = require('./pdf-engine-cache.cjs');

const args = ['--json', 'anchors', 'find', '--local', 'sample.pdf', '--text', 'ANCHOR'];
// Compiled from its text (no cache): the one it records then holds exactly what this run compiled.
const program = compileProgram(join(__dirname, 'no-such-cache'));
const work = mkdtempSync(join(tmpdir(), 'esign-program-cache-'));

sampleDocument().then((bytes) => {
  writeFileSync(join(work, 'sample.pdf'), bytes);
  process.chdir(work);
  process.on('exit', (code) => {
    rmSync(work, { recursive: true, force: true });
    if (code !== 0) return;
    writeFileSync(programCacheFile(), program.script.createCachedData());
  });
  process.argv = [process.argv[0], join(__dirname, '..', 'bin', 'esign.cjs'), ...args];
  program.run(importPackage);
});
