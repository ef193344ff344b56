// `npm run bench`: speed and memory targets, printed as numbers and ratios (never asserted in unit tests). Where
// hyperfine measures, a command and its baseline run in turns, and the wall times are medians (`hyperfine` below).
//   startup      esign --version / --help / a subcommand's --help vs `node -e 0` (hyperfine)
//                                                                               targets <= 1.1x / <= 1.25x / <= 1.25x
//                single executable --version vs its Node 24 `-e 0`             target <= 1.5x
//                the emulator, ready to serve (its first line), median of 10 starts
//   client       esign me / get / list / create vs a bare `node -e "fetch(...)"` to the same emulator (hyperfine),
//                wall and CPU time                                              target <= 1.25x (me), <= 1.5x
//   anchors      anchor search over a 500-page PDF in the emulator (pages/s)     target >= 200 pages/s
//   emulator     creates/s (wrk) and p99 (bench/closed-loop.mjs) vs a bare fastify route, from an empty store to
//                1,000,000 envelopes;
//                list p50 at 1,000,000 for every filter; memory per envelope    targets >= 0.5x, p99 <= 5x, flat
//                                                                               within 10%, p50 <= 1 ms, <= 1 GiB
//   receive      a 512 MiB upload received by the emulator vs a bare node:http sink (curl -T)   target >= 0.7x
//   upload       1 GiB upload: peak RSS of esign, speed and CPU vs `curl -T`    target < 150 MiB, >= 70%, CPU <= 2x
//   send-now     send-now of a 1 GiB PDF with a field: peak RSS (hash + upload)  target < 160 MiB
//   local        `esign anchors find --local` on a 500-page PDF (pages/s); on a 2-page PDF vs `node -e 0`, and
//                `fields check --local` of a YAML fields file on it (hyperfine)
//                                                                               target <= 2x (2 pages)
//   poppler      side by side with `pdftotext -bbox` on the same pages (wall; CPU time shown beside it): 500 dense pages  target <= 1.5x
//                a 2,400-page manual, searched to the 500-page cap (poppler: -l 500)          target < 3x
//   processing   peak RSS of the emulator processing a 1 GiB PDF, against the file size      target < 1.5x
//   heavy        `anchors find --local` refusing PDFs past a work limit: time and peak RSS   targets < 15 s, < 512 MiB
//                10,000 vs 2,000 pages in one flat page tree, read                             target <= 5x
//   list         `esign contacts list --all --jsonl`: peak RSS over 100,000 contacts vs 1,000  target <= 1.2x
//   batch        `esign batch run` of 500 envelopes (one 3-page PDF, two anchored fields each) at concurrency 8:
//                envelopes/s, CPU time per envelope and peak RSS of the CLI; peak RSS for 500 vs 50      target <= 1.2x
//                envelopes/s vs a shell loop of single `envelopes send-now` (measured on 30)             target >= 10x
//   growth       creates through the API, each with its own Idempotency-Key, from an empty store to 1,000,000
//                (ESIGN_BENCH_GROWTH_TOTAL; about a minute on a quiet machine), per 100,000 (bench/grow.mjs) vs a
//                bare fastify route by the same client before and after; requests/s and the server's CPU time per
//                request (flat by CPU holds under a loaded machine); memory per envelope with its idempotency record
//                                                          targets >= 0.5x, flat within 10%, p99 <= 5x
//   ceiling      `esign batch run` of 1,000 envelopes against `emulator --rate-limit 100/s`: API requests/s vs the
//                ceiling, share of 429s, envelopes/s, CPU per envelope       targets >= 90%, 429s < 2%, none failed
// Run one with `npm run bench -- anchors`. The output is also written to bench/results.md, with the machine and the
// date; the sections not run keep their last results there.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { fetchNode } from '../scripts/fetch-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'esign.cjs');
const work = mkdtempSync(join(tmpdir(), 'esign-bench-'));
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);
const have = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
// TMPDIR: what the esign processes and emulators leave in a temporary folder (an emulator's spill files of hundreds of
// MiB, when one is killed) goes with the bench's own folder.
const env = { ...process.env, ESIGN_CONFIG_DIR: join(work, 'config'), ESIGN_NO_KEYRING: '1', NO_COLOR: '1', TMPDIR: work };

async function loadPdfGenerators(name = 'pdfs') {
  const outfile = join(work, `${name}.mjs`);
  await build({ entryPoints: [join(root, 'test', 'support', `${name}.ts`)], outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'error' });
  // Resolve pdf-lib from the repository, not from the temp dir.
  const linked = join(root, 'node_modules', `.esign-bench-${name}.mjs`);
  writeFileSync(linked, (await import('node:fs')).readFileSync(outfile));
  return import(pathToFileURL(linked).href);
}

/**
 * Servers the bench started: stopped when it ends, however it ends, so none is left serving (and using a core); its
 * folder is removed then too.
 */
