import { describe, expect, it } from 'vitest';
import { invokedEntry } from '../cli/command.js';
import { entries } from './index.js';

describe('the top-level command list', () => {
  it.each(entries.map((entry) => [entry.name, entry] as const))('%s: the listed name, aliases and description are the module\'s own', async (_name, entry) => {
    const loaded = await entry.load();
    expect({ name: loaded.name, aliases: loaded.aliases ?? [], description: loaded.description }).toEqual({
      name: entry.name,
      aliases: entry.aliases ?? [],
      description: entry.description,
    });
  });

  it('finds the command a command line names, past global options and their values', () => {
    const name = (argv: string[]) => invokedEntry(argv, entries)?.name;
    expect(name(['--profile', 'envelopes', 'me'])).toBe('me');
    expect(name(['--json', 'env', 'list'])).toBe('envelopes');
    expect(name(['--timeout', '5', 'doc', 'upload'])).toBe('documents');
    expect(name(['help', 'fields'])).toBe('fields');
    expect(name(['--help'])).toBeUndefined();
    expect(name(['nope'])).toBeUndefined();
  });
});
