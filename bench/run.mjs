// `npm run bench`: speed and memory targets, printed as numbers and ratios (never asserted in unit tests).
//   startup      esign --version / --help vs `node -e 0` (hyperfine)            target <= 1.25x
//   anchors      anchor search over a 500-page PDF in the emulator (pages/s)     target >= 200 pages/s
//   throughput   POST /v4/api/envelopes/ at 16 connections (wrk: req/s, p99)    target >= 2,000 req/s
//   upload       1 GiB upload: peak RSS of esign and speed vs `curl -T`         target < 150 MiB, >= 70%
//   local        `esign anchors find --local` on a 500-page PDF (pages/s)
//   list         `esign contacts list --all --jsonl`: peak RSS over 100,000 contacts vs 1,000  target <= 1.2x
// Run one with `npm run bench -- anchors`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'esign.cjs');
const work = mkdtempSync(join(tmpdir(), 'esign-bench-'));
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);
const have = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const env = { ...process.env, ESIGN_CONFIG_DIR: join(work, 'config'), ESIGN_NO_KEYRING: '1', NO_COLOR: '1' };

async function loadPdfGenerators() {
  const outfile = join(work, 'pdfs.mjs');
  await build({ entryPoints: [join(root, 'test', 'support', 'pdfs.ts')], outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'error' });
  // Resolve pdf-lib from the repository, not from the temp dir.
  const linked = join(root, 'node_modules', '.esign-bench-pdfs.mjs');
  writeFileSync(linked, (await import('node:fs')).readFileSync(outfile));
  return import(pathToFileURL(linked).href);
}

