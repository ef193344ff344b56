import type { ZodType, z as zod } from 'zod';
import { ApiFailure } from './errors.js';

export type Zod = typeof zod;

/**
 * A schema built on first use: zod is a heavy module and must not load with the CLI, so route files describe their
 * bodies with a builder and await the schema inside the handler.
 */
export function lazySchema<T>(build: (z: Zod) => ZodType<T>): () => Promise<ZodType<T>> {
  let built: Promise<ZodType<T>> | undefined;
  return () => (built ??= import('zod').then(({ z }) => build(z)));
}

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

/**
 * Parses a request body, or throws 400 VALIDATION_ERROR with `details.issues` as `[{path, message}]`. A missing body
 * reads as `{}`, unless it is `required` (a create that would otherwise make something out of nothing).
 */
export function parseBody<T>(schema: ZodType<T>, body: unknown, options: { required?: boolean } = {}): T {
  if (body === undefined && options.required) {
    throw new ApiFailure(400, 'VALIDATION_ERROR', 'The request has no body: send a JSON object with Content-Type: application/json ({} takes every default).', {
      issues: [{ path: '(body)', message: 'required' }],
    });
  }
  const result = schema.safeParse(body === undefined ? {} : body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: pathText(issue.path) || '(body)', message: issue.message }));
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  throw new ApiFailure(400, 'VALIDATION_ERROR', `Invalid request body: ${summary}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''}.`, { issues });
}
