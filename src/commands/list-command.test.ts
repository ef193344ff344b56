import { describe, expect, it } from 'vitest';
import { everyCommand } from '../../test/support/commands.js';
import { operations } from '../api/operations.js';
import { listOptions, parsePageSize } from './list-command.js';

/** The named command for each list operation of the table (the `L` rows). */
const listCommands: Record<string, string> = {
  listApiCalls: 'account calls',
  listEnvelopes: 'envelopes list',
  getEnvelopeHistory: 'envelopes history',
  listContacts: 'contacts list',
  listContactEnvelopes: 'contacts envelopes',
  listContactLists: 'contacts lists',
  listGroups: 'team groups',
  listMembers: 'team members',
  listFolders: 'folders list',
  listFolderContent: 'folders contents',
  listInvites: 'invites list',
  listWebhooks: 'webhooks list',
  listWebhookDeliveries: 'webhooks deliveries',
  listTemplates: 'templates list',
  listVoidedEnvelopes: 'reports voided',
};

describe('list commands', () => {
  it('"Lists: query limit and cursor": every list operation has a named command taking --limit, --cursor, --all and --jsonl', async () => {
    expect(Object.keys(listCommands).sort()).toEqual(operations.filter((operation) => operation.paginated).map((operation) => operation.id).sort());
    const commands = new Map((await everyCommand()).map(({ path, spec }) => [path, spec]));
    const missing = Object.values(listCommands).flatMap((path) => {
      const flags = new Set((commands.get(path)?.options ?? []).map((option) => option.flags));
      return listOptions.filter((option) => !flags.has(option.flags)).map((option) => `${path} ${option.flags}`);
    });
    expect(missing).toEqual([]);
  });

  it('--limit is a page size from 1 to 100 (pins.md)', () => {
    expect(parsePageSize('1')).toBe(1);
    expect(parsePageSize('100')).toBe(100);
    for (const bad of ['0', '101', '2.5', 'ten', '1e2', '0x10', '+5', '-1', '']) expect(() => parsePageSize(bad)).toThrow('1 to 100, in plain digits');
  });
});
