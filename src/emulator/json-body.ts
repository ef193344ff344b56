import { ApiFailure } from './errors.js';

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
