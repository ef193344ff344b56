import { describe, expect, it } from 'vitest';
import { networkHint } from './network-hints.js';

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
