import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed addresses for the emulator's own file routes (`/_files/...`): the address is the capability, so the API key
 * never travels with an upload or a download. The secret lives only in this process: addresses issued before a
 * restart stop working (403), as a real storage service's would after a key rotation.
 */
const secret = randomBytes(32);

export type SignedAddressCheck = 'ok' | 'expired' | 'invalid';

/** The header a legacy upload carries its document id in (`x-<storage>-meta-documentid`, the storage being this emulator). */
export const DOCUMENT_ID_HEADER = 'x-emulator-meta-documentid';

function signature(path: string, expires: string, headers: string): Buffer {
  return createHmac('sha256', secret).update(`${path}\n${expires}\n${headers}`).digest();
}

/**
 * `origin` + `path` with `expires` (epoch ms) and an HMAC-SHA256 `signature` over both, and over the names of the
 * headers the request must carry (`headers`, as a storage service's signed headers: the legacy upload's
 * `x-emulator-meta-documentid`), which the route checks.
 */
export function signAddress(origin: string, path: string, ttlMs: number, signedHeaders: readonly string[] = []): { url: string; expiresAt: string } {
  const expiresAtMs = Date.now() + ttlMs;
  const expires = String(expiresAtMs);
  const headers = signedHeaders.join(';');
  const query = new URLSearchParams({ expires, ...(headers ? { headers } : {}), signature: signature(path, expires, headers).toString('base64url') });
  return { url: `${origin}${path}?${query}`, expiresAt: new Date(expiresAtMs).toISOString() };
}

/** The headers a signed address requires (its `headers` query value, which its signature covers). */
export function signedHeadersOf(query: Record<string, unknown>): string[] {
  return typeof query.headers === 'string' && query.headers ? query.headers.split(';') : [];
}

/**
 * `path` is the request path without its query. A tampered expiry fails the signature, so 'expired' is only said of an
 * address this process really issued.
 */
export function verifySignedAddress(path: string, query: Record<string, unknown>): SignedAddressCheck {
  const { expires, signature: given } = query;
  if (typeof expires !== 'string' || typeof given !== 'string' || !/^\d{1,15}$/.test(expires)) return 'invalid';
  const expected = signature(path, expires, typeof query.headers === 'string' ? query.headers : '');
  const received = Buffer.from(given, 'base64url');
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return 'invalid';
  return Number(expires) < Date.now() ? 'expired' : 'ok';
}
