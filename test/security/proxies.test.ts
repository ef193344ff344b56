/*
 * Issue #21: HTTPS_PROXY, HTTP_PROXY and NO_PROXY were silently ignored. esign honours them as curl, gh and npm do
 * (lower case too), with CONNECT for https, loopback always direct, and the key only ever inside the TLS tunnel: the
 * proxy gets a Proxy-Authorization only from its own URL's user and password. The service here is the real emulator
 * behind a TLS front for `api.esign.test`, a name only the logging proxy can reach.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson, runEsign, type RunOptions } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { spawnEsign } from '../support/long-running.js';
import { startLoggingProxy, startTlsFront, type LoggingProxy, type TlsFront } from '../support/logging-proxy.js';

const emulator = useEmulator();
const HOST = 'api.esign.test';
let front: TlsFront;
let proxy: LoggingProxy;

beforeAll(async () => {
  front = await startTlsFront(HOST, Number(new URL(emulator.url).port));
});
beforeEach(async () => {
  await proxy?.close();
  proxy = await startLoggingProxy({ [`${HOST}:443`]: front.port });
});
afterAll(async () => {
  await proxy?.close();
  await front?.close();
});

const proxyVariables = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** Only the proxy variables given, whatever the machine running the tests has set. */
function proxyEnv(set: Record<string, string>): Record<string, string | undefined> {
  return { ...Object.fromEntries(proxyVariables.map((name) => [name, undefined])), ...set };
}

/** `esign me` against https://api.esign.test with the emulator's key, trusting the front's certificate. */
function meThrough(variables: Record<string, string>, options: RunOptions = {}) {
  return runEsign(['me', '--json', '--timeout', '5'], {
    ...options,
    env: { ESIGN_SANDBOX_BASE_URL: `https://${HOST}`, ESIGN_API_KEY: emulator.key, NODE_EXTRA_CA_CERTS: front.caFile, ...proxyEnv(variables), ...options.env },
  });
}

/** Neither the key nor its secret part in anything the proxy saw outside the tunnel, nor in the tunnel's bytes. */
function expectKeyNeverSeenByProxy(): void {
  const secret = emulator.key.split('_').at(-1)!;
  const outside = JSON.stringify(proxy.seen);
  for (const form of [emulator.key, secret, Buffer.from(emulator.key).toString('base64')]) {
    expect(outside).not.toContain(form);
    expect(proxy.tunnelled().includes(form)).toBe(false);
  }
  expect(proxy.seen.every((sighting) => sighting.headers.authorization === undefined)).toBe(true);
}

describe('proxies', () => {
  it('sends an https request through HTTPS_PROXY with CONNECT; the key travels only inside the TLS tunnel', async () => {
    const result = await meThrough({ HTTPS_PROXY: proxy.url });
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson(result.stdout)).toMatchObject({ environment: 'sandbox' });
    expect(proxy.seen.map((sighting) => `${sighting.method} ${sighting.target}`)).toEqual([`CONNECT ${HOST}:443`]);
    expect(proxy.seen[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(proxy.tunnelled().length).toBeGreaterThan(0);
    expectKeyNeverSeenByProxy();
  });

  it('reads the lower-case https_proxy, and makes Proxy-Authorization only from the user and password in its URL', async () => {
    const proxyUrl = new URL(proxy.url);
    proxyUrl.username = 'alice';
    proxyUrl.password = 's3cret';
    const result = await meThrough({ https_proxy: proxyUrl.href });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    expectKeyNeverSeenByProxy();
  });

  it('uses HTTP_PROXY for https when it is the only proxy variable, as npm does', async () => {
    const result = await meThrough({ HTTP_PROXY: proxy.url });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.seen.map((sighting) => sighting.method)).toEqual(['CONNECT']);
    expectKeyNeverSeenByProxy();
  });

  it('goes direct for a host NO_PROXY names (here by its domain): the proxy sees nothing', async () => {
    // Direct, api.esign.test does not resolve: the run fails, and that is the proof it did not use the proxy.
    const result = await meThrough({ HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,esign.test' });
    expect(result.code, result.stderr).toBe(7);
    expect(proxy.seen).toEqual([]);
  });

  it('keeps loopback direct whatever the variables say: the emulator over http:// never meets the proxy', async () => {
    const result = await runEsign(['envelopes', 'list', '--json'], { env: { ...emulator.env, ...proxyEnv({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }) } });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.seen).toEqual([]);
  });

  it('says which proxy refused and why, without the password in its URL or the key', async () => {
    await proxy.close();
    proxy = await startLoggingProxy({}, { refuseWith: 407 });
    const proxyUrl = new URL(proxy.url);
    proxyUrl.username = 'bob';
    proxyUrl.password = 'hunter2';
    const result = await meThrough({ HTTPS_PROXY: proxyUrl.href });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain(`The proxy in HTTPS_PROXY (${proxy.url}) refused to connect to https://${HOST}: it answered 407.`);
    expect(result.stderr).toContain('give them in its URL');
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).not.toMatch(/\n\s+at \S+|This is a bug/);
    // Asked once: the same proxy answers the same on every attempt.
    expect(proxy.seen.map((sighting) => sighting.method)).toEqual(['CONNECT']);
    expectKeyNeverSeenByProxy();
  });

  it('tries again through a proxy that answered 502 (the host unreachable from it, for now), as after a connection error', async () => {
    await proxy.close();
    proxy = await startLoggingProxy({}, { refuseWith: 502 });
    const result = await meThrough({ HTTPS_PROXY: proxy.url });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain(`The proxy in HTTPS_PROXY (${proxy.url}) refused to connect to https://${HOST}: it answered 502.`);
    expect(proxy.seen.length).toBe(4);
  });

  it('loads the proxy library only when a proxy variable is set', async () => {
    const loaded = async (variables: Record<string, string>) => {
      const result = await meThrough(variables, { env: { NODE_DEBUG: 'module' } });
      return /node_modules\/undici\//.test(result.stderr);
    };
    // NODE_DEBUG=module logs every CommonJS file Node loads; undici is one.
    expect(await loaded({ HTTPS_PROXY: proxy.url })).toBe(true);
    expect(await loaded({})).toBe(false);
  });

  it('forwards a webhooks listen delivery to a plain http host through HTTP_PROXY, in absolute form as curl does', async () => {
    const received: string[] = [];
    const app = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    await proxy.close();
    proxy = await startLoggingProxy({ 'app.esign.test:80': (app.address() as AddressInfo).port });
    const secret = `whsec_${Buffer.from('a listener secret, only for tests').toString('base64')}`;
    const listener = spawnEsign(['webhooks', 'listen', '--port', '0', '--secret-stdin', '--forward-to', 'http://app.esign.test/hooks'], proxyEnv({ HTTP_PROXY: proxy.url }) as Record<string, string>, secret);
    try {
      const { url } = await listener.waitForLine((line) => line.kind === 'listening', 'the listener to start');
      const body = JSON.stringify({ id: 'evt_1', type: 'ENVELOPE_SENT', createdAt: new Date().toISOString(), data: { envelope: { id: 'env-1' } } });
      const at = new Date();
      const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_1', at, body) };
      // The listener itself is on loopback: this request is direct, whatever the variables say.
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
      expect(proxy.seen.map((sighting) => `${sighting.method} ${sighting.target}`)).toEqual(['POST http://app.esign.test/hooks']);
      expect(received).toEqual(['POST /hooks']);
    } finally {
      await listener.stop('SIGKILL');
      await new Promise((resolve) => app.close(resolve));
    }
  });
});
