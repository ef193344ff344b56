/**
 * The Idempotency-Key of an envelope spec, derived from its content: the same spec with the same files gives the same
 * key, so running it again within the service's replay window (24 hours) answers the envelope the first run created,
 * with its upload addresses, instead of creating a second one. Send-now uses it; batch mode can key each row alike.
 */
import { uuidV5 } from '../shared/uuid.js';
import type { LoadedEnvelopeSpec } from './envelope-spec.js';

/** Fixed forever: changing it would give every spec a new key, and a re-run would create a second envelope. */
const SPEC_KEY_NAMESPACE = 'c3a4f1de-5b57-4c1e-9d4f-0f5e2c8a7b61';

/** JSON with object keys sorted at every level, so that key order in the YAML does not change the digest. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A UUID v5 over the run id (`--run-id`, when given), the spec as written (settings, participants, documents with
 * their names, fields) and each document's SHA-256: a new run id, a changed file or a changed line gives a new key,
 * hence a new envelope. A file a batch names many times is opened and hashed once (src/files/opened-file.ts). Without
 * a run id the key is the one esign has always derived, so earlier runs' envelopes are still found.
 */
export async function envelopeSpecIdempotencyKey(loaded: Pick<LoadedEnvelopeSpec, 'spec' | 'files'>, runId?: string): Promise<string> {
  const files = [];
  for (const file of loaded.files) files.push({ ref: file.ref, fileName: file.fileName, contentType: file.contentType, sha256: await file.file.sha256() });
  return uuidV5(canonicalJson({ runId, spec: loaded.spec, files }), SPEC_KEY_NAMESPACE);
}