const servers = new Set();
process.on('exit', () => {
  for (const child of servers) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** A server process of the bench, tracked until it exits. */
function spawnServer(command, args, options) {
  const child = spawn(command, args, options);
  servers.add(child);
  child.on('exit', () => servers.delete(child));
  return child;
}

function startEmulator(args = []) {
  const child = spawnServer(process.execPath, [bin, '--json', 'emulator', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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
let section = 'setup';
/** Starts the lines of one section (the unit bench/results.md keeps or replaces). */
function begin(name) {
  section = name;
}
function report(name, value, target) {
  results.push({ section, name, value, target });
  console.log(`${name.padEnd(44)} ${value.padEnd(28)} ${target ?? ''}`);
}

/** The middle value (of an odd count). */
const median = (values) => values.toSorted((a, b) => a - b)[values.length >> 1];

/**
 * The median wall time and the mean CPU time (user + system) of each command, in ms, from `runs` runs of each taken in
 * turns: rounds in which hyperfine runs every command twice, after a run of it not counted. This 2-core machine's
 * speed drifts by 10-20% within a minute (other work on its host); run one after the other, a command measured in a
 * slow half minute was compared with a baseline measured in a fast one.
 */
function hyperfine(commands, options = {}) {
  const out = join(work, 'hyperfine.json');
  const walls = commands.map(() => []);
  const cpus = commands.map(() => []);
  for (let round = 0; round < (options.runs ?? 40) / 2; round++) {
    // A warm-up run of each command in every round: the first run after hyperfine starts is some 10 ms slower.
    const warmup = round === 0 ? (options.warmup ?? 5) : 1;
    execFileSync('hyperfine', ['--warmup', String(warmup), '--runs', '2', '-N', '--export-json', out, ...commands], { stdio: 'ignore', env: options.env ?? env });
    JSON.parse(readFileSync(out, 'utf8')).results.forEach((run, index) => {
      walls[index].push(...run.times);
      cpus[index].push(run.user + run.system);
    });
  }
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return commands.map((_, index) => ({ wallMs: median(walls[index]) * 1000, cpuMs: mean(cpus[index]) * 1000 }));
}

if (wanted('startup')) {
  begin('startup');
  if (!have('hyperfine')) console.log('startup: skipped (install hyperfine: apt-get install hyperfine)');
  else {
    const [baseline, version, help, subcommandHelp] = hyperfine(['node -e 0', `node ${bin} --version`, `node ${bin} --help`, `node ${bin} envelopes list --help`]).map((run) => run.wallMs);
    report('startup: node -e 0', `${baseline.toFixed(1)} ms`);
    report('startup: esign --version', `${version.toFixed(1)} ms (${(version / baseline).toFixed(2)}x)`, 'target <= 1.1x');
    report('startup: esign --help', `${help.toFixed(1)} ms (${(help / baseline).toFixed(2)}x)`, 'target <= 1.25x');
    report('startup: esign envelopes list --help', `${subcommandHelp.toFixed(1)} ms (${(subcommandHelp / baseline).toFixed(2)}x)`, 'target <= 1.25x (any command or group)');
    // What a CI job waits for before its first request: the emulator's first line (its address and key), each start
    // after the last one has exited.
    const ready = [];
    for (let run = 0; run < 10; run++) {
      const started = performance.now();
      const emulator = await startEmulator();
      ready.push(performance.now() - started);
      const exited = new Promise((resolve) => emulator.child.once('exit', resolve));
      emulator.stop();
      await exited;
    }
    report('startup: esign emulator, ready to serve', `${median(ready).toFixed(0)} ms (${(median(ready) / baseline).toFixed(2)}x node -e 0)`, 'median of 10 starts');
    // The single executable against the Node binary it is made from (scripts/build-binary.mjs).
    const binary = join(root, 'dist', 'bin', `esign-${process.platform}-${process.arch}`);
    if (!existsSync(binary)) console.log('startup: single executable skipped (npm run build:binary)');
    else {
      const node24 = fetchNode('24');
      const [nodeBaseline, binaryVersion] = hyperfine([`${node24} -e 0`, `${binary} --version`]).map((run) => run.wallMs);
      report('startup: Node 24 -e 0', `${nodeBaseline.toFixed(1)} ms`);
      report('startup: single executable --version', `${binaryVersion.toFixed(1)} ms (${(binaryVersion / nodeBaseline).toFixed(2)}x)`, 'target <= 1.5x');
    }
  }
}

if (wanted('client')) {
  begin('client');
  if (!have('hyperfine')) console.log('client: skipped (install hyperfine: apt-get install hyperfine)');
  else {
    const emulator = await startEmulator();
    try {
      const envelope = await api(emulator, 'POST', '/v4/api/envelopes/', { title: 'client bench' });
      const clientEnv = { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key };
      // The floor: Node itself fetching the same answer esign me asks for.
      const bareFetch = `node -e "fetch(process.env.ESIGN_SANDBOX_BASE_URL + '/v4/api/me', { headers: { authorization: 'Bearer ' + process.env.ESIGN_API_KEY } }).then((r) => r.text())"`;
      const commands = [
        { label: 'me', args: 'me', target: 1.25 },
        { label: 'envelopes get', args: `envelopes get ${envelope.id}`, target: 1.5 },
        { label: 'envelopes list', args: 'envelopes list --limit 20', target: 1.5 },
        { label: 'envelopes create', args: 'envelopes create --title bench', target: 1.5 },
      ];
      const [bare, ...runs] = hyperfine([bareFetch, ...commands.map(({ args }) => `node ${bin} ${args}`)], { env: clientEnv, runs: 30 });
      report('client: bare node -e fetch(...)', `${bare.wallMs.toFixed(0)} ms, CPU ${bare.cpuMs.toFixed(0)} ms`, 'the baseline, same emulator, same run');
      commands.forEach(({ label, target }, index) => {
        const run = runs[index];
        report(
          `client: esign ${label}`,
          `${run.wallMs.toFixed(0)} ms (${(run.wallMs / bare.wallMs).toFixed(2)}x), CPU ${run.cpuMs.toFixed(0)} ms (${(run.cpuMs / bare.cpuMs).toFixed(2)}x)`,
          `target <= ${target}x, wall and CPU`,
        );
      });
    } finally {
      emulator.stop();
    }
  }
}

let pdfs;
if (wanted('anchors') || wanted('local') || wanted('poppler') || wanted('batch') || wanted('ceiling')) pdfs = await loadPdfGenerators();

if (wanted('anchors')) {
  begin('anchors');
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

/** A server script run from node_modules, so that it resolves fastify from this repository. */
function startScriptServer(name, source) {
  const file = join(root, 'node_modules', `.esign-bench-${name}.mjs`);
  writeFileSync(file, source);
  const child = spawnServer(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line) => resolve({ ...JSON.parse(line), child, stop: () => (child.kill('SIGTERM'), rmSync(file, { force: true })) }));
    child.on('exit', (code) => reject(new Error(`${name} exited ${code}`)));
  });
}

/** What a bare fastify route answers to a create: an envelope-shaped body, the request's JSON parsed. */
const bareFastify = `
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
const app = Fastify({ logger: false });
app.post('/v4/api/envelopes/', async (request, reply) => {
  const now = new Date().toISOString();
  reply.code(201);
  return { id: randomUUID(), title: request.body.title, message: '', status: 'DRAFT', deadline: null, createdAt: now, updatedAt: now, sentAt: null,
    completedAt: null, folder: { id: randomUUID(), name: 'Drafts' }, sender: { id: randomUUID(), name: 'Riley Responsible' }, participants: [], documents: [] };
});
console.log(JSON.stringify({ url: await app.listen({ host: '127.0.0.1', port: 0 }) }));
`;

/** A bare node:http sink: reads the body, answers 200. */
const bareSink = `
import { createServer } from 'node:http';
const server = createServer((request, response) => {
  request.on('data', () => {});
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));
`;

function milliseconds(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (!match) return NaN;
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2]];
}

/**
 * Creates on fresh servers (`start()` each time, stopped after), three runs, the median of each measure: the rate
 * from wrk, the p99 from bench/closed-loop.mjs on a server of its own (why not wrk's: see that file; wrk's p99 is
 * kept beside it). A p99 of about a millisecond moves by half of itself from one run to the next on this machine.
 * `inspect` sees the first server before its run.
 */
async function medianCreates(start, inspect) {
  const runs = [];
  for (let run = 0; run < 3; run++) {
    const server = await start();
    let measured;
    try {
      if (run === 0) await inspect?.(server);
      measured = wrkCreates(server.url, server.key ?? 'none');
    } finally {
      server.stop();
    }
    const timed = await start();
    try {
      const timedLoop = closedLoopCreates(timed.url, timed.key ?? 'none');
      runs.push({ rps: measured.rps, wrkP99: measured.p99, p99: timedLoop.p99, non2xx: measured.non2xx + timedLoop.non2xx });
    } finally {
      timed.stop();
    }
  }
  const middle = (name) => median(runs.map((each) => each[name]));
  return { rps: middle('rps'), p99: middle('p99'), wrkP99: middle('wrkP99'), non2xx: Math.max(...runs.map((each) => each.non2xx)) };
}

/** Rate and p99 of creates (ms) from a closed loop at 16 connections, as wrk runs them. */
function closedLoopCreates(url, key, seconds = 10) {
  const { rps, p99, non2xx } = JSON.parse(execFileSync(process.execPath, [join(root, 'bench', 'closed-loop.mjs'), url, key, String(seconds), '16'], { encoding: 'utf8' }));
  return { rps, p99, non2xx };
}

/** wrk creating envelopes at 16 connections; every request has an Idempotency-Key of its own (a replay is cheap). */
function wrkCreates(url, key, seconds = 10) {
  const script = join(work, 'create.lua');
  writeFileSync(
    script,
    [
      'local counter = 0',
      'local threads = 0',
      'function setup(thread) thread:set("tid", threads); threads = threads + 1 end',
      'request = function()',
      '  counter = counter + 1',
      `  local headers = { ["Authorization"] = "Bearer ${key}", ["Content-Type"] = "application/json", ["Idempotency-Key"] = string.format("bench-%s-%d-%d", tid, os.time(), counter) }`,
      '  return wrk.format("POST", "/v4/api/envelopes/", headers, \'{"title":"bench"}\')',
      'end',
    ].join('\n'),
  );
  // A warm-up first: lazily loaded modules (zod) and the JIT must not count against either server.
  execFileSync('wrk', ['-t2', '-c16', '-d2s', '-s', script, url], { encoding: 'utf8' });
  const output = execFileSync('wrk', ['-t2', '-c16', `-d${seconds}s`, '--latency', '-s', script, url], { encoding: 'utf8' });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
    p99: milliseconds(/99%\s+([\d.]+\w+)/.exec(output)?.[1]),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
  };
}

