import { ProxyRefusedError } from '../core/errors.js';
import { env } from '../core/env.js';
import { isLoopbackUrl } from '../shared/loopback.js';

/** Node's codes for a TLS certificate it does not trust. */
const untrustedCertificate = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * The next step for a connection that failed with `code` (a Node or undici error code) to `origin`: what the code
 * usually means for someone pointing esign at a service or at the emulator. Undefined when there is nothing to add.
 */
export function networkHint(code: string | undefined, origin: string): string | undefined {
  if (code === undefined) return undefined;
  const direct = directHint(code, origin);
  const proxy = proxyFor(origin);
  if (!proxy) return direct;
  const through = `${proxy} is set: unless NO_PROXY names this host, esign connects through that proxy, so check it (and NO_PROXY) too.`;
  return direct ? `${direct} ${through}` : through;
}

/**
 * The proxy variable a request to `origin` follows and the proxy's address, without the user and password it may hold;
 * undefined for loopback (always direct) or when no variable applies. NO_PROXY is left to undici (./proxy.ts).
 */
export function proxyFor(origin: string): string | undefined {
  if (isLoopbackUrl(origin)) return undefined;
  const https = origin.startsWith('https:') ? env.httpsProxy() : undefined;
  const [name, value] = https ? ['HTTPS_PROXY', https] : ['HTTP_PROXY', env.httpProxy()];
  if (value === undefined) return undefined;
  const address = URL.canParse(value) ? new URL(value) : undefined;
  return `${name} (${address ? `${address.protocol}//${address.host}` : 'not a URL'})`;
}

/** undici's words for a proxy that would not open the tunnel: `Proxy response (407) !== 200 when HTTP Tunneling`. */
export function proxyRefusal(message: string | undefined, origin: string): ProxyRefusedError | undefined {
  const status = /^Proxy response \((\d{3})\)/.exec(message ?? '')?.[1];
  const proxy = proxyFor(origin);
  if (status === undefined || proxy === undefined) return undefined;
  return new ProxyRefusedError(
    `The proxy in ${proxy} refused to connect to ${origin}: it answered ${status}.`,
    Number(status),
    status === '407'
      ? 'The proxy wants credentials: give them in its URL (http://user:password@proxy:port); esign never sends the API key to a proxy.'
      : status === '403'
        ? 'The proxy does not allow this host: ask its administrators, or name the host in NO_PROXY if it is reachable directly.'
        : undefined,
  );
}

function directHint(code: string, origin: string): string | undefined {
  const loopback = isLoopbackUrl(origin);
  if (code === 'ECONNREFUSED') {
    return loopback
      ? 'Nothing listens there: start the emulator (`esign emulator`), or check the port in the base URL.'
      : 'Nothing accepts connections there: check the base URL, and that the service is up.';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The host name does not resolve: check it in the base URL, and the network or DNS.';
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    return loopback
      ? 'The host did not answer TLS: the emulator serves http://, so use http:// in the base URL.'
      : 'The host did not answer TLS: check the scheme and port of the base URL.';
  }
  if (untrustedCertificate.has(code)) {
    return "The host's TLS certificate is not trusted, and esign does not skip the check. If your network inspects TLS (a proxy that re-signs traffic, named in HTTPS_PROXY or not), give its CA certificate in NODE_EXTRA_CA_CERTS.";
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') return 'The network does not reach the host: check the connection, a VPN or a firewall.';
  return undefined;
}
