// The emulator as it really grows: `node bench/grow.mjs URL KEY TOTAL STEP CONNECTIONS WARMUP [SERVER_PID]` creates
// TOTAL envelopes through the API, each with an Idempotency-Key of its own (so each keeps its idempotency record), with
// CONNECTIONS keep-alive connections each with one create in flight (a closed loop, as bench/closed-loop.mjs runs), and
// prints one JSON line per STEP creates after the first WARMUP (not measured: the JIT on both sides, connections
// opening): {created, rps, p50, p99, non2xx} (milliseconds) of that step, and with SERVER_PID (Linux) cpuUs: the
// server's CPU time (user + system) per request in microseconds. On a machine shared with other work, requests/s
// follow the load; the server's CPU time per request follows what the server does, so it shows what grows with the
// store.
import { readFileSync } from 'node:fs';
import { createLoop } from './create-loop.mjs';

const [url, key, total = '1000000', step = '100000', connections = '16', warmup = '0', serverPid] = process.argv.slice(2);
let started = 0;
let created = 0;
let non2xx = 0;
let stepStarted = performance.now();
let latencies = [];

/** The server's CPU time so far, in microseconds (/proc counts in 1/100 s), or NaN without a pid or /proc. */
function serverCpuUs() {
  if (serverPid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${serverPid}/stat`, 'latin1').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}
let cpuAtStepStart = serverCpuUs();
let open = Number(connections);

function endStep() {
  const seconds = (performance.now() - stepStarted) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
  const cpu = serverCpuUs();
  const cpuUs = (cpu - cpuAtStepStart) / latencies.length;
  console.log(JSON.stringify({ created, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), non2xx, ...(Number.isNaN(cpuUs) ? {} : { cpuUs }) }));
  latencies = [];
  non2xx = 0;
  stepStarted = performance.now();
  cpuAtStepStart = cpu;
}

for (let id = 0; id < Number(connections); id++) {
  createLoop({
    url,
    key,
    label: 'grow',
    next: () => {
      if (started >= Number(total)) {
        if (--open === 0 && latencies.length > 0) endStep();
        return undefined;
      }
      started++;
      return `grow-${process.pid}-${id}-${started}`;
    },
    answered: (head, latency) => {
      created++;
      if (created === Number(warmup)) {
        stepStarted = performance.now();
        cpuAtStepStart = serverCpuUs();
      }
      if (created > Number(warmup)) {
        latencies.push(latency);
        if (!/^HTTP\/1\.1 2/.test(head)) non2xx++;
        if ((created - Number(warmup)) % Number(step) === 0) endStep();
      }
    },
  });
}
