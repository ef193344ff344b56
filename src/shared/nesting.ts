/**
 * How deep JSON or YAML data may nest, in API answers and input files alike. Every documented shape is under 10
 * levels; the limit stays far below the depth where printing (`JSON.stringify`) or composing YAML runs out of stack.
 */
export const MAX_NESTING_DEPTH = 64;

/** Whether arrays and objects in `value` nest deeper than `limit`. Iterative, so any depth is measured safely. */
export function nestsDeeperThan(value: unknown, limit: number = MAX_NESTING_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
