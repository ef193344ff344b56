import { createHash } from 'node:crypto';
import { UsageError } from '../core/errors.js';

export interface Shard {
  index: number;
  count: number;
}

/** `--shard 2/3`: the second of three. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${text}: expected i/n with 1 <= i <= n, e.g. --shard 2/3.`);
  return { index, count };
}

/** Stable by ref alone, so the n jobs of a CI matrix split a batch with no overlap and no gap, whatever the order. */
export function inShard(ref: string, shard: Shard): boolean {
  return createHash('sha256').update(ref).digest().readUInt32BE(0) % shard.count === shard.index - 1;
}
