const failures = new WeakMap<NodeJS.WritableStream, NodeJS.ErrnoException>();

/**
 * Remembers the first failure of a stream esign writes to. A failed write marks the stream `errored` until the error
 * is emitted, and Node's stdio streams then clear the mark; what failed must still be known when the command ends.
 */
export function recordStreamFailures(stream: NodeJS.WritableStream): void {
  if (!stream.listeners('error').includes(remember)) stream.on('error', remember);
}

function remember(this: NodeJS.WritableStream, error: NodeJS.ErrnoException): void {
  if (!failures.has(this)) failures.set(this, error);
}

/** The first failure of a stream, whether or not it was emitted yet. */
export function streamFailure(stream: NodeJS.WritableStream & { errored?: Error | null }): NodeJS.ErrnoException | undefined {
  return (stream.errored as NodeJS.ErrnoException | null | undefined) ?? failures.get(stream);
}
