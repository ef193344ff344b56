import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { runEsign, type RunOptions } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { createSentEnvelope, outbox } from './support/envelope-flow.js';
import { esignOn } from './support/esign-on.js';

const emulator = useEmulator(['--no-seed']);
let sales: { id: string };
const ids: Record<string, string> = {};

beforeAll(async () => {
  // First, so that it lands in the emulator's default folder, not in Sales.
  ids.nda = (await createSentEnvelope(emulator, { title: 'NDA Acme', participants: [{ name: 'Ada Lovelace', email: 'ada@example.com' }] })).id;
  sales = expectStatus(await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'Sales' } }), 201).body;
  expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Grace Hopper', email: 'grace@example.com' } }), 201);
  ids.lease = (await createSentEnvelope(emulator, { title: 'Office lease', folderId: sales.id, participants: [{ name: 'Grace Hopper', email: 'grace@example.com' }] })).id;
  ids.nda2 = (await createSentEnvelope(emulator, { title: 'NDA Globex', folderId: sales.id, participants: [{ name: 'Alan Turing', email: 'alan@example.com' }] })).id;
  await call(emulator, 'POST', `/v4/api/envelopes/${ids.nda2}/void`, { body: { reason: 'Duplicate' } });
  ids.bob = (await createSentEnvelope(emulator, { title: 'Supply deal', participants: [{ name: 'Bob Stone', email: 'bob@other.example.com' }] })).id;
  expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Bob Stone', email: 'bob.stone@example.com' } }), 201);
});

const esign = (args: readonly string[], options: RunOptions = {}) => esignOn(emulator).run(args, options);
/** The ids of a search or of `--all`: one JSON array of the rows, whichever filters ran where. */
const listed = async (args: readonly string[]) => ((await esignOn(emulator).json(args)) as { id: string }[]).map((envelope) => envelope.id);

