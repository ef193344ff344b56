import { isSafeId, UNSAFE_ID_RULE } from '../api/operations.js';

/**
 * An id read from a spec or participants file (templateId, folderId, a participant's id): refused where it is written
 * when the API layer would refuse it later, after other requests of the same run were sent.
 */
export function idSchema(z: typeof import('zod').z, missing?: string) {
  const error = (issue: { input: unknown }) => `${JSON.stringify(issue.input)} is not a usable id: ${UNSAFE_ID_RULE}`;
  return z.string(missing ? { error: missing } : undefined).min(1, { error, abort: true }).refine(isSafeId, { error });
}
