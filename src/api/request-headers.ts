import { validateHeaderName, validateHeaderValue } from 'node:http';
import { UsageError } from '../core/errors.js';

const keyFromProfile = 'The key comes from your profile, ESIGN_API_KEY or ESIGN_API_KEY_FILE, never from the command line.';
const hostFromProfile = 'The host comes from your profile or ESIGN_*_BASE_URL, so the key only ever goes to the origin it is bound to.';
const framedByEsign = 'esign frames the request itself (length, encoding, connection); leave this header out.';
const routedByEsign = 'The method and path come from the operation (`esign api --list`); a header cannot change them.';

/**
 * Headers an extra header may not set, lower-case, each with what to do instead: credentials (the key only travels
 * in Authorization: Bearer, and nothing else may carry one), whatever picks the host, method or path (a proxy or
 * gateway reads these, so the key could reach another virtual host or operation), the framing Node computes (a wrong
 * one is a broken request, not a network failure), and the headers esign sets itself, which would otherwise be
 * replaced or silently overridden.
 */
const reserved: ReadonlyMap<string, string> = new Map([
  ['authorization', keyFromProfile],
  ['proxy-authorization', keyFromProfile],
  ['cookie', 'The API takes only the key, which esign sends in Authorization: Bearer; a cookie is never sent.'],
  ['x-account-id', 'The account is the one the key belongs to; esign never sends x-account-id.'],
  ['host', hostFromProfile],
  ['forwarded', hostFromProfile],
  ['x-forwarded-host', hostFromProfile],
  ['x-forwarded-proto', hostFromProfile],
  ['x-forwarded-port', hostFromProfile],
  ['x-forwarded-prefix', hostFromProfile],
  ['x-original-url', routedByEsign],
  ['x-rewrite-url', routedByEsign],
  ['x-http-method', routedByEsign],
  ['x-http-method-override', routedByEsign],
  ['x-method-override', routedByEsign],
  ['content-length', framedByEsign],
  ['transfer-encoding', framedByEsign],
  ['connection', framedByEsign],
  ['keep-alive', framedByEsign],
  ['proxy-connection', framedByEsign],
  ['upgrade', framedByEsign],
  ['te', framedByEsign],
  ['trailer', framedByEsign],
  ['expect', framedByEsign],
  ['content-encoding', framedByEsign],
  ['accept-encoding', 'esign reads the answer as the service sends it uncompressed; leave this header out.'],
  ['content-type', 'esign sets it from the body: JSON from -f/-F or --input, or application/pdf for an --input PDF.'],
  ['accept', 'esign always asks for JSON (application/json); leave this header out.'],
  ['user-agent', 'esign names itself (esign-cli/<version>) so the service can tell its requests apart.'],
  ['idempotency-key', 'Use --idempotency-key <key>: esign adds an Idempotency-Key where the operation needs one, and reuses it on every retry.'],
]);

/**
 * Throws a UsageError naming the header when an extra request header (`esign api -H`) is one esign owns or one that
 * would change where or how the request goes, or is not a valid header; nothing is sent. Checked here rather than
 * left to Node, which would only fail once the request is under way (reported as a network error and retried).
 */
export function assertExtraHeader(name: string, value: string): void {
  const instead = reserved.get(name.toLowerCase());
  if (instead !== undefined) {
    throw new UsageError(`-H ${name} is not accepted: esign sets or refuses this header itself.`, instead, name.toLowerCase() === 'authorization' ? 'KEY_AS_ARGUMENT' : 'HEADER_NOT_ALLOWED');
  }
  try {
    validateHeaderName(name);
  } catch {
    throw new UsageError(`-H ${JSON.stringify(name)}: not a valid header name.`, "A header name is letters, digits and !#$%&'*+-.^_`|~ only, e.g. -H 'X-Trace: abc'.", 'HEADER_INVALID');
  }
  try {
    validateHeaderValue(name, value);
  } catch {
    throw new UsageError(
      `-H ${name}: the value ${JSON.stringify(value)} holds a character a header cannot carry.`,
      'A header value is printable text on one line: no line breaks or control characters (a tab is fine), no characters beyond U+00FF.',
      'HEADER_INVALID',
    );
  }
}
