import type { TestContext } from 'vitest';

/**
 * `resource`, closed when the test of `context` ends, passed or failed. Tests that run side by side (`it.concurrent`)
 * must hook onto their own context: there is no current test to find.
 */
export function closedAfter<T extends { close(): Promise<unknown> }>(context: TestContext, resource: T): T {
  context.onTestFinished(async () => {
    await resource.close();
  });
  return resource;
}
