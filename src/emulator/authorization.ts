import { ApiFailure } from './errors.js';

/**
 * The credential of an `Authorization: Bearer <credential>` header: the scheme in any letter case (RFC 7235), then one
 * or more spaces (RFC 6750, `1*SP`). `what` names the credential in messages ("API key", "session token"); no message
 * repeats any part of the header, which may hold a key.
 */
export function bearerCredential(header: string | undefined, what: string): string {
  const usage = `send Authorization: Bearer <${what}>`;
  const parts = header?.trim().split(/ +/) ?? [];
  if (parts.length === 0 || parts[0] === '') throw new ApiFailure(401, 'UNAUTHENTICATED', `Missing ${what}: ${usage}.`);
  if (parts[0]!.toLowerCase() !== 'bearer') {
    throw new ApiFailure(401, 'INVALID_AUTHORIZATION_HEADER', `The Authorization header is not a Bearer credential: ${usage}.`);
  }
  if (parts.length === 1) throw new ApiFailure(401, 'UNAUTHENTICATED', `The Authorization header has no ${what} after Bearer: ${usage}.`);
  if (parts.length > 2) {
    throw new ApiFailure(401, 'INVALID_AUTHORIZATION_HEADER', `The Authorization header has ${parts.length - 1} values after Bearer, where one ${what} goes: ${usage}, with nothing after it.`);
  }
  return parts[1]!;
}
