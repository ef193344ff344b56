/**
 * An e-mail address as WHATWG HTML defines a "valid e-mail address" (the rule of `<input type=email>`): a local part
 * of letters, digits and ``.!#$%&'*+/=?^_`{|}~-``, `@`, and a domain of dot-separated labels of letters, digits and
 * inner hyphens, at most 63 characters each. RFC 5322 also allows `?` and `%` in the local part, so an address such as
 * `?x%y@ae.example` is valid; quoted local parts and address literals are not (no mail form accepts them). The CLI's
 * local checks and the emulator use this one rule, so neither refuses what the other accepts.
 */
export const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The longest address kept (RFC 3696's 64 for the local part, 1 for `@`, 255 for the domain). */
export const EMAIL_MAX_LENGTH = 320;

/** Whether `text` is an e-mail address by WHATWG's rule, within EMAIL_MAX_LENGTH. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && emailPattern.test(text);
}
