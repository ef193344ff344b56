import { afterEach, describe, expect, it, vi } from 'vitest';
import { networkHint, proxyFor, proxyRefusal } from './network-hints.js';
import { ProxyRefusedError } from '../core/errors.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Only the proxy variables given, whatever the machine running the tests has set. */
function proxyVariables(set: Record<string, string>): void {
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) vi.stubEnv(name, set[name] ?? '');
}

describe('networkHint', () => {
  it('points a refused connection on this machine at the emulator, and elsewhere at the base URL', () => {
    expect(networkHint('ECONNREFUSED', 'http://127.0.0.1:4010')).toContain('esign emulator');
    expect(networkHint('ECONNREFUSED', 'http://localhost:4010')).toContain('esign emulator');
    expect(networkHint('ECONNREFUSED', 'https://api.example.com')).not.toContain('emulator');
  });

  it('says TLS was not answered, and for the emulator that it serves http://', () => {
    expect(networkHint('EPROTO', 'https://127.0.0.1:4010')).toContain('use http://');
    expect(networkHint('ERR_SSL_WRONG_VERSION_NUMBER', 'https://api.example.com:80')).toContain('scheme and port');
  });

  it('names the cause of a host that does not resolve, an untrusted certificate and an unreachable network', () => {
    expect(networkHint('ENOTFOUND', 'https://api.example.invalid')).toContain('does not resolve');
    expect(networkHint('SELF_SIGNED_CERT_IN_CHAIN', 'https://api.example.com')).toContain('NODE_EXTRA_CA_CERTS');
    expect(networkHint('ERR_TLS_CERT_ALTNAME_INVALID', 'https://api.example.com')).toContain('not trusted');
    expect(networkHint('EHOSTUNREACH', 'https://api.example.com')).toContain('network does not reach');
  });

  it('adds nothing for a code it has no advice for', () => {
    expect(networkHint('ECONNRESET', 'https://api.example.com')).toBeUndefined();
    expect(networkHint(undefined, 'https://api.example.com')).toBeUndefined();
  });
});

describe('proxyFor and proxyRefusal', () => {
  it('name the variable a host follows and the proxy without its user and password; loopback follows none', () => {
    proxyVariables({ https_proxy: 'http://alice:s3cret@proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:8080' });
    expect(proxyFor('https://api.example.com')).toBe('HTTPS_PROXY (http://proxy.corp:3128)');
    expect(proxyFor('http://app.example.com')).toBe('HTTP_PROXY (http://plain.corp:8080)');
    expect(proxyFor('http://127.0.0.1:4010')).toBeUndefined();
    expect(proxyFor('https://localhost')).toBeUndefined();
  });

  it('fall back to HTTP_PROXY for https when it is the only variable, and to nothing without one', () => {
    proxyVariables({ HTTP_PROXY: 'http://plain.corp:8080' });
    expect(proxyFor('https://api.example.com')).toBe('HTTP_PROXY (http://plain.corp:8080)');
    proxyVariables({});
    expect(proxyFor('https://api.example.com')).toBeUndefined();
    expect(networkHint('ECONNREFUSED', 'https://api.example.com')).not.toContain('PROXY');
  });

  it('add the proxy to the hint of a failed connection, and read a refused tunnel with its status', () => {
    proxyVariables({ HTTPS_PROXY: 'http://bob:hunter2@proxy.corp:3128' });
    expect(networkHint('ECONNREFUSED', 'https://api.example.com')).toContain('HTTPS_PROXY (http://proxy.corp:3128) is set');
    const refused = proxyRefusal('Proxy response (407) !== 200 when HTTP Tunneling', 'https://api.example.com');
    expect(refused).toBeInstanceOf(ProxyRefusedError);
    expect(refused).toMatchObject({
      message: 'The proxy in HTTPS_PROXY (http://proxy.corp:3128) refused to connect to https://api.example.com: it answered 407.',
      hint: expect.stringContaining('http://user:password@proxy:port'),
      code: 'PROXY_REFUSED',
      proxyStatus: 407,
    });
    expect(JSON.stringify(refused)).not.toContain('hunter2');
    expect(proxyRefusal('socket hang up', 'https://api.example.com')).toBeUndefined();
  });
});
