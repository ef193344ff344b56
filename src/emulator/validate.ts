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

/**
 * The JSON body an operation reads: its schema, and whether a request without a body is refused (else it reads as
 * `{}`). Each route file lists its operations' bodies by operationId, for the handlers and the OpenAPI document.
 */
export interface RequestBody {
  readonly schema: () => Promise<ZodType>;
  readonly required?: boolean;
}

export type RequestBodies = Readonly<Record<string, RequestBody>>;

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

const UNKNOWN_PROPERTY = 'unknown property: this operation does not take it (check its spelling)';

/**
 * The properties an object of a body may have, for a part of a body whose values another module checks (the placement
 * module a field's, the anchor module a search's): for each name, the properties of the object it holds (or of each
 * object of the list it holds), or `true` for a value whose own properties are not checked.
 */
export interface KnownProperties {
  readonly [name: string]: KnownProperties | true;
}

/** The paths, from `path`, of the properties `known` does not name in `value` and the objects and lists within it. */
function unknownProperties(value: unknown, known: KnownProperties, path: PropertyKey[]): PropertyKey[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => unknownProperties(item, known, [...path, index]));
  // A value that is no object is for the module that checks values to refuse.
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) => {
    const shape = Object.hasOwn(known, name) ? known[name] : undefined;
    if (shape === undefined) return [[...path, name]];
    return shape === true ? [] : unknownProperties(inner, shape, [...path, name]);
  });
}

/**
 * `schema`, refusing any property that `known` does not name at any depth, each as an issue at its own path (as a
 * strict object's unknown property is), so that a misspelled option is refused rather than silently left at its
 * default.
 */
export function withKnownProperties<T>(schema: ZodType<T>, known: KnownProperties): ZodType<T> {
  return schema.superRefine((value, context) => {
    for (const path of unknownProperties(value, known, [])) context.addIssue({ code: 'custom', path, message: UNKNOWN_PROPERTY });
  });
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
  const issues = result.error.issues.flatMap((issue) =>
    // One issue per unknown property, at its own path, rather than one naming the object that holds them.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: pathText([...issue.path, key]), message: UNKNOWN_PROPERTY }))
      : [{ path: pathText(issue.path) || '(body)', message: issue.message }],
  );
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  throw new ApiFailure(400, 'VALIDATION_ERROR', `Invalid request body: ${summary}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''}.`, { issues });
}
