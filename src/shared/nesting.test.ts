import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(nestsDeeperThan('x', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
  });
  it(`defaults to ${MAX_NESTING_DEPTH} levels`, () => {
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH + 1))).toBe(true);
  });
  it('measures 10,000-deep JSON without running out of stack', () => {
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`))).toBe(true);
  });
  it('stops on a cycle', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(nestsDeeperThan(cycle)).toBe(true);
  });
});
