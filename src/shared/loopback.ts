/**
 * Loopback is exactly what pins.md lists: `localhost`, `127.0.0.0/8` and `::1`, written literally. Nothing is loopback by
 * a suffix (`evil.localhost`, `127.0.0.1.nip.io`) or by a form the URL parser would rewrite into one (`127.1`,
 * `0x7f.0.0.1`, `[::ffff:127.0.0.1]`, `[0:0:0:0:0:0:0:1]`): what a reader sees in the text is what is judged.
 */
export function isLoopbackHost(host: string): boolean {
  const literal = host.toLowerCase();
  if (literal === 'localhost' || literal === '::1' || literal === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(literal);
  return octets !== null && octets.slice(1).every((octet) => /^(0|[1-9]\d*)$/.test(octet) && Number(octet) <= 255);
}

/** The host exactly as written in a URL's text (`[::1]` keeps its brackets), or undefined if the text has no authority. */
function literalHost(raw: string): string | undefined {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#\\]*)/.exec(raw)?.[1];
  if (authority === undefined) return undefined;
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostAndPort.startsWith('[')) return /^\[[^\]]*\]/.exec(hostAndPort)?.[0];
  return hostAndPort.split(':')[0];
}

/**
 * Whether a URL's text names a loopback host, judged on the host as written and only if the URL parser keeps it as
 * written (a parser that rewrites the host would connect somewhere the text does not say).
 */
export function isLoopbackUrl(raw: string): boolean {
  const literal = literalHost(raw);
  if (literal === undefined || !isLoopbackHost(literal)) return false;
  try {
    return new URL(raw).hostname === literal.toLowerCase();
  } catch {
    return false;
  }
}
