// The quick start: starts the embedded emulator on a free loopback port, points a throw-away config dir at it, and runs
// the contract's typical flow with the real `esign` binary: me → create → settings → participants → upload → fields →
// send → get, on a generated NDA whose signature box is placed by an anchor.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ndaPdf } from './examples.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'esign.cjs');
const work = mkdtempSync(join(tmpdir(), 'esign-demo-'));
const env = { ...process.env, ESIGN_CONFIG_DIR: join(work, 'config'), ESIGN_NO_KEYRING: '1' };
for (const name of ['ESIGN_API_KEY', 'ESIGN_PROFILE', 'ESIGN_BASE_URL', 'ESIGN_SANDBOX_BASE_URL', 'ESIGN_PRISM']) delete env[name];

/** A command line as a person would type it: every flag shown, arguments quoted where a shell needs it. */
function commandLine(args) {
  return `$ esign ${args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ')}`;
}

function startEmulator() {
  const args = ['--json', 'emulator', '--port', '0', '--processing-delay', '200'];
  console.log(`${commandLine(args)} &`);
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      try {
        resolve({ child, ...JSON.parse(out) });
      } catch {
        // wait for the whole document
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

/**
 * Runs one command, printing it first exactly as run. `capture` keeps its standard output for the demo to read (with
 * --json or --quiet among the args) instead of showing it; `input` is what it reads on standard input, and
 * `shownInput` how the printed line says where that comes from.
 */
function esign(args, { capture = false, input, shownInput } = {}) {
  const shown = `${commandLine(args)}${shownInput ? ` ${shownInput}` : ''}`;
  console.log(`\n${shown}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: [input === undefined ? 'ignore' : 'pipe', capture ? 'pipe' : 'inherit', 'inherit'] });
    child.stdin?.end(input);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${shown} exited with ${code}`));
      else resolve(out);
    });
  });
}

/**
 * CI's validated-traffic run sets ESIGN_PRISM: the demo then talks to the emulator through scripts/validating-proxy.mjs,
 * which exits non-zero, failing the demo, if any request or answer did not conform to docs/openapi.json.
 */
async function startValidatingProxy(url) {
  // Its standard input stays open while the demo runs: the proxy stops when it ends.
  const child = spawn(process.execPath, [join(root, 'scripts', 'validating-proxy.mjs'), url], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out);
    });
    exited.then((code) => reject(new Error(`the validating proxy exited with ${code}`)));
  });
  return {
    url: JSON.parse(line).url,
    async stop() {
      child.stdin.end();
      child.kill('SIGTERM');
      if ((await exited) !== 0) throw new Error('the demo\'s traffic did not conform to docs/openapi.json (violations above)');
    },
  };
}

const started = await startEmulator();
const proxy = process.env.ESIGN_PRISM ? await startValidatingProxy(started.url) : undefined;
const emulator = { ...started, url: proxy?.url ?? started.url };
try {
  const pdfPath = join(work, 'nda.pdf');
  writeFileSync(pdfPath, await ndaPdf());
  env.ESIGN_SANDBOX_BASE_URL = emulator.url;
  console.log(`Emulator (${emulator.environment}) on ${emulator.url}; config in ${env.ESIGN_CONFIG_DIR}`);

  // The key goes into a profile through stdin, as a person would store theirs: never as an argument.
  await esign(['profiles', 'add', 'demo', '--test-key-stdin', '--sandbox-base-url', emulator.url], { input: emulator.keys[0], shownInput: '<<< "$KEY"' });
  delete env.ESIGN_SANDBOX_BASE_URL;

  await esign(['me']);
  // --quiet prints only the new envelope's id, so a script can keep it: id=$(esign envelopes create ... --quiet)
  const envelopeId = (await esign(['envelopes', 'create', '--title', 'Mutual NDA', '--quiet'], { capture: true })).trim();
  console.log(envelopeId);
  await esign(['envelopes', 'settings', envelopeId, '--message', 'Please sign the NDA', '--deadline', '7d']);
  const { participants } = JSON.parse(await esign(['participants', 'set', envelopeId, '--file', join(root, 'examples', 'nda', 'participants.yaml'), '--json'], { capture: true }));
  console.log(`${participants.length} participant(s) set`);
  await esign(['documents', 'upload', envelopeId, pdfPath]);
  const documentId = (await esign(['documents', 'list', envelopeId, '--quiet'], { capture: true })).trim().split('\n')[0];
  console.log(documentId);
  const fieldsPath = join(work, 'fields.yaml');
  writeFileSync(
    fieldsPath,
    ['fields:', `  - participantId: ${participants[0].id}`, '    type: SIGNATURE', '    anchor:', '      text: "{{signature}}"', '    size: { width: 160, height: 40 }', ''].join('\n'),
  );
  await esign(['fields', 'put', envelopeId, documentId, '--file', fieldsPath]);
  await esign(['send', envelopeId]);
  await esign(['envelopes', 'get', envelopeId]);
} finally {
  emulator.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
  await proxy?.stop();
}
