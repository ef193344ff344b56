// The quick start: starts the embedded emulator on a free loopback port, points a throw-away config dir at it, and runs
// the contract's typical flow with the real `esign` binary: me → create → settings → participants → upload → fields →
// send → get, on a generated NDA whose signature box is placed by an anchor.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ndaPdf } from './example-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'esign.cjs');
const work = mkdtempSync(join(tmpdir(), 'esign-demo-'));
const env = { ...process.env, ESIGN_CONFIG_DIR: join(work, 'config'), ESIGN_NO_KEYRING: '1' };
for (const name of ['ESIGN_API_KEY', 'ESIGN_PROFILE', 'ESIGN_BASE_URL', 'ESIGN_SANDBOX_BASE_URL']) delete env[name];

function startEmulator() {
  const child = spawn(process.execPath, [bin, '--json', 'emulator', '--port', '0', '--processing-delay', '200'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

function esign(args, { json = false } = {}) {
  const shown = `$ esign ${args.map((arg) => (/[\s{}]/.test(arg) ? `'${arg}'` : arg)).join(' ')}`;
  console.log(`\n${shown}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...(json ? ['--json'] : []), ...args], { env, stdio: ['ignore', json ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${shown} exited with ${code}`));
      else resolve(json ? JSON.parse(out) : undefined);
    });
  });
}

const emulator = await startEmulator();
try {
  const pdfPath = join(work, 'nda.pdf');
  writeFileSync(pdfPath, await ndaPdf());
  env.ESIGN_SANDBOX_BASE_URL = emulator.url;
  console.log(`Emulator (${emulator.environment}) on ${emulator.url}; config in ${env.ESIGN_CONFIG_DIR}`);

  // The key goes into a profile through stdin, as a person would store theirs: never as an argument.
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'profiles', 'add', 'demo', '--test-key-stdin', '--sandbox-base-url', emulator.url], { env, stdio: ['pipe', 'inherit', 'inherit'] });
    child.stdin.end(emulator.keys[0]);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`profiles add exited with ${code}`))));
  });
  delete env.ESIGN_SANDBOX_BASE_URL;

  await esign(['me']);
  const envelope = await esign(['envelopes', 'create', '--title', 'Mutual NDA'], { json: true });
  console.log(`created draft ${envelope.id}`);
  await esign(['envelopes', 'settings', envelope.id, '--message', 'Please sign the NDA', '--deadline', '7d']);
  const { participants } = await esign(['participants', 'set', envelope.id, '--file', join(root, 'examples', 'nda', 'participants.yaml')], { json: true });
  await esign(['documents', 'upload', envelope.id, pdfPath]);
  const documents = await esign(['documents', 'list', envelope.id], { json: true });
  const documentId = (documents.data ?? documents)[0].documentId;
  const fieldsPath = join(work, 'fields.yaml');
  writeFileSync(
    fieldsPath,
    ['fields:', `  - participantId: ${participants[0].id}`, '    type: SIGNATURE', '    anchor:', '      text: "{{signature}}"', '    size: { width: 160, height: 40 }', ''].join('\n'),
  );
  await esign(['fields', 'put', envelope.id, documentId, '--file', fieldsPath]);
  await esign(['send', envelope.id]);
  await esign(['envelopes', 'get', envelope.id]);
} finally {
  emulator.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
