import { describe, expect, it } from 'vitest';
import { ApiFailure } from './errors.js';
import { jsonNestingDepth, mediaType, parseJsonBody } from './json-body.js';

describe('jsonNestingDepth', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(jsonNestingDepth('1')).toBe(0);
    expect(jsonNestingDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonNestingDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonNestingDepth('{"a":"\\"[[[","b":[1]}')).toBe(2);
    expect(jsonNestingDepth('[[],[],[[]]]')).toBe(3);
  });
});

describe('parseJsonBody', () => {
  it('parses JSON up to the depth limit and refuses deeper with 400 JSON_TOO_DEEP {depth, maxDepth}', () => {
    expect(parseJsonBody('[[1]]', 2)).toEqual([[1]]);
    const refusal = (() => {
      try {
        return parseJsonBody('[[[1]]]', 2);
      } catch (error) {
        return error;
      }
    })() as ApiFailure;
    expect(refusal).toBeInstanceOf(ApiFailure);
    expect(refusal.status).toBe(400);
    expect(refusal.body.error).toMatchObject({ code: 'JSON_TOO_DEEP', details: { depth: 3, maxDepth: 2 } });
  });

  it('refuses text that is not JSON with 400 INVALID_JSON', () => {
    expect(() => parseJsonBody('{"a":')).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_JSON' }));
  });
});

describe('mediaType', () => {
  it('is the lower-cased type without parameters, undefined when absent', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(['text/plain', 'x'])).toBe('text/plain');
    expect(mediaType(undefined)).toBeUndefined();
    expect(mediaType(' ')).toBeUndefined();
  });
});
