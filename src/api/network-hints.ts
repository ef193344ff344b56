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
    return "The host's TLS certificate is not trusted, and esign does not skip the check. If a proxy of your network re-signs traffic, give its CA certificate in NODE_EXTRA_CA_CERTS.";
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') return 'The network does not reach the host: check the connection, a VPN or a firewall.';
  return undefined;
}