describe('envelopes list: filters for support staff', () => {
  it('--title, --participant (a contact or not), --status, --folder by name, --created-after/--before', async () => {
    expect(await listed(['envelopes', 'list', '--title', 'nda', '--all'])).toEqual([ids.nda2, ids.nda]);
    expect(await listed(['envelopes', 'list', '--participant', 'ADA@example', '--all'])).toEqual([ids.nda]);
    // Grace is a contact: that changes nothing, her envelopes are found among all of them.
    expect(await listed(['envelopes', 'list', '--participant', 'grace@example.com', '--all'])).toEqual([ids.lease]);
    // A contact named like a participant, with another address: the participant's envelope is still found, as
    // `envelopes find` finds it (the contact's own list holds only envelopes sent to the contact's address).
    expect(await listed(['envelopes', 'list', '--participant', 'bob stone', '--all'])).toEqual([ids.bob]);
    expect(await listed(['envelopes', 'find', 'bob stone', '--all'])).toEqual([ids.bob]);
    expect(await listed(['envelopes', 'list', '--folder', 'sales', '--all'])).toEqual([ids.nda2, ids.lease]);
    expect(await listed(['envelopes', 'list', '--folder', 'Sales', '--status', 'VOIDED', '--all'])).toEqual([ids.nda2]);
    expect(await listed(['envelopes', 'list', '--created-after', '1h', '--title', 'lease', '--all'])).toEqual([ids.lease]);
    expect(await listed(['envelopes', 'list', '--created-before', '2000-01-01', '--all'])).toEqual([]);
  });

  it('--limit counts matches when filtering client-side, and says how to see the rest', async () => {
    const first = await esign(['envelopes', 'list', '--title', 'a', '--limit', '1']);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(2);
    expect(first.stderr).toContain('Showing the first 1 matching envelopes; pass --all');
    // Matches gathered client-side are not one API page: --json prints them as one array, like --all.
    expect(await listed(['envelopes', 'list', '--title', 'a', '--limit', '1'])).toHaveLength(1);
    const none = await esign(['envelopes', 'list', '--title', 'nothing like this']);
    expect(none.stdout.trim()).toBe('No matching envelopes.');
  });

  it('--folder prefers the exact path, then the exact name, then either in another case; refuses several equal matches; takes an upper-case id', async () => {
    const folder = async (name: string, parentId?: string) => expectStatus(await call(emulator, 'POST', '/v4/api/folders/', { body: { name, ...(parentId ? { parentId } : {}) } }), 201).body as { id: string };
    const contracts = await folder('Contracts');
    const inContracts = (await createSentEnvelope(emulator, { title: 'Filed contract', folderId: contracts.id })).id;
    const parent = await folder('Holding');
    expectStatus(await call(emulator, 'POST', `/v4/api/folders/${contracts.id}/move`, { body: { parentId: parent.id } }), 200);
    const lowerCase = await folder('contracts');
    // `Contracts` is the folder of that exact name (path Holding/Contracts), not the root folder whose path is `contracts`.
    expect(await listed(['envelopes', 'list', '--folder', 'Contracts', '--all'])).toEqual([inContracts]);
    expect(await listed(['envelopes', 'list', '--folder', 'Holding/Contracts', '--all'])).toEqual([inContracts]);
    expect(await listed(['envelopes', 'list', '--folder', 'contracts', '--all'])).toEqual([]);
    expect(await listed(['envelopes', 'list', '--folder', contracts.id.toUpperCase(), '--all'])).toEqual([inContracts]);

    const archived = [await folder('Archive', parent.id), await folder('Archive', lowerCase.id)];
    const ambiguous = await esign(['envelopes', 'list', '--folder', 'archive']);
    expect(ambiguous.code, ambiguous.stderr).toBe(2);
    expect(ambiguous.stderr).toContain(`FOLDER_AMBIGUOUS: Several folders match "archive": Holding/Archive (${archived[0]!.id}), contracts/Archive (${archived[1]!.id}).`);
  });

  it('refuses an unknown folder name and a bad date (exit 2)', async () => {
    const folder = await esign(['envelopes', 'list', '--folder', 'Nowhere']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('esign folders list');
    const date = await esign(['envelopes', 'list', '--created-after', 'last tuesday']);
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('is not a date');
  });
});

describe('envelopes find and short ids', () => {
  it.each(['', '   '])('refuses an empty search text %j (exit 2, nothing listed)', async (text) => {
    const result = await esign(['envelopes', 'find', text]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('The search text is empty.');
    expect(result.stdout).toBe('');
  });

  it.each([
    [['--json', 'envelopes', 'list', '--jsonl'], '--jsonl and --json do not go together'],
    [['-q', 'contacts', 'list', '--jsonl'], '--jsonl and --quiet do not go together'],
  ])('refuses two output formats at once: %j (exit 2)', async (args, says) => {
    const result = await esign(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(says);
    expect(result.stdout).toBe('');
  });

  it('a refused id names where esign prints that kind of id', async () => {
    const result = await esign(['contacts', 'get', 'a/b']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(for example in `esign contacts list`)');
  });

  it.each([
    ['envelopes', 'list', '--title', ''],
    ['envelopes', 'list', '--participant', '  '],
    ['contacts', 'list', '--search', ''],
  ])('refuses an empty filter text: %s %s %s %j (exit 2, nothing listed)', async (...args) => {
    const result = await esign(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('an empty one would match everything');
    expect(result.stdout).toBe('');
  });

  it('finds by title, participant name or e-mail, and id', async () => {
    expect(await listed(['envelopes', 'find', 'turing'])).toEqual([ids.nda2]);
    expect(await listed(['envelopes', 'find', 'Office'])).toEqual([ids.lease]);
    expect(await listed(['envelopes', 'find', ids.nda!.slice(0, 8)])).toEqual([ids.nda]);
    const human = await esign(['envelopes', 'find', 'ada lovelace']);
    expect(human.stdout).toMatch(new RegExp(`${ids.nda} +SENT +NDA Acme`));
  });

  it('every command that takes an envelope id takes a unique prefix of 8+ characters, as git takes short hashes', async () => {
    const shown = await esignOn(emulator).json(['envelopes', 'get', ids.lease!.slice(0, 10)]);
    expect(shown.id).toBe(ids.lease);
    const history = await esign(['envelopes', 'history', ids.lease!.slice(0, 8)]);
    expect(history.code).toBe(0);
    expect(history.stderr).toContain(`is envelope ${ids.lease}`);
    const participants = await esignOn(emulator).json(['participants', 'list', ids.nda2!.slice(0, 8)]);
    expect(JSON.stringify(participants)).toContain('alan@example.com');
    const waited = await esign(['envelopes', 'wait', ids.lease!.slice(0, 9), ids.nda!, '--until', 'SENT']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain(`is envelope ${ids.lease}`);
    const doomed = await createSentEnvelope(emulator, { title: 'Voided by prefix' });
    const voided = await esignOn(emulator).json(['--yes', 'envelopes', 'void', doomed.id.slice(0, 12), '--reason', 'Prefix test']);
    expect(voided).toMatchObject({ id: doomed.id, status: 'VOIDED', cancellationReason: 'Prefix test' });
    const unknown = await esign(['envelopes', 'get', 'ffffffff0']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('No envelope id starts with ffffffff0');
  });

  it('an ambiguous prefix is refused with the candidates (a real server on loopback serving two such ids)', async () => {
    const envelopes = [
      { id: 'abcdef12-0000-4000-8000-000000000001', title: 'First', status: 'SENT' },
      { id: 'abcdef12-0000-4000-8000-000000000002', title: 'Second', status: 'SENT' },
    ];
    const server: Server = createServer((request, response) => {
      const sent = request.url?.startsWith('/v4/api/envelopes/') ? { data: envelopes, nextCursor: null } : { error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } };
      response.writeHead(request.url?.startsWith('/v4/api/envelopes/') ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(sent));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = { ESIGN_SANDBOX_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ESIGN_API_KEY: emulator.key };
      const result = await runEsign(['envelopes', 'get', 'abcdef12-0000'], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('The id prefix abcdef12-0000 is ambiguous: 2 envelopes start with it');
      expect(result.stderr).toContain('abcdef12-0000-4000-8000-000000000001 (First)');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('an e-mail address where an envelope id goes', () => {
  it('envelopes get maria@… points at envelopes find (exit 2), with nothing sent', async () => {
    const result = await esign(['envelopes', 'get', 'maria@acme.example']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('maria@acme.example is an e-mail address, not an envelope id.');
    expect(result.stderr).toContain('esign envelopes find maria@acme.example');
    expect(result.stderr).not.toContain('404');
  });
});

describe('participants remind and envelopes history for support staff', () => {
  it("remind without a participant reminds whoever's turn it is and names them", async () => {
    const result = await esign(['participants', 'remind', ids.nda!]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Reminder sent to Ada Lovelace <ada@example.com>');
    expect((await outbox(emulator, ids.nda!)).filter((message) => message.kind === 'REMINDER')).toHaveLength(1);
    const voided = await esign(['participants', 'remind', ids.nda2!]);
    expect(voided.code).toBe(2);
    expect(voided.stderr).toContain('Nobody is waiting to act on envelope');
  });

  it('history shows names instead of ids, to the second, in the local zone unless --utc', async () => {
    const local = await esign(['envelopes', 'history', ids.nda2!], { env: { TZ: 'Asia/Kolkata' } });
    expect(local.stdout).toMatch(/^AT \(UTC\+05:30\) /);
    expect(local.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +PARTICIPANT_INVITED/);
    expect(local.stdout).toContain('participant Alan Turing');
    expect(local.stdout).toContain('folder Sales');
    expect(local.stdout).not.toMatch(/participant [0-9a-f]{8}-/);
    const utc = await esign(['envelopes', 'history', ids.nda2!, '--utc'], { env: { TZ: 'Asia/Kolkata' } });
    expect(utc.stdout).toMatch(/^AT \(UTC\) /);
    expect(utc.stdout).toMatch(/\d\d:\d\d:\d\d +ENVELOPE_VOIDED/);
  });
});