function startEmulator(args = []) {
  const child = spawn(process.execPath, [bin, '--json', 'emulator', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      try {
        const started = JSON.parse(out);
        resolve({ ...started, key: started.keys[0], child, stop: () => child.kill('SIGTERM') });
      } catch {
        // incomplete
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited ${code}`)));
  });
}

async function api(emulator, method, path, body, extraHeaders = {}) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${emulator.key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...extraHeaders },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function uploadedDocument(emulator, bytes, fileName = 'bench.pdf') {
  const envelope = await api(emulator, 'POST', '/v4/api/envelopes/', { title: 'bench' });
  const document = await api(emulator, 'POST', `/v4/api/envelopes/${envelope.id}/documents`, { fileName, contentType: 'application/pdf' });
  const put = await fetch(document.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
  if (put.status >= 400) throw new Error(`upload: ${put.status} ${await put.text()}`);
  for (;;) {
    const { data } = await api(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents`);
    const status = data.find((d) => d.documentId === document.documentId)?.status;
    if (status === 'READY') return { envelopeId: envelope.id, documentId: document.documentId };
    if (status === 'FAILED') throw new Error('document FAILED');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const results = [];
function report(name, value, target) {
  results.push({ name, value, target });
  console.log(`${name.padEnd(44)} ${value.padEnd(28)} ${target ?? ''}`);
}

if (wanted('startup')) {
  if (!have('hyperfine')) console.log('startup: skipped (install hyperfine: apt-get install hyperfine)');
  else {
    const out = join(work, 'hyperfine.json');
    execFileSync('hyperfine', ['--warmup', '5', '--runs', '40', '-N', '--export-json', out, 'node -e 0', `node ${bin} --version`, `node ${bin} --help`], { stdio: 'ignore', env });
    const { results: runs } = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8'));
    const [baseline, version, help] = runs.map((r) => r.mean * 1000);
    report('startup: node -e 0', `${baseline.toFixed(1)} ms`);
    report('startup: esign --version', `${version.toFixed(1)} ms (${(version / baseline).toFixed(2)}x)`, 'target <= 1.25x');
    report('startup: esign --help', `${help.toFixed(1)} ms (${(help / baseline).toFixed(2)}x)`, 'target <= 1.25x');
  }
}

let pdfs;
if (wanted('anchors') || wanted('local')) pdfs = await loadPdfGenerators();

if (wanted('anchors')) {
  const emulator = await startEmulator(['--processing-delay', '0', '--anchor-time-limit', '60000', '--max-document-bytes', String(200 * 1024 * 1024)]);
  try {
    const bytes = await pdfs.manyPagesPdf(500, 'Section text with the anchor word ANCHORWORD near the end.');
    const { envelopeId, documentId } = await uploadedDocument(emulator, bytes);
    const path = `/v4/api/envelopes/${envelopeId}/documents/${documentId}/anchors:find`;
    const body = { searches: [{ key: 'a', text: 'ANCHORWORD', occurrence: 'all' }] };
    const first = performance.now();
    const found = await api(emulator, 'POST', path, body);
    const cold = performance.now() - first;
    const second = performance.now();
    await api(emulator, 'POST', path, body);
    const warm = performance.now() - second;
    report('anchors: 500 pages, first search', `${(500 / (cold / 1000)).toFixed(0)} pages/s (${(cold / 500).toFixed(2)} ms/page)`, 'target >= 200 pages/s');
    report('anchors: 500 pages, repeated search', `${(500 / (warm / 1000)).toFixed(0)} pages/s`, `${found.matches.length} matches`);
  } finally {
    emulator.stop();
  }
}

if (wanted('throughput')) {
  if (!have('wrk')) console.log('throughput: skipped (install wrk: apt-get install wrk)');
  else {
    const emulator = await startEmulator(['--no-seed']);
    try {
      const script = join(work, 'create.lua');
      writeFileSync(
        script,
        [
          // Keys unique across wrk's threads: a repeated key would be answered as a cheap replay.
          'local counter = 0',
          'local threads = 0',
          'function setup(thread) thread:set("tid", threads); threads = threads + 1 end',
          'request = function()',
          '  counter = counter + 1',
          `  local headers = { ["Authorization"] = "Bearer ${emulator.key}", ["Content-Type"] = "application/json", ["Idempotency-Key"] = string.format("bench-%s-%d-%d", tid, os.time(), counter) }`,
          '  return wrk.format("POST", "/v4/api/envelopes/", headers, \'{"title":"bench"}\')',
          'end',
        ].join('\n'),
      );
      const output = execFileSync('wrk', ['-t2', '-c16', '-d10s', '--latency', '-s', script, emulator.url], { encoding: 'utf8' });
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
      const p99 = /99%\s+([\d.]+\w+)/.exec(output)?.[1];
      const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? '0';
      const requests = Number(/(\d+) requests in/.exec(output)?.[1]);
      const created = (await api(emulator, 'GET', '/v4/api/account')).usage.envelopesCreated;
      report('throughput: POST /v4/api/envelopes/, 16 conns', `${rps.toFixed(0)} req/s, p99 ${p99}`, `target >= 2000 req/s (non-2xx: ${non2xx}; ${created} of ${requests} created)`);
    } finally {
      emulator.stop();
    }
  }
}

if (wanted('upload')) {
  const size = 1024 * 1024 * 1024;
  // Processing is pushed past the measurement: a 1 GiB document being parsed would slow whichever upload came second.
  const emulator = await startEmulator(['--max-document-bytes', String(2 * size), '--processing-delay', '600000']);
  try {
    const file = join(work, 'big.pdf');
    await new Promise((resolve, reject) => {
      const stream = createWriteStream(file);
      const chunk = Buffer.alloc(8 * 1024 * 1024, 0x20);
      chunk.write('%PDF-1.7\n');
      let written = 0;
      const write = () => {
        while (written < size) {
          written += chunk.length;
          if (!stream.write(chunk)) return stream.once('drain', write);
        }
        stream.end(resolve);
      };
      stream.on('error', reject);
      write();
    });
    const envelope = await api(emulator, 'POST', '/v4/api/envelopes/', { title: 'upload bench' });
    // Both uploads land in temp files of the emulator: flush the disk before each, so neither pays for the other's
    // writes; curl goes first, so any bias left is against esign.
    const target = await api(emulator, 'POST', `/v4/api/envelopes/${envelope.id}/documents`, { fileName: 'curl.pdf', contentType: 'application/pdf' });
    spawnSync('sync');
    const curlStarted = performance.now();
    execFileSync('curl', ['-s', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/pdf', target.uploadUrl]);
    const curlSeconds = (performance.now() - curlStarted) / 1000;
    spawnSync('sync');
    const started = performance.now();
    const timed = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'documents', 'upload', envelope.id, file, '--no-wait'], {
      env: { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key },
      encoding: 'utf8',
    });
    const esignSeconds = (performance.now() - started) / 1000;
    if (timed.status !== 0) throw new Error(`esign upload failed: ${timed.stderr}`);
    const peakKiB = Number(timed.stderr.trim().split('\n').pop());
    report('upload 1 GiB: esign peak RSS', `${(peakKiB / 1024).toFixed(0)} MiB`, 'target < 150 MiB');
    report('upload 1 GiB: esign vs curl -T', `${(1024 / esignSeconds).toFixed(0)} vs ${(1024 / curlSeconds).toFixed(0)} MiB/s (${((curlSeconds / esignSeconds) * 100).toFixed(0)}%)`, 'target >= 70%');
    rmSync(file, { force: true });
  } finally {
    emulator.stop();
  }
}

if (wanted('local')) {
  const file = join(work, 'local.pdf');
  writeFileSync(file, await pdfs.manyPagesPdf(500, 'Section text with the anchor word ANCHORWORD near the end.'));
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, '--json', 'anchors', 'find', '--local', file, '--text', 'ANCHORWORD'], { env, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`anchors find --local failed: ${run.stderr}`);
  report('anchors find --local: 500 pages (whole command)', `${(500 / seconds).toFixed(0)} pages/s`, `${(seconds * 1000).toFixed(0)} ms`);
}

/** An emulator whose account holds `count` contacts, written into its state file (posting 100,000 would take minutes). */
async function emulatorWithContacts(count) {
  const statePath = join(work, `contacts-${count}.json`);
  const first = await startEmulator(['--no-seed', '--state', statePath]);
  const template = await api(first, 'POST', '/v4/api/contacts/', { name: 'Seed', email: 'seed@example.test' });
  await new Promise((resolve) => {
    first.child.once('exit', resolve);
    first.stop();
  });
  const saved = JSON.parse((await import('node:fs')).readFileSync(statePath, 'utf8'));
  saved.state.contacts = {};
  for (let index = 0; index < count; index++) {
    const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
    saved.state.contacts[id] = { id, name: `Contact ${index}`, email: `contact${index}@example.test`, company: 'Bench Ltd', createdAt: template.createdAt, updatedAt: template.createdAt };
  }
  writeFileSync(statePath, JSON.stringify(saved));
  return startEmulator(['--no-seed', '--state', statePath, '--key', first.key]);
}

if (wanted('list')) {
  const peaks = {};
  for (const count of [1_000, 100_000]) {
    const emulator = await emulatorWithContacts(count);
    try {
      const started = performance.now();
      const timed = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'contacts', 'list', '--all', '--jsonl', '--limit', '100'], {
        env: { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key },
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      });
      if (timed.status !== 0) throw new Error(`contacts list failed: ${timed.stderr}`);
      peaks[count] = Number(timed.stderr.trim().split('\n').at(-1));
      report(`contacts list --all --jsonl: ${count.toLocaleString('en')} contacts`, `${(peaks[count] / 1024).toFixed(0)} MiB peak RSS`, `${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      emulator.stop();
    }
  }
  report('contacts list --all --jsonl: 100,000 vs 1,000 peak RSS', `${(peaks[100_000] / peaks[1_000]).toFixed(2)}x`, 'target <= 1.2x');
}

rmSync(work, { recursive: true, force: true });
rmSync(join(root, 'node_modules', '.esign-bench-pdfs.mjs'), { force: true });
