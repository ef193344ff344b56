import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAtomic } from '../output/atomic-file.js';
import { emptyState, isStateSaveInProgress, newId, Store } from './store.js';

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
  it('are recognised by the name the atomic writer gives them beside the state file, and no other name', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'esign-store-'));
    const file = await openAtomic(join(folder, 'state.json'));
    expect(isStateSaveInProgress(basename(file.temporaryPath), 'state.json')).toBe(true);
    await file.abort();
    for (const name of ['.state.json.0123456789a.tmp', '.state.json.0123456789ABC.tmp', '.state.json.0123456789ab.tmp.x', 'state.json.0123456789ab.tmp', '.xstate.json.0123456789ab.tmp']) {
      expect(isStateSaveInProgress(name, 'state.json'), name).toBe(false);
    }
  });

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