/** p50 of one GET at one connection (wrk), in ms. */
function wrkGetP50(url, key) {
  const output = execFileSync('wrk', ['-t1', '-c1', '-d3s', '--latency', '-H', `Authorization: Bearer ${key}`, url], { encoding: 'utf8' });
  if (/Non-2xx/.test(output)) throw new Error(`GET ${url} answered errors:\n${output}`);
  return milliseconds(/50%\s+([\d.]+\w+)/.exec(output)?.[1]);
}

function rssMiB(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

const MILLION = 1_000_000;

if (wanted('emulator')) {
  begin('emulator');
  if (!have('wrk')) console.log('emulator: skipped (install wrk: apt-get install wrk)');
  else {
    const base = await medianCreates(() => startScriptServer('bare-fastify', bareFastify));
    report(
      'creates: bare fastify route',
      `${base.rps.toFixed(0)} req/s, p99 ${base.p99.toFixed(2)} ms (wrk's p99 ${base.wrkP99.toFixed(2)} ms)`,
      'the baseline, same machine, same run (median of 3)',
    );
    let emptyRss;
    const fresh = await medianCreates(
      () => startEmulator(['--no-seed']),
      (empty) => (emptyRss = rssMiB(empty.child.pid)),
    );
    const ratio = (value, of) => `${(value / of).toFixed(2)}x`;
    report(
      'creates: emulator, empty store',
      `${fresh.rps.toFixed(0)} req/s (${ratio(fresh.rps, base.rps)}), p99 ${fresh.p99.toFixed(2)} ms (${ratio(fresh.p99, base.p99)}; wrk's ${fresh.wrkP99.toFixed(2)} ms, ${ratio(fresh.wrkP99, base.wrkP99)})`,
      `target >= 0.5x, p99 <= 5x (median of 3; non-2xx: ${fresh.non2xx})`,
    );

    // The first of the three, just filled, is also measured for memory and lists before its creates.
    let preloadStarted;
    const loaded = await medianCreates(
      () => {
        preloadStarted = performance.now();
        return startEmulator(['--no-seed', '--preload-drafts', String(MILLION)]);
      },
      async (full) => {
        const preloadSeconds = (performance.now() - preloadStarted) / 1000;
        const fullRss = rssMiB(full.child.pid);
        report('memory: 1,000,000 drafts, emulator RSS', `${fullRss.toFixed(0)} MiB (preloaded in ${preloadSeconds.toFixed(1)} s)`, 'target <= 1024 MiB');
        report('memory: per envelope', `${(((fullRss - emptyRss) * 1024 * 1024) / MILLION).toFixed(0)} bytes`, `RSS over the empty emulator's ${emptyRss.toFixed(0)} MiB`);

        const folderId = (await api(full, 'GET', '/v4/api/folders/')).data[0].id;
        const firstPage = await api(full, 'GET', '/v4/api/envelopes/?limit=20');
        const contact = await api(full, 'POST', '/v4/api/contacts/', { name: 'Ada Lovelace', email: 'ada@example.com' });
        const lists = {
          'no filter': '/v4/api/envelopes/',
          'status=DRAFT': '/v4/api/envelopes/?status=DRAFT',
          'status=SENT (none)': '/v4/api/envelopes/?status=SENT',
          folderId: `/v4/api/envelopes/?folderId=${folderId}`,
          'status=DRAFT&folderId': `/v4/api/envelopes/?status=DRAFT&folderId=${folderId}`,
          'second page (cursor)': `/v4/api/envelopes/?cursor=${firstPage.nextCursor}`,
          'folder content': `/v4/api/folders/${folderId}/content`,
          'voided report': '/v4/api/reports/voided-envelopes',
          "a contact's envelopes": `/v4/api/contacts/${contact.id}/envelopes`,
          'usage by group report': '/v4/api/reports/usage-by-group',
        };
        for (const [name, path] of Object.entries(lists)) {
          report(`list at 1M: ${name}`, `p50 ${wrkGetP50(`${full.url}${path}`, full.key).toFixed(3)} ms`, 'target <= 1 ms');
        }
      },
    );
    report(
      'creates: emulator, 1,000,000 envelopes',
      `${loaded.rps.toFixed(0)} req/s (${ratio(loaded.rps, base.rps)}), p99 ${loaded.p99.toFixed(2)} ms (${ratio(loaded.p99, base.p99)}; wrk's ${loaded.wrkP99.toFixed(2)} ms, ${ratio(loaded.wrkP99, base.wrkP99)})`,
      `target >= 0.5x, p99 <= 5x (median of 3; non-2xx: ${loaded.non2xx})`,
    );
    report('creates: flat from empty to 1,000,000', `${ratio(loaded.rps, fresh.rps)} of the empty store's rate`, 'target >= 0.90x');
  }
}

if (wanted('receive')) {
  begin('receive');
  // The emulator's side of an upload: curl sends the same file to a bare node:http sink and to a signed upload address.
  const size = 512 * 1024 * 1024;
  const file = join(work, 'receive.pdf');
  const chunk = Buffer.alloc(8 * 1024 * 1024, 0x20);
  chunk.write('%PDF-1.7\n');
  const stream = createWriteStream(file);
  for (let written = 0; written < size; written += chunk.length) if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  await new Promise((resolve) => stream.end(resolve));
  const curlSeconds = (url) => {
    spawnSync('sync');
    const started = performance.now();
    execFileSync('curl', ['-s', '-f', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/pdf', url]);
    return (performance.now() - started) / 1000;
  };
  // Five uploads to each, taken in turns, and the median of each side: one upload's time swings with the machine
  // (on this one the bare sink alone went from 1.3 to 2.6 GiB/s between runs).
  const sink = await startScriptServer('bare-sink', bareSink);
  const emulator = await startEmulator(['--max-document-bytes', String(2 * size), '--processing-delay', '600000']);
  try {
    const bare = [];
    const emulated = [];
    for (let round = 0; round < 5; round++) {
      bare.push(curlSeconds(`${sink.url}/upload`));
      const envelope = await api(emulator, 'POST', '/v4/api/envelopes/', { title: 'receive bench' });
      const target = await api(emulator, 'POST', `/v4/api/envelopes/${envelope.id}/documents`, { fileName: 'receive.pdf', contentType: 'application/pdf' });
      emulated.push(curlSeconds(target.uploadUrl));
    }
    const [bareSeconds, emulatorSeconds] = [median(bare), median(emulated)];
    const mib = size / 1024 / 1024;
    report(
      'receive 512 MiB: emulator vs bare node:http',
      `${(mib / emulatorSeconds).toFixed(0)} vs ${(mib / bareSeconds).toFixed(0)} MiB/s (${(bareSeconds / emulatorSeconds).toFixed(2)}x)`,
      'target >= 0.7x (median of 5 each)',
    );
  } finally {
    sink.stop();
    emulator.stop();
    rmSync(file, { force: true });
  }
}

/** A file of `size` bytes that passes the CLI's local check (a `%PDF-` header), written without holding it in memory. */
async function writeBigPdf(file, size) {
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
}

/** Peak resident memory (MiB) and CPU time (user + system, s) of one run, from GNU time. */
function timedRun(command, args, options = {}) {
  const timed = spawnSync('/usr/bin/time', ['-f', '%M %U %S', command, ...args], { cwd: work, encoding: 'utf8', ...options });
  if (timed.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${timed.stderr}`);
  const [peakKiB, user, system] = timed.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { peakMiB: peakKiB / 1024, cpuSeconds: user + system };
}

function timedEsign(args, emulator) {
  return timedRun(process.execPath, [bin, ...args], { env: { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key } });
}

/** Peak resident memory of one esign run, in MiB. */
function peakRssMiB(args, emulator) {
  return timedEsign(args, emulator).peakMiB;
}

if (wanted('upload')) {
  begin('upload');
  const size = 1024 * 1024 * 1024;
  // Processing is pushed past the measurement: a 1 GiB document being parsed would slow whichever upload came second.
  const emulator = await startEmulator(['--max-document-bytes', String(2 * size), '--processing-delay', '600000']);
  try {
    const file = join(work, 'big.pdf');
    await writeBigPdf(file, size);
    const envelope = await api(emulator, 'POST', '/v4/api/envelopes/', { title: 'upload bench' });
    // Three rounds, each curl then esign, the best of each kept: the runs least disturbed by other work. Both uploads
    // land in temp files of the emulator: the disk is flushed before each, so neither pays for the other's writes.
    const rounds = [];
    for (let round = 0; round < 3; round++) {
      const target = await api(emulator, 'POST', `/v4/api/envelopes/${envelope.id}/documents`, { fileName: 'curl.pdf', contentType: 'application/pdf' });
      spawnSync('sync');
      const curlStarted = performance.now();
      const curl = timedRun('curl', ['-s', '-f', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/pdf', target.uploadUrl]);
      const curlSeconds = (performance.now() - curlStarted) / 1000;
      spawnSync('sync');
      const started = performance.now();
      const esign = timedEsign(['documents', 'upload', envelope.id, file, '--no-wait'], emulator);
      rounds.push({ curl: { ...curl, seconds: curlSeconds }, esign: { ...esign, seconds: (performance.now() - started) / 1000 } });
    }
    const best = (who, what) => Math.min(...rounds.map((round) => round[who][what]));
    const [curlSeconds, esignSeconds] = [best('curl', 'seconds'), best('esign', 'seconds')];
    const [curlCpu, esignCpu] = [best('curl', 'cpuSeconds'), best('esign', 'cpuSeconds')];
    report('upload 1 GiB: esign peak RSS', `${Math.max(...rounds.map((round) => round.esign.peakMiB)).toFixed(0)} MiB`, 'target < 150 MiB (the highest of 3)');
    report('upload 1 GiB: esign vs curl -T', `${(1024 / esignSeconds).toFixed(0)} vs ${(1024 / curlSeconds).toFixed(0)} MiB/s (${((curlSeconds / esignSeconds) * 100).toFixed(0)}%)`, 'target >= 70% (best of 3 each)');
    report('upload 1 GiB: esign vs curl -T, CPU time', `${esignCpu.toFixed(2)} vs ${curlCpu.toFixed(2)} s (${(esignCpu / curlCpu).toFixed(2)}x)`, 'target <= 2x (best of 3 each, user + system)');
    rmSync(file, { force: true });
  } finally {
    emulator.stop();
  }
}

if (wanted('send-now')) {
  begin('send-now');
  const size = 1024 * 1024 * 1024;
  const emulator = await startEmulator(['--max-document-bytes', String(2 * size), '--processing-delay', '600000']);
  try {
    await writeBigPdf(join(work, 'send-now.pdf'), size);
    writeFileSync(
      join(work, 'send-now.yaml'),
      [
        'title: send-now bench',
        'participants: [{ ref: a, name: Ada, email: ada@example.com }]',
        'documents: [{ ref: d, file: send-now.pdf }]',
        'fields: [{ type: SIGNATURE, documentRef: d, participantRef: a, pageNumber: 1, position: { x: 72, y: 600 }, size: { width: 150, height: 50 } }]',
      ].join('\n'),
    );
    const peak = peakRssMiB(['envelopes', 'send-now', '--file', 'send-now.yaml'], emulator);
    report('send-now 1 GiB: esign peak RSS', `${peak.toFixed(0)} MiB`, 'target < 160 MiB');
    rmSync(join(work, 'send-now.pdf'), { force: true });
  } finally {
    emulator.stop();
  }
}

if (wanted('local')) {
  begin('local');
  const file = join(work, 'local.pdf');
  writeFileSync(file, await pdfs.manyPagesPdf(500, 'Section text with the anchor word ANCHORWORD near the end.'));
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, '--json', 'anchors', 'find', '--local', file, '--text', 'ANCHORWORD'], { env, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`anchors find --local failed: ${run.stderr}`);
  report('anchors find --local: 500 pages (whole command)', `${(500 / seconds).toFixed(0)} pages/s`, `${(seconds * 1000).toFixed(0)} ms`);
  if (!have('hyperfine')) console.log('local: 2-page PDF skipped (install hyperfine: apt-get install hyperfine)');
  else {
    // What runs before every send-now, batch preflight and `fields check --local`: a short document, whole command.
    const small = join(work, 'two-pages.pdf');
    writeFileSync(small, await pdfs.manyPagesPdf(2, 'Section text with the anchor word ANCHORWORD near the end.'));
    // The same check as a person runs it: a YAML fields file (yaml, zod) with an anchored field, a table on stdout.
    const fields = join(work, 'fields.yaml');
    writeFileSync(fields, 'fields:\n  - { participantId: p1, type: SIGNATURE, anchor: { text: ANCHORWORD }, size: { width: 150, height: 30 } }\n');
    const [baseline, esign, check] = hyperfine(['node -e 0', `node ${bin} --json anchors find --local ${small} --text ANCHORWORD`, `node ${bin} fields check --local ${small} --file ${fields}`], { runs: 20 });
    report('anchors find --local: 2 pages vs node -e 0', `${esign.wallMs.toFixed(0)} vs ${baseline.wallMs.toFixed(0)} ms (${(esign.wallMs / baseline.wallMs).toFixed(2)}x)`, 'target <= 2x');
    report('anchors find --local: 2 pages, CPU time', `${esign.cpuMs.toFixed(0)} vs ${baseline.cpuMs.toFixed(0)} ms (${(esign.cpuMs / baseline.cpuMs).toFixed(2)}x)`);
    report('fields check --local: 2 pages, a YAML fields file, vs node -e 0', `${check.wallMs.toFixed(0)} ms (${(check.wallMs / baseline.wallMs).toFixed(2)}x)`);
  }
}

if (wanted('heavy')) {
  begin('heavy');
  const heavy = await loadPdfGenerators('heavy-pdfs');
  const refusal = (bytes) => {
    const file = join(work, 'heavy.pdf');
    writeFileSync(file, bytes);
    const started = performance.now();
    const timed = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'anchors', 'find', '--local', file, '--text', heavy.HEAVY_PDF_TEXT], { env, encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, peakMiB: Number(timed.stderr.trim().split('\n').pop()) / 1024, code: timed.status };
  };
  for (const [name, bytes] of [
    ['1 MB inflating to 1 GiB', heavy.inflationBombPdf(1024)],
    ['9 MB, 30 pages inflating to 300 MiB each', heavy.inflationBombPdf(300, 30)],
    ['120 KB with 2,000,000 operators', heavy.manyOperatorsPdf(2_000_000)],
    ['4 MB with 50,000 pages', heavy.manyPagesPdf(50_000)],
  ]) {
    const { seconds, peakMiB, code } = refusal(bytes);
    report(`exit ${code}: ${name}`, `${seconds.toFixed(1)} s, ${peakMiB.toFixed(0)} MiB`, '< 15 s, < 512 MiB');
  }
  // A flat page tree of 5 times the pages takes at most 5 times as long (walked once per page, 25 times: 10,000 pages
  // took 55 s). Both read the text of 500 pages and the size of every page.
  const small = refusal(heavy.manyPagesPdf(2_000)).seconds;
  const large = refusal(heavy.manyPagesPdf(10_000)).seconds;
  report('10,000 vs 2,000 flat pages read', `${(large / small).toFixed(2)}x (${small.toFixed(1)} s, ${large.toFixed(1)} s)`, '<= 5x');
}

/**
 * Best of `runs` runs of a command, in ms: wall time (the least disturbed by other work on a shared machine) and CPU
 * time (user + system, from /usr/bin/time when present), which other work disturbs less.
 */
function bestOf(runs, command, args, options = {}) {
  let wall = Infinity;
  let cpu = Infinity;
  const timed = have('/usr/bin/time');
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const result = timed
      ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, ...options })
      : spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...options });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
    wall = Math.min(wall, performance.now() - started);
    const usage = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
    if (usage) cpu = Math.min(cpu, (Number(usage[1]) + Number(usage[2])) * 1000);
  }
  return { wall, cpu };
}

if (wanted('poppler')) {
  begin('poppler');
  if (!have('pdftotext')) console.log('poppler: skipped (install poppler-utils)');
  else {
    const cases = [
      { name: '500 dense pages', pages: 500, lines: 66, popplerArgs: [], target: 1.5 },
      { name: '2,400-page manual (first 500 searched)', pages: 2400, lines: 45, popplerArgs: ['-l', '500'], target: 3 },
    ];
    for (const { name, pages, lines, popplerArgs, target } of cases) {
      const file = join(work, `poppler-${pages}.pdf`);
      writeFileSync(file, await pdfs.densePdf(pages, lines));
      // Interleaved, best of three each: both see the same machine load.
      const esign = bestOf(3, process.execPath, [bin, '--json', 'anchors', 'find', '--local', file, '--text', 'ANCHORWORD'], { env });
      const poppler = bestOf(3, 'pdftotext', ['-bbox', ...popplerArgs, file, join(work, 'out.html')]);
      report(`poppler: ${name}`, `${(esign.wall / poppler.wall).toFixed(2)}x (esign ${esign.wall.toFixed(0)} ms, pdftotext ${poppler.wall.toFixed(0)} ms)`, `target ${target === 3 ? '<' : '<='} ${target}x`);
      if (Number.isFinite(esign.cpu)) report(`poppler: ${name}, CPU time`, `esign ${esign.cpu.toFixed(0)} ms, pdftotext ${poppler.cpu.toFixed(0)} ms`, `${(esign.cpu / poppler.cpu).toFixed(2)}x`);
    }
  }
}

/** A valid one-page PDF of `size` bytes: a line of text, and an unused stream filling the rest. */
async function bigPdf(file, size) {
  const head = '%PDF-1.7\n';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    (() => {
      const content = 'BT /F1 12 Tf 72 700 Td (Signed by: ANCHORWORD) Tj ET';
      return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
    })(),
  ];
  const stream = createWriteStream(file);
  const offsets = [];
  let written = 0;
  const write = (text) =>
    new Promise((resolve) => {
      written += Buffer.byteLength(text, 'latin1');
      if (stream.write(text, 'latin1')) resolve();
      else stream.once('drain', resolve);
    });
  await write(head);
  for (const [index, body] of objects.entries()) {
    offsets.push(written);
    await write(`${index + 1} 0 obj\n${body}\nendobj\n`);
  }
  const fillerLength = size - written - 200;
  offsets.push(written);
  await write(`5 0 obj\n<< /Length ${fillerLength} >>\nstream\n`);
  const chunk = Buffer.alloc(8 * 1024 * 1024, 0x20);
  for (let left = fillerLength; left > 0; left -= chunk.length) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    written += part.length;
    if (!stream.write(part)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  await write('\nendstream\nendobj\n');
  const xref = written;
  await write(`xref\n0 6\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  await new Promise((resolve) => stream.end(resolve));
}

if (wanted('processing')) {
  begin('processing');
  const size = Number(process.env.ESIGN_BENCH_PROCESSING_BYTES ?? 1024 * 1024 * 1024);
  const emulator = await startEmulator(['--max-document-bytes', String(2 * size), '--processing-delay', '0']);
  try {
    const file = join(work, 'big-valid.pdf');
    await bigPdf(file, size);
    const envelope = await api(emulator, 'POST', '/v4/api/envelopes/', { title: 'processing bench' });
    const target = await api(emulator, 'POST', `/v4/api/envelopes/${envelope.id}/documents`, { fileName: 'big.pdf', contentType: 'application/pdf' });
    execFileSync('curl', ['-s', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/pdf', target.uploadUrl]);
    const started = performance.now();
    let status;
    let failureReason;
    for (;;) {
      const { data } = await api(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents`);
      ({ status, failureReason } = data.find((d) => d.documentId === target.documentId) ?? {});
      if (status !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const peakKiB = Number(/VmHWM:\s+(\d+)/.exec((await import('node:fs')).readFileSync(`/proc/${emulator.child.pid}/status`, 'utf8'))?.[1]);
    report(`processing ${(size / 1024 / 1024).toFixed(0)} MiB PDF: emulator peak RSS`, `${(peakKiB / 1024).toFixed(0)} MiB (${((peakKiB * 1024) / size).toFixed(2)}x the file)`, `target < 1.5x (${status}${failureReason ? `: ${failureReason}` : ''} after ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    rmSync(file, { force: true });
  } finally {
    emulator.stop();
  }
}

if (wanted('list')) {
  begin('list');
  const peaks = {};
  for (const count of [1_000, 100_000]) {
    // Put straight into the store (--preload-contacts): posting 100,000 would take minutes.
    const emulator = await startEmulator(['--no-seed', '--preload-contacts', String(count)]);
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

if (wanted('growth')) {
  begin('growth');
  // Grown by real creates, each keeping its idempotency record, as a CI job's emulator grows; not by a preload.
  const total = Number(process.env.ESIGN_BENCH_GROWTH_TOTAL ?? MILLION);
  const step = Math.max(1, Math.round(total / 10));
  // The first 20,000 creates warm both sides up (the JIT, lazily loaded modules) and are not measured; they count
  // toward the total.
  const warmup = Math.min(20_000, step);
  /** bench/grow.mjs against a server: one line per step, with the server's CPU time per request. */
  const grow = (server, key, count, stepSize) =>
    execFileSync(process.execPath, [join(root, 'bench', 'grow.mjs'), server.url, key, String(count), String(stepSize), '16', String(warmup), String(server.child.pid)], { encoding: 'utf8', maxBuffer: 1 << 24 })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  // The baseline, by the same client: 200,000 requests to the bare route before the emulator's run and as many after,
  // so that a change of the machine's load during the run moves the baseline as well as the emulator.
  const bareRun = async () => {
    const bare = await startScriptServer('bare-fastify', bareFastify);
    try {
      return grow(bare, 'none', warmup + 200_000, 200_000)[0];
    } finally {
      bare.stop();
    }
  };
  const before = await bareRun();
  const emulator = await startEmulator(['--no-seed']);
  let steps;
  let emptyRss;
  let fullRss;
  try {
    emptyRss = rssMiB(emulator.child.pid);
    steps = grow(emulator, emulator.key, total, step);
    fullRss = rssMiB(emulator.child.pid);
  } finally {
    emulator.stop();
  }
  const after = await bareRun();
  const base = { rps: (before.rps + after.rps) / 2, p99: (before.p99 + after.p99) / 2, cpuUs: (before.cpuUs + after.cpuUs) / 2 };
  const ratio = (value, of) => `${(value / of).toFixed(2)}x`;
  const cpuText = (cpuUs) => (Number.isFinite(cpuUs) ? `, CPU ${cpuUs.toFixed(0)} us/request` : '');
  report(
    'growth: bare fastify route',
    `${base.rps.toFixed(0)} req/s, p99 ${base.p99.toFixed(2)} ms${cpuText(base.cpuUs)}`,
    `the baseline, same client (mean of before and after: ${before.rps.toFixed(0)} and ${after.rps.toFixed(0)} req/s)`,
  );
  for (const each of steps) {
    report(
      `growth: creates up to ${each.created.toLocaleString('en')}`,
      `${each.rps.toFixed(0)} req/s (${ratio(each.rps, base.rps)}), p99 ${each.p99.toFixed(2)} ms (${ratio(each.p99, base.p99)})${cpuText(each.cpuUs)}`,
      `target >= 0.5x, p99 <= 5x (non-2xx: ${each.non2xx})`,
    );
  }
  const rates = steps.map((each) => each.rps);
  report('growth: slowest step vs the first', ratio(Math.min(...rates), rates[0]), 'target >= 0.90x (flat within 10%)');
  if (steps[0].cpuUs !== undefined) {
    // CPU time per create follows the emulator's own work, not the machine's load: what grows with the store shows here.
    // A step holding one of V8's full collections pays for marking the whole heap at once (about 1 s at 900 MiB);
    // V8 lets the heap grow by a factor between them, so spread over the creates that cost stays the same per create,
    // which the first and the last 30% of the creates, each taken as a whole, show.
    const costs = steps.map((each) => each.cpuUs);
    const counts = steps.map((each, index) => each.created - (index === 0 ? warmup : steps[index - 1].created));
    /** CPU per create over the steps from `from` to `to` (indexes), weighted by their creates. */
    const window = (from, to) => {
      let cpu = 0;
      let count = 0;
      for (let index = from; index < to; index++) {
        cpu += costs[index] * counts[index];
        count += counts[index];
      }
      return cpu / count;
    };
    const third = Math.max(1, Math.round(steps.length * 0.3));
    report('growth: CPU per create, costliest step vs the first', `${ratio(costs[0], Math.max(...costs))}`, 'a full collection lands in some step');
    report(
      'growth: CPU per create, first 30% vs last 30%',
      `${window(0, third).toFixed(0)} vs ${window(steps.length - third, steps.length).toFixed(0)} us (${ratio(window(0, third), window(steps.length - third, steps.length))})`,
      'target >= 0.90x (flat within 10%)',
    );
    report('growth: CPU per request, bare route vs emulator (all creates)', ratio(base.cpuUs, window(0, steps.length)), 'target >= 0.5x');
  }
  report('growth: memory per envelope (with its idempotency record)', `${(((fullRss - emptyRss) * 1024 * 1024) / total).toFixed(0)} bytes`, `RSS ${fullRss.toFixed(0)} MiB over the empty emulator's ${emptyRss.toFixed(0)} MiB`);
}

if (wanted('ceiling')) {
  begin('ceiling');
  // batch run against an account ceiling: it should pace itself from the RateLimit headers, not retry into 429s.
  const ceiling = Number(process.env.ESIGN_BENCH_CEILING ?? 100);
  const count = Number(process.env.ESIGN_BENCH_CEILING_ENVELOPES ?? 1000);
  const dir = join(work, 'ceiling');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agreement.pdf'), await pdfs.simplePdf({ pages: [['Agreement.', '', 'Signature: {{sign}}']] }));
  const file = join(dir, 'batch.json');
  const envelopes = Array.from({ length: count }, (_, index) => ({
    ref: `e${index}`,
    title: `Ceiling ${index}`,
    participants: [{ ref: 'signer', name: `Signer ${index}`, email: `signer${index}@example.test` }],
    documents: [{ ref: 'agreement', file: 'agreement.pdf' }],
    fields: [{ type: 'SIGNATURE', documentRef: 'agreement', participantRef: 'signer', size: { width: 180, height: 40 }, anchor: { text: '{{sign}}' } }],
  }));
  writeFileSync(file, JSON.stringify({ version: 1, defaults: { via: 'send-now' }, envelopes }));
  const emulator = await startEmulator(['--no-seed', '--rate-limit', `${ceiling}/s`, '--message-limit', '1000000', '--processing-delay', '50']);
  try {
    const started = performance.now();
    // --debug traces every attempt (`> METHOD url`) and every answer (`< status`): the requests and the 429s.
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, bin, '--debug', '--json', 'batch', 'run', file, '--concurrency', '8', '--journal', `${file}.journal.jsonl`, '--force'], {
      env: { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key },
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`batch run under a ceiling failed (${run.status}): ${run.stderr.slice(-2000)}`);
    const summary = JSON.parse(run.stdout);
    const lines = run.stderr.split('\n');
    const requests = lines.filter((line) => /^\[debug\] > [A-Z]+ http\S+\/v4\//.test(line)).length;
    const refused = lines.filter((line) => line.startsWith('[debug] < 429')).length;
    const [user, system] = lines.filter((line) => /^[\d.]+ [\d.]+$/.test(line)).pop().split(' ').map(Number);
    report(`ceiling: API requests/s vs a ${ceiling}/s ceiling`, `${(requests / seconds).toFixed(1)}/s (${((requests / seconds / ceiling) * 100).toFixed(0)}%; ${requests} requests in ${seconds.toFixed(1)} s, whole command)`, 'target >= 90%');
    report('ceiling: 429 answers', `${refused} of ${requests} (${((refused / requests) * 100).toFixed(2)}%)`, 'target < 2%');
    report('ceiling: envelopes', `${summary.succeeded} of ${count} done, ${summary.failed ?? 0} failed; ${(count / seconds).toFixed(1)} envelopes/s`, 'target: none failed');
    report('ceiling: CLI CPU time per envelope', `${(((user + system) * 1000) / count).toFixed(1)} ms`);
  } finally {
    emulator.stop();
  }
}

if (wanted('batch')) {
  begin('batch');
  // The same envelope spec for the batch and for the loop: send-now (one call, then the upload) in both, so the ratio
  // measures what batch mode adds (one process, a pool of keep-alive connections, 8 in flight), not another route.
  const dir = join(work, 'batch');
  mkdirSync(join(dir, 'single'), { recursive: true });
  const lines = (page) => [`Page ${page} of the bench agreement.`, '', 'Terms and conditions apply.'];
  writeFileSync(join(dir, 'agreement.pdf'), await pdfs.simplePdf({ pages: [lines(1), lines(2), [...lines(3), '', 'Signature: {{sign}}', '', 'Initials: {{initials}}']] }));
  const envelope = (index) => ({
    title: `Bench ${index}`,
    participants: [{ ref: 'signer', name: `Signer ${index}`, email: `signer${index}@example.test` }],
    documents: [{ ref: 'agreement', file: 'agreement.pdf' }],
    fields: [
      { type: 'SIGNATURE', documentRef: 'agreement', participantRef: 'signer', size: { width: 180, height: 40 }, anchor: { text: '{{sign}}' } },
      { type: 'INITIALS', documentRef: 'agreement', participantRef: 'signer', size: { width: 60, height: 24 }, anchor: { text: '{{initials}}' } },
    ],
  });
  const batchFile = (count) => {
    const file = join(dir, `batch-${count}.json`);
    writeFileSync(file, JSON.stringify({ version: 1, defaults: { via: 'send-now' }, envelopes: Array.from({ length: count }, (_, index) => ({ ref: `e${index}`, ...envelope(index) })) }));
    return file;
  };
  const emulatorArgs = ['--message-limit', '1000000', '--processing-delay', '50'];
  /** One `batch run` under /usr/bin/time against a fresh emulator: seconds, peak RSS (MiB), user+system CPU seconds. */
  const timedBatch = async (count) => {
    const file = batchFile(count);
    const emulator = await startEmulator(emulatorArgs);
    try {
      const started = performance.now();
      const run = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, bin, '--json', 'batch', 'run', file, '--concurrency', '8', '--journal', `${file}.journal.jsonl`, '--force'], {
        env: { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const seconds = (performance.now() - started) / 1000;
      if (run.status !== 0) throw new Error(`batch run of ${count} failed (${run.status}): ${run.stderr.slice(-2000)}`);
      const summary = JSON.parse(run.stdout);
      if (summary.succeeded !== count) throw new Error(`batch run of ${count}: ${summary.succeeded} succeeded`);
      const [peakKiB, user, system] = run.stderr.trim().split('\n').pop().split(' ').map(Number);
      return { seconds, peakMiB: peakKiB / 1024, cpuSeconds: user + system };
    } finally {
      emulator.stop();
    }
  };
  const large = await timedBatch(500);
  const small = await timedBatch(50);
  report('batch: 500 envelopes, concurrency 8', `${(500 / large.seconds).toFixed(1)} envelopes/s (${large.seconds.toFixed(1)} s)`);
  report('batch: CLI CPU time per envelope', `${((large.cpuSeconds * 1000) / 500).toFixed(1)} ms (${large.cpuSeconds.toFixed(1)} s in all)`);
  report('batch: CLI peak RSS, 500 vs 50 envelopes', `${large.peakMiB.toFixed(0)} vs ${small.peakMiB.toFixed(0)} MiB (${(large.peakMiB / small.peakMiB).toFixed(2)}x)`, 'target <= 1.2x');

  const sample = 30;
  for (let index = 0; index < sample; index++) writeFileSync(join(dir, 'single', `e${index}.json`), JSON.stringify({ ...envelope(index), documents: [{ ref: 'agreement', file: '../agreement.pdf' }] }));
  const emulator = await startEmulator(emulatorArgs);
  try {
    const started = performance.now();
    execFileSync('sh', ['-c', `for spec in single/*.json; do "$0" "$1" envelopes send-now --file "$spec" > /dev/null || exit 1; done`, process.execPath, bin], {
      cwd: dir,
      env: { ...env, ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: emulator.key },
      // Each command's own lines (created, uploaded) would bury the report; a failure still shows through the exit.
      stdio: 'ignore',
    });
    const loopRate = sample / ((performance.now() - started) / 1000);
    const batchRate = 500 / large.seconds;
    report('batch: shell loop of send-now (30, extrapolated)', `${loopRate.toFixed(1)} envelopes/s`);
    report('batch: batch run vs the shell loop', `${(batchRate / loopRate).toFixed(1)}x`, 'target >= 10x');
  } finally {
    emulator.stop();
  }
}

/**
 * bench/results.md: this run's sections replace their earlier results, the others stay as they were, each with the
 * machine, the date and the load it was measured under.
 */
function writeResultsFile() {
  const file = join(root, 'bench', 'results.md');
  const blocks = new Map();
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  for (const match of previous.matchAll(/<!-- section: ([\w-]+) -->\n([\s\S]*?)<!-- end: \1 -->\n/g)) blocks.set(match[1], match[2]);
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`;
  const load = `load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')} (1 / 5 / 15 min) at the end`;
  const ran = [...new Set(results.map((result) => result.section))];
  for (const name of ran) {
    const rows = results.filter((result) => result.section === name).map((result) => `| ${result.name} | ${result.value} | ${result.target ?? ''} |`);
    blocks.set(name, [`### ${name}`, '', `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${machine} · ${load}`, '', '| what | measured | target |', '|---|---|---|', ...rows, ''].join('\n'));
  }
  const order = ['startup', 'client', 'anchors', 'emulator', 'growth', 'receive', 'upload', 'send-now', 'local', 'poppler', 'processing', 'list', 'batch', 'ceiling'];
  const names = [...order.filter((name) => blocks.has(name)), ...[...blocks.keys()].filter((name) => !order.includes(name))];
  const body = names.map((name) => `<!-- section: ${name} -->\n${blocks.get(name)}<!-- end: ${name} -->\n`).join('\n');
  writeFileSync(
    file,
    `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.mjs); each section says when and where it ran. A load average above the core\ncount means other work shared the machine: ratios measured in one run hold up better than absolute numbers.\n\n${body}`,
  );
}

if (results.length > 0) writeResultsFile();
rmSync(join(root, 'node_modules', '.esign-bench-pdfs.mjs'), { force: true });
