// The latency side of the emulator bench: `node bench/closed-loop.mjs URL KEY SECONDS CONNECTIONS` keeps CONNECTIONS
// keep-alive connections each with one create in flight (a closed loop, as wrk runs), for a 2 s warm-up and then
// SECONDS, and prints {rps, p50, p99, p999, non2xx} as JSON (milliseconds).
//
// Why not wrk's own percentiles: on a 2-core machine the server's main thread takes one core and wrk's threads share
// the other with V8's helper threads, and wrk then reports, for the emulator's creates, a tail the server never had.
// In one run wrk gave p99 3.6 ms and p99.9 12.5 ms while the packets on the loopback interface (tcpdump, request to
// answer, same connections) gave p99 1.9 ms and p99.9 2.5 ms; the event loop's own delays agreed with the packets.
// This client, one thread in a process of its own, measures close to the packets (p99 2.0-2.2 ms in runs like that).
import net from 'node:net';

const [url, key, seconds = '10', connections = '16'] = process.argv.slice(2);
const { hostname, port } = new URL(url);
const body = '{"title":"bench"}';
let counter = 0;
let measuring = false;
let stopping = false;
let non2xx = 0;
const latencies = [];

function connect(id) {
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.setNoDelay(true);
  socket.setEncoding('latin1');
  let sentAt = 0;
  let received = '';
  const send = () => {
    if (stopping) return socket.end();
    const idempotencyKey = `closed-loop-${process.pid}-${id}-${counter++}`;
    sentAt = performance.now();
    socket.write(
      `POST /v4/api/envelopes/ HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Idempotency-Key: ${idempotencyKey}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
  };
  socket.on('data', (chunk) => {
    received += chunk;
    for (;;) {
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.slice(0, headEnd);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      received = received.slice(headEnd + 4 + length);
      if (measuring) {
        latencies.push(performance.now() - sentAt);
        if (!/^HTTP\/1\.1 2/.test(head)) non2xx++;
      }
      send();
    }
  });
  socket.on('error', (error) => {
    console.error(`closed-loop: ${error.message}`);
    process.exit(1);
  });
  socket.on('connect', send);
}

for (let id = 0; id < Number(connections); id++) connect(id);
setTimeout(() => (measuring = true), 2000);
setTimeout(() => {
  stopping = true;
  measuring = false;
  const sorted = Float64Array.from(latencies).sort();
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
  console.log(JSON.stringify({ rps: sorted.length / Number(seconds), p50: at(0.5), p99: at(0.99), p999: at(0.999), non2xx }));
  process.exit(0);
}, 2000 + Number(seconds) * 1000);
