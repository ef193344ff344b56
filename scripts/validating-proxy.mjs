// A validating proxy in front of an emulator, for CI: every request esign sends to the contract's operations and every
// answer the emulator gives passes through Prism (@stoplight/prism-cli, proxy mode, --errors), which checks both
// against docs/openapi.json. Other paths (the emulator's /_emulator/ control routes that `esign emulator sign` uses)
// go straight to the emulator; signed upload and download addresses name the emulator itself, since Prism forwards
// without the Host header.
//
//   ESIGN_PRISM='<node> <path to prism-cli/dist/index.js>' node scripts/validating-proxy.mjs <emulator URL>
//
// Prints {"url": ...} (the address to use instead of the emulator's) once Prism listens. On SIGTERM, SIGINT or the
// end of its standard input it stops, prints every violation Prism reported (a request or an answer that does not conform, a path the document
// lacks) to stderr, and exits 1 if there was any, else 0. .ci/run installs Prism (it needs Node >= 24.18) into a
// prefix of its own and sets ESIGN_PRISM; test/support/emulator.ts and scripts/demo.mjs put this proxy in front of
// their emulators when it is set.
import { spawn } from 'node:child_process';
import { createServer, request as forward } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const upstream = new URL(process.argv[2] ?? '');
const [command, ...prefixArgs] = (process.env.ESIGN_PRISM ?? '').split(' ').filter(Boolean);
if (!command) {
  console.error('usage: ESIGN_PRISM="<node> <prism-cli/dist/index.js>" node scripts/validating-proxy.mjs <emulator URL>');
  process.exit(2);
}

/** Lines of Prism's log that report a violation: a non-conforming request or answer, or a path it does not know. */
const violationLine = /Violation:|✖/;
const violations = [];

/** A free loopback port, for Prism (which cannot be asked for port 0 and then report it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const prismPort = await freePort();
const prism = spawn(
  command,
  [...prefixArgs, 'proxy', join(root, 'docs', 'openapi.json'), upstream.origin, '--errors', '--host', '127.0.0.1', '--port', String(prismPort)],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
);
let listening;
const ready = new Promise((resolve, reject) => {
  listening = resolve;
  prism.on('exit', (code) => reject(new Error(`Prism exited with ${code} before listening`)));
});
let pending = '';
function readLog(chunk) {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) {
    if (/Prism is listening/.test(line)) listening();
    else if (violationLine.test(line)) violations.push(line.trim());
  }
}
prism.stdout.setEncoding('utf8').on('data', readLog);
prism.stderr.setEncoding('utf8').on('data', readLog);
await ready;

/** The contract's paths go through Prism; the rest straight to the emulator. */
const router = createServer((incoming, outgoing) => {
  const toPrism = /^\/v[0-9]+\//.test(incoming.url ?? '');
  const target = toPrism ? { hostname: '127.0.0.1', port: prismPort } : { hostname: upstream.hostname, port: upstream.port };
  // The control routes answer only requests addressed to the emulator itself.
  const headers = toPrism ? incoming.headers : { ...incoming.headers, host: upstream.host };
  const relay = forward({ ...target, method: incoming.method, path: incoming.url, headers }, (answer) => {
    outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(outgoing);
  });
  relay.on('error', (error) => {
    outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`validating proxy: ${error.message}`);
  });
  incoming.pipe(relay);
});
await new Promise((resolve) => router.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ url: `http://127.0.0.1:${router.address().port}` }));

function stop() {
  router.close();
  router.closeAllConnections();
  prism.kill('SIGTERM');
  if (violations.length) {
    console.error(`${violations.length} violation(s) of docs/openapi.json:\n${violations.join('\n')}`);
    process.exitCode = 1;
  }
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// A parent that dies without stopping the proxy closes its standard input: the proxy stops rather than linger.
process.stdin.once('end', stop).resume();
