// One keep-alive connection with one create in flight at a time (a closed loop): POST /v4/api/envelopes/ with the key
// and the Idempotency-Key `next()` gives, the answer read by hand (no HTTP client's cost in the measure), `answered`
// told its head and latency, then the next create; `next()` answering undefined ends the connection. Shared by
// bench/closed-loop.mjs and bench/grow.mjs.
import net from 'node:net';

const body = '{"title":"bench"}';

export function createLoop({ url, key, label, next, answered }) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.setNoDelay(true);
  socket.setEncoding('latin1');
  let sentAt = 0;
  let received = '';
  const send = () => {
    const idempotencyKey = next();
    if (idempotencyKey === undefined) return socket.end();
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
      answered(head, performance.now() - sentAt);
      send();
    }
  });
  socket.on('error', (error) => {
    console.error(`${label}: ${error.message}`);
    process.exit(1);
  });
  socket.on('connect', send);
}
