/*
 * A forward proxy as a corporate network runs one, in a few lines of node:http, that logs what it sees: CONNECT for
 * https (then only the TLS bytes, which it keeps too), absolute-form requests for plain http. Host names are made up
 * (`api.esign.test`): the proxy routes each `host:port` to a loopback port, so nothing leaves the machine, and a client
 * that ignored the proxy could not reach the host at all. Also a TLS front with a certificate made for the test.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { tempDir } from './cli.js';

export interface ProxySighting {
  method: string;
  /** `host:port` for CONNECT, the absolute URL for a plain http request. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface LoggingProxy {
  url: string;
  seen: ProxySighting[];
  /** Every byte a client sent inside its CONNECT tunnels. */
  tunnelled(): Buffer;
  close(): Promise<void>;
}

function track(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** `routes` maps `host:port` to a loopback port; anything else is answered 502, as a proxy that cannot reach it. */
export async function startLoggingProxy(routes: Record<string, number>, options: { refuseWith?: number } = {}): Promise<LoggingProxy> {
  const seen: ProxySighting[] = [];
  const tunnelBytes: Buffer[] = [];
  const upstreams = new Set<Socket>();
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', target: request.url ?? '', headers: request.headers });
    const target = URL.canParse(request.url ?? '') ? new URL(request.url!) : undefined;
    const port = target ? routes[`${target.hostname}:${target.port || 80}`] : undefined;
    if (options.refuseWith || port === undefined) {
      response.writeHead(options.refuseWith ?? 502).end();
      return;
    }
    const forwarded = httpRequest({ host: '127.0.0.1', port, method: request.method, path: `${target!.pathname}${target!.search}`, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', target: request.url ?? '', headers: request.headers });
    client.on('error', () => {});
    const port = routes[request.url ?? ''];
    if (options.refuseWith || port === undefined) {
      client.end(`HTTP/1.1 ${options.refuseWith ?? 502} Refused\r\n\r\n`);
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      tunnelBytes.push(head);
      client.on('data', (chunk: Buffer) => tunnelBytes.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    upstreams.add(upstream);
    upstream.on('error', () => client.destroy());
  });
  const port = await listen(server);
  const close = track(server);
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    tunnelled: () => Buffer.concat(tunnelBytes),
    async close() {
      for (const upstream of upstreams) upstream.destroy();
      await close();
    },
  };
}

export interface TlsFront {
  port: number;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  close(): Promise<void>;
}

/** A certificate for `hostName`, made now by openssl (a self-signed CA certificate that is its own leaf). */
function certificateFor(hostName: string): { cert: string; key: string; certFile: string } {
  const dir = tempDir('esign-tls-');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${hostName}`, '-addext', `subjectAltName=DNS:${hostName}`, '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

/** TLS for `hostName` on a loopback port, each connection's bytes passed on to `toPort` (an emulator's plain http). */
export async function startTlsFront(hostName: string, toPort: number): Promise<TlsFront> {
  const { cert, key, certFile } = certificateFor(hostName);
  const server = createTlsServer({ cert, key }, (socket) => {
    const upstream = connect(toPort, '127.0.0.1');
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  const port = await listen(server);
  return { port, caFile: certFile, close: track(server) };
}
