// The latency side of the emulator bench: `node bench/closed-loop.mjs URL KEY SECONDS CONNECTIONS` keeps CONNECTIONS
// keep-alive connections each with one create in flight (a closed loop, as wrk runs), for a 2 s warm-up and then
// SECONDS, and prints {rps, p50, p99, p999, non2xx} as JSON (milliseconds).
//
// Why not wrk's own percentiles: on a 2-core machine the server's main thread takes one core and wrk's threads share
// the other with V8's helper threads, and wrk then reports, for the emulator's creates, a tail the server never had.
// In one run wrk gave p99 3.6 ms and p99.9 12.5 ms while the packets on the loopback interface (tcpdump, request to
// answer, same connections) gave p99 1.9 ms and p99.9 2.5 ms; the event loop's own delays agreed with the packets.
// This client, one thread in a process of its own, measures close to the packets (p99 2.0-2.2 ms in runs like that).
import { createLoop } from './create-loop.mjs';

const [url, key, seconds = '10', connections = '16'] = process.argv.slice(2);
let counter = 0;
let measuring = false;
let stopping = false;
let non2xx = 0;
const latencies = [];

for (let id = 0; id < Number(connections); id++) {
  createLoop({
    url,
    key,
    label: 'closed-loop',
    next: () => (stopping ? undefined : `closed-loop-${process.pid}-${id}-${counter++}`),
    answered: (head, latency) => {
      if (!measuring) return;
      latencies.push(latency);
      if (!/^HTTP\/1\.1 2/.test(head)) non2xx++;
    },
  });
}
setTimeout(() => (measuring = true), 2000);
setTimeout(() => {
  stopping = true;
  measuring = false;
  const sorted = Float64Array.from(latencies).sort();
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
  console.log(JSON.stringify({ rps: sorted.length / Number(seconds), p50: at(0.5), p99: at(0.99), p999: at(0.999), non2xx }));
  process.exit(0);
}, 2000 + Number(seconds) * 1000);
