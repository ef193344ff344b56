import { describe, expect, it } from 'vitest';
import { parseJson, type RunOptions } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { createSentEnvelope, voidEnvelope } from './support/envelope-flow.js';
import { esignOn } from './support/esign-on.js';
import { terminalWith, tmuxBinary } from './support/terminal.js';

const emulator = useEmulator();

const esign = (args: readonly string[], options: RunOptions = {}) => esignOn(emulator).run(args, options);
const esignJson = (args: readonly string[], options: RunOptions = {}) => esignOn(emulator).json(args, options);

describe('account', () => {
  it('get, capabilities, catalog and calls answer from the service', async () => {
    expect(await esignJson(['account', 'get'])).toMatchObject({ id: expect.any(String), limits: expect.any(Object) });
    // A person reads the limits and the usage as fields, not as JSON.
    const account = await esign(['account', 'get']);
    expect(account.stdout).toMatch(/^Limits:\n {2}Message Limit: +\d+\n/m);
    expect(account.stdout).not.toMatch(/[{}"]/);
    expect((await esignJson(['account', 'capabilities'])).data).toContainEqual({ id: 'WEBHOOKS', enabled: true });
    expect((await esignJson(['account', 'catalog'])).data.map((entry: { id: string }) => entry.id)).toContain('ANCHOR_SEARCH');
    const calls = await esignJson(['account', 'calls', '--limit', '2']);
    expect(calls.data).toHaveLength(2);
    expect(calls.data[0]).toMatchObject({ operationId: expect.any(String), status: expect.any(Number) });
    const human = await esign(['account', 'calls', '--limit', '1']);
    expect(human.stdout).toMatch(/^AT +METHOD +OPERATION +PATH +STATUS/);
    expect(human.stderr).toContain('More calls: pass --all, or --cursor');
  });
});

describe('contacts', () => {
  it('create, get, update, patch, envelopes, lists, list-get, delete', async () => {
    const created = await esignJson(['contacts', 'create', '--name', 'Ada Lovelace', '--email', 'ada.contact@example.com', '--phone', '+33612345678', '--company', 'Analytical']);
    expect(created).toMatchObject({ name: 'Ada Lovelace', email: 'ada.contact@example.com', phoneNumber: '+33612345678', company: 'Analytical' });
    expect(await esignJson(['contacts', 'get', created.id])).toMatchObject({ id: created.id, name: 'Ada Lovelace' });

    // PUT replaces the whole contact: what is left out is cleared.
    const replaced = await esignJson(['contacts', 'update', created.id, '--name', 'Ada King', '--email', 'ada.contact@example.com']);
    expect(replaced).toMatchObject({ name: 'Ada King', phoneNumber: null, company: null });
    const patched = await esignJson(['contacts', 'patch', created.id, '--company', 'Babbage & Co']);
    expect(patched).toMatchObject({ name: 'Ada King', company: 'Babbage & Co' });
    expect((await esignJson(['contacts', 'patch', created.id, '--clear-company'])).company).toBeNull();

    const found = await esignJson(['contacts', 'list', '--search', 'ada king']);
    expect(found.data.map((contact: { id: string }) => contact.id)).toEqual([created.id]);

    const envelope = await createSentEnvelope(emulator, { title: 'For Ada', participants: [{ name: 'Ada King', email: 'ada.contact@example.com' }] });
    const envelopes = await esignJson(['contacts', 'envelopes', created.id]);
    expect(envelopes.data.map((item: { id: string }) => item.id)).toEqual([envelope.id]);

    const lists = await esignJson(['contacts', 'lists']);
    const customers = lists.data.find((list: { name: string }) => list.name === 'Customers');
    expect(customers).toMatchObject({ contactCount: 1 });
    const listed = await esignJson(['contacts', 'list-get', customers.id]);
    expect(listed.contacts.map((contact: { email: string }) => contact.email)).toEqual(['casey@example.test']);

    const refused = await esign(['contacts', 'delete', created.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await esign(['--yes', 'contacts', 'delete', created.id])).code).toBe(0);
    expect((await esign(['contacts', 'get', created.id])).code).toBe(4);
  });

  it('refuses bad input before sending (exit 2): a missing e-mail, a bad phone, nothing to patch, no id without a terminal', async () => {
    const before = (await esignJson(['contacts', 'list', '--all'])).length;
    const noEmail = await esign(['contacts', 'create', '--name', 'Nobody']);
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('Missing --email');
    const badPhone = await esign(['contacts', 'create', '--name', 'Bad', '--email', 'bad@example.com', '--phone', '0612']);
    expect(badPhone.code).toBe(2);
    expect(badPhone.stderr).toContain('is not an E.164 phone number');
    const nothing = await esign(['contacts', 'patch', 'some-id']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change');
    const noId = await esign(['contacts', 'get']);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('<contactId> is required without an interactive terminal');
    expect((await esignJson(['contacts', 'list', '--all'])).length).toBe(before);
  });
});

describe('folders', () => {
  it('list, create, contents, access, rename, move, delete', async () => {
    const parent = await esignJson(['folders', 'create', 'Clients']);
    const child = await esignJson(['folders', 'create', 'Acme', '--parent', parent.id]);
    expect(child.path).toBe('Clients/Acme');
    const listed = await esign(['folders', 'list', '--all']);
    expect(listed.stdout).toMatch(new RegExp(`${child.id} +Clients/Acme +${parent.id}`));

    const envelope = await createSentEnvelope(emulator, { title: 'In Acme', folderId: child.id });
    const contents = await esignJson(['folders', 'contents', child.id]);
    expect(contents.data).toEqual([expect.objectContaining({ type: 'ENVELOPE', id: envelope.id })]);
    expect((await esignJson(['folders', 'contents', parent.id])).data).toEqual([expect.objectContaining({ type: 'FOLDER', id: child.id })]);
    expect((await esignJson(['folders', 'access', child.id])).access).toContainEqual(expect.objectContaining({ permission: 'MANAGE' }));

    expect((await esignJson(['folders', 'rename', child.id, '--name', 'Acme Corp'])).path).toBe('Clients/Acme Corp');
    expect((await esignJson(['folders', 'move', child.id, '--root'])).path).toBe('Acme Corp');
    expect((await esignJson(['folders', 'move', child.id, '--parent', parent.id])).path).toBe('Clients/Acme Corp');

    // Not empty: the service refuses (409, exit 5) and nothing is lost.
    const notEmpty = await esign(['--yes', 'folders', 'delete', parent.id]);
    expect(notEmpty.code).toBe(5);
    expect(notEmpty.stderr).toContain('FOLDER_NOT_EMPTY');
    const empty = await esignJson(['folders', 'create', 'Scratch']);
    expect((await esign(['folders', 'delete', empty.id])).code).toBe(2);
    expect((await esign(['--yes', 'folders', 'delete', empty.id])).code).toBe(0);
    expect((await esignJson(['folders', 'list', '--all'])).map((folder: { id: string }) => folder.id)).not.toContain(empty.id);
  });

  it('refuses a name with "/", a rename without --name and a move without a destination (exit 2)', async () => {
    expect((await esign(['folders', 'create', 'a/b'])).stderr).toContain('contains "/"');
    expect((await esign(['folders', 'rename', 'x'])).stderr).toContain('--name is required');
    const move = await esign(['folders', 'move', 'x']);
    expect(move.code).toBe(2);
    expect(move.stderr).toContain('--parent <folderId> or --root');
  });
});

describe('team, invites, reports', () => {
  it('team groups and members (of one group), invites', async () => {
    const groups = await esignJson(['team', 'groups']);
    const legal = groups.data.find((group: { name: string }) => group.name === 'Legal');
    expect(legal).toMatchObject({ memberCount: 2 });
    expect((await esignJson(['team', 'members', '--group', legal.id])).data).toHaveLength(2);
    // A group is taken by name (any case) or by id (any case) wherever a group is, as reports usage takes it.
    for (const group of ['Legal', 'legal', legal.id.toUpperCase()]) expect((await esignJson(['team', 'members', '--group', group])).data, group).toHaveLength(2);
    const unknown = await esign(['team', 'members', '--group', 'Nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('GROUP_NOT_FOUND: No group "Nope".');
    expect((await esignJson(['invites', 'list'])).data).toContainEqual(expect.objectContaining({ status: 'PENDING' }));
  });

  it('reports voided, envelope and usage (by group name)', async () => {
    const voided = await createSentEnvelope(emulator, { title: 'Voided for the report' });
    await voidEnvelope(emulator, voided.id, 'Customer cancelled');
    const report = await esignJson(['reports', 'voided']);
    expect(report.data[0]).toMatchObject({ id: voided.id, cancellationReason: 'Customer cancelled' });
    expect(await esignJson(['reports', 'envelope', voided.id])).toMatchObject({ envelopeId: voided.id, status: 'VOIDED', participants: { total: 1 } });
    const human = await esign(['reports', 'envelope', voided.id]);
    expect(human.stdout).toMatch(/^Participants:\n {2}Total: +1\n/m);
    expect(human.stdout).toMatch(/^ {4}ID +NAME +EMAIL +ROLE +SIGNING ORDER +STATUS +COMPLETED AT\n/m);
    expect(human.stdout).toMatch(/^Timestamps:\n {2}Created At: +\d{4}-/m);
    expect(human.stdout).not.toMatch(/[{}"]/);
    const usage = await esignJson(['reports', 'usage', '--group', 'legal', '--from', '30d']);
    expect(usage.data).toEqual([expect.objectContaining({ name: 'Legal', envelopesSent: expect.any(Number) })]);
    expect(usage.data[0].envelopesSent).toBeGreaterThan(0);
    const unknown = await esign(['reports', 'usage', '--group', 'Nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('esign team groups');
  });
});

describe('--dry-run on mutating commands', () => {
  it('prints the request (key redacted) and sends nothing, for one mechanism across commands', async () => {
    const before = await esignJson(['folders', 'list', '--all']);
    const created = await esign(['--dry-run', 'folders', 'create', 'Never']);
    expect(created.code, created.stderr).toBe(0);
    expect(parseJson(created.stdout)).toEqual({
      dryRun: true,
      operationId: 'createFolder',
      method: 'POST',
      url: `${emulator.url}/v4/api/folders/`,
      headers: expect.objectContaining({ authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' }),
      body: { name: 'Never' },
    });
    expect(created.stdout + created.stderr).not.toContain(emulator.key);

    // A destructive command asks nothing in a dry run, and deletes nothing.
    const folder = before[0];
    const deleted = await esign(['--dry-run', 'folders', 'delete', folder.id]);
    expect(deleted.code).toBe(0);
    expect(parseJson(deleted.stdout)).toMatchObject({ method: 'DELETE', url: `${emulator.url}/v4/api/folders/${folder.id}` });
    const webhook = await esign(['--dry-run', 'webhooks', 'create', '--url', 'https://hooks.example.com/x', '--events', 'ENVELOPE_COMPLETED']);
    expect(parseJson(webhook.stdout)).toMatchObject({ operationId: 'createWebhook', headers: { 'idempotency-key': expect.any(String) }, body: { isActive: true } });
    const voided = await esign(['--dry-run', 'envelopes', 'void', '00000000-0000-4000-8000-000000000000', '--reason', 'Test']);
    expect(parseJson(voided.stdout)).toMatchObject({ operationId: 'voidEnvelope', body: { reason: 'Test' } });

    expect(await esignJson(['folders', 'list', '--all'])).toEqual(before);
    expect((await esignJson(['webhooks', 'list', '--all'])).some((item: { url: string }) => item.url === 'https://hooks.example.com/x')).toBe(false);
  });
});

describe('lists: --limit, --all, --jsonl', () => {
  // 250 contacts put straight into the store (the hidden --preload-contacts the list bench uses for 100,000).
  const big = useEmulator(['--no-seed', '--preload-contacts', '250']);

  it('"Lists: query limit and cursor": --all follows every cursor over 250 contacts, in --json, --jsonl and a table', async () => {
    const on = esignOn(big);
    // One page is the API's own {data, nextCursor}; --all prints one array of every row.
    const page = await on.json(['contacts', 'list', '--limit', '100']);
    expect(page.data).toHaveLength(100);
    expect(page.nextCursor).toEqual(expect.any(String));

    const all = await on.run(['contacts', 'list', '--all', '--limit', '40', '--json']);
    expect(all.stdout.startsWith('[\n{')).toBe(true);
    const everyone = JSON.parse(all.stdout) as { email: string }[];
    expect(everyone).toHaveLength(250);
    expect(new Set(everyone.map((contact) => contact.email)).size).toBe(250);
    expect(everyone.slice(0, 100)).toEqual(page.data);

    const lines = await on.run(['contacts', 'list', '--all', '--jsonl']);
    expect(lines.code).toBe(0);
    const rows = lines.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(rows).toHaveLength(250);
    expect(rows.map((row) => row.email)).toEqual(everyone.map((contact) => contact.email));

    const table = await on.run(['contacts', 'list', '--all', '--limit', '100']);
    const tableLines = table.stdout.trim().split('\n');
    expect(tableLines[0]).toMatch(/^ID +NAME +EMAIL/);
    expect(tableLines).toHaveLength(251);
    expect(table.stderr).not.toContain('More contacts');
  });

  it('--all with --cursor is refused (exit 2); --limit outside 1-100 is refused', async () => {
    const on = esignOn(big);
    expect((await on.run(['contacts', 'list', '--all', '--cursor', 'x'])).code).toBe(2);
    const limit = await on.run(['contacts', 'list', '--limit', '500']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('1 to 100');
  });
});

describe.skipIf(!tmuxBinary)('pickers on a terminal', () => {
  it('folders rename without an id offers the folders to pick from', async () => {
    const folder = await esignJson(['folders', 'create', 'Pick me']);
    const tty = terminalWith(emulator.env);
    try {
      tty.run(['folders', 'rename', '--name', 'Picked']);
      const menu = await tty.waitFor(/Which folder\?[\s\S]*Pick me/);
      expect(menu).toContain(folder.id);
      for (let presses = 0; presses < 20 && !/❯ Pick me/.test(tty.screen()); presses++) {
        tty.keys('Down');
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      tty.keys('Enter');
      expect(await tty.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    } finally {
      tty.stop();
    }
    expect((await esignJson(['folders', 'list', '--all'])).find((item: { id: string }) => item.id === folder.id).name).toBe('Picked');
  });
});
