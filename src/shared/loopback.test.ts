import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl } from './loopback.js';

// pins.md, "Plain http:// base URL": loopback is `localhost`, `127.0.0.0/8`, `::1`, and nothing else.
describe('loopback, decided on the literal host', () => {
  it('accepts exactly localhost, 127.0.0.0/8 and ::1', () => {
    for (const host of ['localhost', 'LocalHost', '127.0.0.1', '127.5.6.7', '127.255.255.255', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
  });

  it('refuses suffixes, look-alikes and rewritten forms', () => {
    const refused = [
      'evil.localhost', 'localhost.evil.com', 'localhost.', '127.0.0.1.nip.io', 'x127.0.0.1', '128.0.0.1', '10.0.0.1', 'example.com',
      '127.1', '127.0.1', '0x7f.0.0.1', '0177.0.0.1', '127.000.0.1', '127.0.0.256', '2130706433',
      '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:0:0:1]', '[::1%lo]', '::', '',
    ];
    for (const host of refused) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('judges a URL on its host as written, and only if the URL parser keeps it', () => {
    for (const raw of ['http://localhost:8787', 'http://127.0.0.1:8787/v4', 'http://[::1]:8787', 'http://user@127.0.0.1/']) expect(isLoopbackUrl(raw), raw).toBe(true);
    const refused = [
      'http://evil.localhost:8787', 'http://localhost.evil.com', 'http://127.0.0.1.nip.io', 'http://127.1:8787', 'http://0x7f000001/',
      'http://[::ffff:127.0.0.1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://127.0.0.1%2eevil.com/', 'http://127.0.0.1\t.evil.com/',
      'http://evil.com\\@127.0.0.1/', 'http://127.0.0.1@evil.com/', 'http://evil.com#@127.0.0.1', ' http://127.0.0.1/', 'not a url', '',
    ];
    for (const raw of refused) expect(isLoopbackUrl(raw), raw).toBe(false);
  });
});
