import { UsageError } from '../core/errors.js';
import { isLoopbackUrl } from '../shared/loopback.js';

/**
 * A base URL is the one place the key may go. It must be https, or http on loopback (the emulator), and name only an
 * origin plus an optional path prefix: credentials, queries and fragments in it are refused.
 */
export function parseBaseUrl(raw: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`The base URL from ${source} is not a URL: ${JSON.stringify(raw)}.`, 'Use a form like https://api.example.com.', 'BASE_URL_INVALID');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`The base URL from ${source} must use https: ${url.protocol} is not supported.`, undefined, 'BASE_URL_INVALID');
  }
  if (url.protocol === 'http:' && !isLoopbackUrl(raw)) {
    throw new UsageError(
      `The base URL from ${source} uses plain http:// on a host that is not written as a loopback address, so the API key would travel unencrypted.`,
      'Use https://, or http:// only on a loopback host written as localhost, 127.x.x.x or [::1] (the emulator).',
      'BASE_URL_INSECURE',
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(
      `The base URL from ${source} must not carry credentials, a query or a fragment.`,
      undefined,
      'BASE_URL_INVALID',
    );
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
