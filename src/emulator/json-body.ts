import type { FastifyInstance } from 'fastify';
import { ApiFailure } from './errors.js';

/**
 * The largest JSON request body. The largest body of the contract's operations (send-now with 1,000 fields, each with
 * an anchor and properties) is some 300 KB; documents never travel in JSON, so this limit has nothing to do with
 * `--max-document-bytes`.
 */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The deepest nesting of objects and arrays a request body may have. The contract's deepest body (send-now: fields
 * with an anchor and properties) nests 5 levels; a body nested thousands deep is an attack on the parser, not a request.
 */
export const JSON_DEPTH_LIMIT = 32;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting in JSON text, counted without parsing it (brackets inside strings do not count). */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > deepest) deepest = depth;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

/** A JSON request body, parsed: 400 INVALID_JSON when it is not JSON, 400 JSON_TOO_DEEP when it nests too deep. */
export function parseJsonBody(text: string, depthLimit = JSON_DEPTH_LIMIT): unknown {
  const depth = jsonNestingDepth(text);
  if (depth > depthLimit) {
    throw new ApiFailure(400, 'JSON_TOO_DEEP', `The request body nests objects and arrays ${depth} levels deep; at most ${depthLimit} are accepted.`, {
      depth,
      maxDepth: depthLimit,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiFailure(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/** The media type of a Content-Type header, lower-cased, without parameters; undefined when there is none. */
export function mediaType(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const type = value?.split(';')[0]!.trim().toLowerCase();
  return type || undefined;
}

/** 415 for a body sent as something other than JSON to an operation that reads JSON. */
export function notJsonBody(contentType: string | undefined): ApiFailure {
  return new ApiFailure(
    415,
    'UNSUPPORTED_CONTENT_TYPE',
    `This operation reads a JSON body: send it with Content-Type: application/json (got ${contentType ?? 'no Content-Type'}).`,
    { expected: 'application/json', received: contentType ?? null },
  );
}

/** 413 for a JSON body over JSON_BODY_LIMIT_BYTES (`declaredLength`: its Content-Length, when it had one). */
export function jsonBodyTooLarge(declaredLength: string | undefined): ApiFailure {
  const declared = declaredLength === undefined ? NaN : Number(declaredLength);
  const known = Number.isSafeInteger(declared);
  return new ApiFailure(
    413,
    'REQUEST_TOO_LARGE',
    `The JSON request body is ${known ? `${declared} bytes` : 'over the limit'}; at most ${JSON_BODY_LIMIT_BYTES} bytes are accepted. A document is not sent in JSON: upload it to the address its registration answers.`,
    { maxBytes: JSON_BODY_LIMIT_BYTES, ...(known ? { declaredBytes: declared } : {}) },
  );
}

/**
 * Registers routes whose body is a file (an upload, a PDF to validate), in a scope of their own where no parser reads
 * the body, whatever its Content-Type: the route checks the type, then streams the body itself. (Parsed as JSON
 * first, a PDF sent as application/json would be answered 400 INVALID_JSON instead of 415.)
 */
export function withRawBodies(app: FastifyInstance, register: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    register(scope);
  });
}
