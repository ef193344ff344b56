/**
 * Standard Webhooks' symmetric secret: `whsec_` and the Base64 of a random key "between 24 bytes (192 bits) and 64 bytes
 * (512 bits)". The verifying library decodes strict, padded Base64 and takes any key it can decode, so a secret it
 * cannot read fails as an unexpected error and a short key only shows up as every signature not matching.
 */
export const webhookSecretMinBytes = 24;

const prefix = 'whsec_';
const paddedBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What is wrong with a signing secret, in words that never repeat it; undefined when it is well-formed. */
export function webhookSecretProblem(secret: string): string | undefined {
  if (!secret.startsWith(prefix)) return 'does not start with whsec_';
  const encoded = secret.slice(prefix.length);
  if (!encoded) return 'has nothing after whsec_';
  if (/[^A-Za-z0-9+/=]/.test(encoded)) return 'holds a character that is not Base64 after whsec_ (A-Z, a-z, 0-9, +, /, = padding at the end)';
  if (!paddedBase64.test(encoded)) return `is not padded Base64 after whsec_ (${encoded.length} character${encoded.length === 1 ? '' : 's'}; Base64 comes in groups of 4, the last padded with =)`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < webhookSecretMinBytes) return `decodes to ${bytes} byte${bytes === 1 ? '' : 's'}; a Standard Webhooks secret has at least ${webhookSecretMinBytes}`;
  return undefined;
}
