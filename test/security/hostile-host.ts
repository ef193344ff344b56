import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real `node:http` server on loopback that counts what reaches it and remembers the Authorization headers. */
export interface CountingHost {
  url: string;
  port: number;
  requests: number;
  authorizations: string[];
  close(): Promise<void>;
}

export async function startCountingHost(): Promise<CountingHost> {
  const host: CountingHost = {
    url: '',
    port: 0,
    requests: 0,
    authorizations: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    host.requests += 1;
    if (request.headers.authorization) host.authorizations.push(request.headers.authorization);
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'INVALID_API_KEY', message: 'counted' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.port = (server.address() as AddressInfo).port;
  host.url = `http://127.0.0.1:${host.port}`;
  return host;
}
