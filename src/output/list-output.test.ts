import { describe, expect, it } from 'vitest';
import { memoryStream } from '../../test/support/memory-stream.js';
import { ListWriter, type ListFormat } from './list-output.js';
import { Output } from './output.js';

function writer(format: ListFormat) {
  const stdout = memoryStream();
  const out = new Output({ json: format === 'json', quiet: false, color: false, debug: false, stdout: stdout.stream, stderr: memoryStream().stream });
  return { list: new ListWriter<{ id: string }>(out, format, [{ header: 'ID', value: (row) => row.id }], 'No rows.'), stdout };
}

describe('ListWriter', () => {
  it('--json: the pages make one JSON array, written once the last is in (a later page that fails leaves stdout empty)', async () => {
    const { list, stdout } = writer('json');
    await list.add([{ id: 'a' }, { id: 'b' }]);
    expect(stdout.written()).toBe('');
    await list.add([]);
    await list.add([{ id: 'c' }]);
    await list.end();
    expect(JSON.parse(stdout.written())).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it('--json with no rows is an empty array', async () => {
    const { list, stdout } = writer('json');
    await list.end();
    expect(JSON.parse(stdout.written())).toEqual([]);
  });

  it('--jsonl: each row is written as it arrives, a whole line', async () => {
    const { list, stdout } = writer('jsonl');
    await list.add([{ id: 'a' }]);
    expect(stdout.written()).toBe('{"id":"a"}\n');
  });

  it('--jsonl: one object per line; characters a terminal obeys are escaped in both JSON forms', async () => {
    for (const format of ['json', 'jsonl'] as const) {
      const { list, stdout } = writer(format);
      await list.add([{ id: 'x\u009b2J\u202ey' }, { id: 'z' }]);
      await list.end();
      expect(stdout.written()).not.toMatch(/[\u009b\u202e]/);
      const rows = format === 'json' ? JSON.parse(stdout.written()) : stdout.written().trim().split('\n').map((line) => JSON.parse(line));
      expect(rows).toEqual([{ id: 'x\u009b2J\u202ey' }, { id: 'z' }]);
    }
  });

  it('a table: one header, then rows as they arrive; an empty list says so', async () => {
    const { list, stdout } = writer('human');
    await list.add([{ id: 'a' }]);
    await list.add([{ id: 'b' }]);
    await list.end();
    expect(stdout.written()).toBe('ID\na\nb\n');
    const empty = writer('human');
    await empty.list.end();
    expect(empty.stdout.written()).toBe('No rows.\n');
  });
});
