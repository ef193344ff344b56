import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAtomic } from '../files/atomic-file.js';
import { emptyState, newId, Store } from './store.js';

describe('newId', () => {
  it('makes random version 4 UUIDs, each its own string, across many refills of its entropy', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit shows up in every free position: the bytes are not reused or shifted.
    const digitsAt = (position: number) => new Set(ids.map((id) => id[position]));
    for (const position of [0, 7, 9, 15, 20, 35]) expect(digitsAt(position).size).toBe(16);
  });
});

describe('temporary files of unfinished saves', () => {
  it('are removed when a store opens the state file, before it is read', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'esign-store-'));
    const statePath = join(folder, 'state.json');
    const unfinished = await openAtomic(statePath);
    await unfinished.write('{"partial":');
    const { store } = await Store.open(statePath, emptyState);
    expect(readdirSync(folder)).toEqual([]);
    store.changed();
    await store.flush();
    expect(readdirSync(folder)).toEqual(['state.json']);
    await unfinished.abort();
  });
});
