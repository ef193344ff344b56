// Records V8's code caches of the program and of its packages scripts for scripts/build.mjs, each by running a command
// with it compiled from its text, under V8's default flags (V8 refuses a cache recorded under others), and writing the
// cache of every function compiled by then, so that a command starts with what it needs compiled. What the run does
// not reach is compiled on first use, as before.
//   node scripts/program-cache.cjs                     the program (bin/program.cjs): `anchors find --local` on a
//                                                      small document
//   node scripts/program-cache.cjs input-packages      yaml and zod: `fields check --local` of a YAML fields file with
//                                                      an anchored field on that document
//   node scripts/program-cache.cjs emulator-packages   fastify: `emulator`, asked for itself, an envelope's creation,
//                                                      the list and the envelope
//   node scripts/program-cache.cjs drawing-packages    pdf-lib: `fields preview` of that fields file
//   node scripts/program-cache.cjs prompt-packages     @inquirer/prompts: a question answered over a stream (no
//                                                      command asks without a terminal)
//   node scripts/program-cache.cjs spinner-packages    ora: a spinner on a stream (none shows without a terminal)
// The command's answers go to stdout.
'use strict';
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { compilePackageScript, compileProgram, packageImporter, packageScriptCacheFile, programCacheFile } = require('../bin/program.cjs');
const { sampleDocument } = require('./pdf-engine-cache.cjs');

// Compiled from its text (no cache): the cache recorded then holds exactly what this run compiled.
const noCache = join(__dirname, 'no-such-cache');
const stem = process.argv[2];
const packages = stem === undefined ? undefined : compilePackageScript(stem, noCache);
/** Where the cache goes, and of which script: set once the program is compiled, for the program. */
let recorded = stem === undefined ? undefined : { script: packages.script, file: packageScriptCacheFile(stem) };
const FIELDS = ['fields:', '  - participantId: p1', '    type: SIGNATURE', '    anchor: { text: ANCHOR, occurrence: first, offset: { x: 0, y: -12 } }', '    size: { width: 150, height: 30 }', ''].join('\n');
const commands = {
  program: ['--json', 'anchors', 'find', '--local', 'sample.pdf', '--text', 'ANCHOR'],
  'input-packages': ['fields', 'check', '--local', 'sample.pdf', '--file', 'fields.yaml'],
  'emulator-packages': ['--json', 'emulator', '--port', '0'],
  'drawing-packages': ['fields', 'preview', '--local', 'sample.pdf', '--file', 'fields.yaml', '--out', 'preview.pdf'],
};

/** The packages no command uses here, used as esign uses them (src/output/prompts.ts, src/output/output.ts). */
const uses = {
  'prompt-packages': async ({ '@inquirer/prompts': { confirm } }) => {
    const { PassThrough } = require('node:stream');
    const input = new PassThrough();
    const output = new PassThrough().resume();
    const answer = confirm({ message: 'Void the envelope?', default: false }, { input, output });
    setTimeout(() => input.write('y\n'), 50);
    if ((await answer) !== true) throw new Error('the recorded question was not answered');
  },
  'spinner-packages': async ({ ora: { default: ora } }) => {
    const { PassThrough } = require('node:stream');
    const spinner = ora({ text: 'Waiting', stream: new PassThrough().resume(), isEnabled: true, discardStdin: false }).start();
    await new Promise((resolve) => setTimeout(resolve, 250));
    spinner.text = 'Still waiting';
    spinner.succeed('Done');
  },
};
const work = mkdtempSync(join(tmpdir(), 'esign-program-cache-'));

function record() {
  rmSync(work, { recursive: true, force: true });
  writeFileSync(recorded.file, recorded.script.createCachedData());
}

/** The cache once `use` is done, and the end: a use that fails fails the build (scripts/build.mjs), with no cache. */
function recordAfter(use) {
  use.then(
    () => {
      record();
      process.exit(0);
    },
    (cause) => {
      console.error(cause);
      rmSync(work, { recursive: true, force: true });
      process.exit(1);
    },
  );
}

/** The emulator serves until stopped: once it says where, a few requests, then the cache, and the end. */
function exerciseEmulatorOnceStarted() {
  let said = '';
  const write = process.stdout.write;
  process.stdout.write = function (chunk, ...rest) {
    said += String(chunk);
    let started;
    try {
      started = JSON.parse(said);
    } catch {
      return write.call(this, chunk, ...rest);
    }
    process.stdout.write = write;
    const call = (method, path, body) =>
      fetch(`${started.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${started.keys[0]}`, 'content-type': 'application/json', 'idempotency-key': `program-cache-${path}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (answer) => {
        if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
        return answer.json();
      });
    recordAfter(
      call('GET', '/v4/api/me')
        .then(() => call('POST', '/v4/api/envelopes/', { title: 'Recorded' }))
        .then((envelope) => Promise.all([call('GET', '/v4/api/envelopes/'), call('GET', `/v4/api/envelopes/${envelope.id}`)])),
    );
    return write.call(this, chunk, ...rest);
  };
}

if (uses[stem]) recordAfter(uses[stem](packages.run().packages));
else sampleDocument().then((bytes) => {
  writeFileSync(join(work, 'sample.pdf'), bytes);
  writeFileSync(join(work, 'fields.yaml'), FIELDS);
  process.chdir(work);
  if (stem === 'emulator-packages') exerciseEmulatorOnceStarted();
  else {
    process.on('exit', (code) => {
      if (code === 0) record();
      else rmSync(work, { recursive: true, force: true });
    });
  }
  process.argv = [process.argv[0], join(__dirname, '..', 'bin', 'esign.cjs'), ...commands[stem ?? 'program']];
  // The program itself is compiled with its cache when the run records a packages script's.
  const program = compileProgram(stem === undefined ? noCache : undefined);
  recorded ??= { script: program.script, file: programCacheFile() };
  program.run(packageImporter((name) => (name === stem ? packages : undefined)));
});
