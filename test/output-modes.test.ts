import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { baseEnv, esignBin, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { ndaPdf } from './support/pdfs.js';
import { terminalWith, tmuxBinary, type Terminal } from './support/terminal.js';

const emulator = useEmulator(['--processing-delay', '20']);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-output-modes-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

const uuidLine = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Standard output of a --quiet run: only ids, one per line, and nothing else. */
async function quietIds(args: readonly string[]): Promise<string[]> {
  const result = await esign([...args, '--quiet']);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines.pop()).toBe('');
  for (const line of lines) expect(line).toMatch(uuidLine);
  return lines;
}

const envelopeSpec = (title: string): string[] =>
  [
    `title: ${title}`,
    'participants:',
    '  - { ref: ada, name: Ada Lovelace, email: ada@example.com }',
    'documents:',
    '  - { ref: nda, file: nda.pdf }',
    'fields:',
    '  - type: SIGNATURE',
    '    documentRef: nda',
    '    participantRef: ada',
    '    size: { width: 150, height: 40 }',
    '    anchor: { text: "{{signature}}", occurrence: 1 }',
  ];

describe('--quiet prints only the result identity, one id per line', () => {
  it('envelopes create prints the new id alone (id=$(esign env create --title X -q) works), and get prints it back', async () => {
    const [id, ...rest] = await quietIds(['env', 'create', '--title', 'Quiet one']);
    expect(rest).toEqual([]);
    const stored = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${id}`), 200).body as { title: string };
    expect(stored.title).toBe('Quiet one');
    expect(await quietIds(['env', 'get', id!])).toEqual([id]);
  });

  it('lists print one id per line, a single page and every page alike', async () => {
    const created = [(await quietIds(['env', 'create', '--title', 'Listed a']))[0]!, (await quietIds(['env', 'create', '--title', 'Listed b']))[0]!];
    const page = await quietIds(['env', 'list', '--limit', '100']);
    expect(page).toEqual(expect.arrayContaining(created));
    const all = await quietIds(['env', 'list', '--all', '--limit', '1']);
    expect(all).toEqual(page);
    expect(await quietIds(['env', 'list', '--title', 'Listed'])).toEqual([...created].reverse());
  });

  it('contacts create prints the contact id', async () => {
    const [id] = await quietIds(['contacts', 'create', '--name', 'Grace Hopper', '--email', 'grace@example.com']);
    const stored = expectStatus(await call(emulator, 'GET', `/v4/api/contacts/${id}`), 200).body as { email: string };
    expect(stored.email).toBe('grace@example.com');
  });

  it('envelopes send-now prints the envelope id', async () => {
    writeFileSync(join(dir, 'quiet.yaml'), `${envelopeSpec('Quiet send-now').join('\n')}\n`);
    const [id, ...rest] = await quietIds(['env', 'send-now', '--file', 'quiet.yaml', '--wait']);
    expect(rest).toEqual([]);
    const stored = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${id}`), 200).body as { title: string; status: string };
    expect(stored).toMatchObject({ title: 'Quiet send-now', status: 'SENT' });
  });

  it('batch run prints one envelope id per entry', async () => {
    const entry = (ref: string) => [`  - ref: ${ref}`, ...envelopeSpec(`Quiet batch ${ref}`).map((line) => `    ${line}`)];
    writeFileSync(join(dir, 'quiet-batch.yaml'), ['version: 1', 'envelopes:', ...entry('one'), ...entry('two'), ''].join('\n'));
    const ids = await quietIds(['batch', 'run', 'quiet-batch.yaml']);
    expect(ids).toHaveLength(2);
    const titles = await Promise.all(ids.map(async (id) => (expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${id}`), 200).body as { title: string }).title));
    expect(titles).toEqual(['Quiet batch one', 'Quiet batch two']);
  });

  it('a result that is a collection prints the ids of its items, not the envelope it belongs to', async () => {
    const [envelopeId] = await quietIds(['env', 'create', '--title', 'Quiet collections']);
    const participants = await quietIds(['participants', 'set', envelopeId!, '--add', 'Ada <ada@example.com>', '--add', 'Bob <bob@example.com>']);
    expect(participants).toHaveLength(2);
    expect(participants).toEqual(await quietIds(['participants', 'list', envelopeId!]));
    writeFileSync(join(dir, 'annex.pdf'), await ndaPdf());
    const documents = await quietIds(['documents', 'upload', envelopeId!, 'nda.pdf', 'annex.pdf']);
    expect(documents).toHaveLength(2);
    expect([...documents].sort()).toEqual((await quietIds(['documents', 'list', envelopeId!])).sort());
    const fields = ['fields:', ...participants.map((id, index) => `  - { type: SIGNATURE, participantId: ${id}, pages: [1], position: { x: 100, y: ${100 + 60 * index} }, size: { width: 150, height: 40 } }`)];
    writeFileSync(join(dir, 'quiet-fields.yaml'), `${fields.join('\n')}\n`);
    const put = await quietIds(['fields', 'put', envelopeId!, documents[0]!, '--file', 'quiet-fields.yaml']);
    expect(put).toHaveLength(2);
    expect([...put].sort()).toEqual((await quietIds(['fields', 'list', envelopeId!, documents[0]!])).sort());
    expect(await quietIds(['fields', 'check', '--local', 'nda.pdf', '--file', 'quiet-fields.yaml'])).toHaveLength(2);
    const preview = await esign(['fields', 'preview', '--local', 'nda.pdf', '--file', 'quiet-fields.yaml', '--out', 'quiet-preview.pdf', '--quiet']);
    expect(preview.stdout).toBe('quiet-preview.pdf\n');
    expect(await quietIds(['send', envelopeId!])).toEqual([envelopeId]);
    expect([...(await quietIds(['participants', 'remind', envelopeId!]))].sort()).toEqual([...participants].sort());
    expect(await quietIds(['api', 'getEnvelope', '-f', `envelopeId=${envelopeId}`])).toEqual([envelopeId]);
    expect(await quietIds(['api', 'listParticipants', '-f', `envelopeId=${envelopeId}`])).toEqual(participants);
    expect(await quietIds(['api', 'listEnvelopes', '--paginate'])).toContain(envelopeId);
    const [folderId] = await quietIds(['folders', 'list']);
    const access = await quietIds(['folders', 'access', folderId!]);
    expect(access.length).toBeGreaterThan(0);
    expect(access).not.toContain(folderId);
  });

  it('--json is unchanged by --quiet, and the default view is still for people', async () => {
    const json = await esign(['env', 'create', '--title', 'Both', '--json', '--quiet']);
    expect(JSON.parse(json.stdout)).toMatchObject({ title: 'Both', status: 'DRAFT' });
    const human = await esign(['env', 'create', '--title', 'People']);
    expect(human.stdout).toMatch(/People/);
    expect(human.stderr).toMatch(/Draft envelope .* created/);
  });
});

describe('tables measure display width', () => {
  const titles = ['合同 契約書 四半期の秘密保持契約 for the Osaka office', '😀 Party plan 🎉🎉', 'Plain'];

  beforeAll(async () => {
    for (const title of titles) expect((await esign(['env', 'create', '--title', title])).code).toBe(0);
  });

  it('off a terminal nothing is cut, whatever COLUMNS says, and wide titles keep the next column aligned', async () => {
    const result = await esign(['env', 'list', '--status', 'DRAFT', '--title', 'a', '--limit', '100'], { env: { COLUMNS: '40' } });
    expect(result.code, result.stderr).toBe(0);
    for (const title of titles.filter((title) => title.includes('a'))) expect(result.stdout).toContain(title);
    const { displayWidth } = await import('../src/output/table.js');
    const lines = result.stdout.trimEnd().split('\n');
    const doneColumn = lines.map((line) => displayWidth(line.slice(0, line.search(/DONE|(?<= {2})- {2}/))));
    expect(new Set(doneColumn).size).toBe(1);
    expect(lines[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  describe.skipIf(!tmuxBinary)('in a narrow terminal (tmux)', () => {
    let terminal: Terminal | undefined;
    afterEach(() => terminal?.stop());

    it('cuts the title with an ellipsis so no row wraps, ids short (8 characters, as esign takes them), dates whole', async () => {
      terminal = terminalWith(emulator.env);
      terminal.run(['env', 'list', '--limit', '100'], dir, 70);
      const screen = await terminal.waitFor(/EXIT=\d+/);
      expect(screen).toContain('EXIT=0');
      const { displayWidth } = await import('../src/output/table.js');
      const rows = screen.split('\n').filter((line) => /^[0-9a-f]{8} /.test(line));
      expect(rows.length).toBeGreaterThanOrEqual(titles.length);
      // Each row is on its own screen line: a wrapped row would leave a line that does not start with an id.
      const between = screen.split('\n').slice(1, rows.length + 1);
      expect(between).toEqual(rows);
      for (const row of rows) {
        expect(displayWidth(row)).toBeLessThanOrEqual(70);
        expect(row).toMatch(/ \d{4}-\d\d-\d\d$/);
      }
      expect(screen).toMatch(/合同 契約書.*…/);
      expect(screen).not.toContain('for the Osaka office');
    });

    it('COLUMNS narrower than the terminal is obeyed', async () => {
      terminal = terminalWith(emulator.env, { COLUMNS: '60' });
      terminal.run(['env', 'list', '--limit', '100'], dir, 120);
      const screen = await terminal.waitFor(/EXIT=\d+/);
      const { displayWidth } = await import('../src/output/table.js');
      for (const line of screen.split('\n')) expect(displayWidth(line.trimEnd())).toBeLessThanOrEqual(60);
      expect(screen).toContain('…');
    });
  });
});

describe('long output through a pipe', () => {
  it("a --json error document of several hundred KiB on stderr arrives whole through a slow pipe (not cut at the pipe's buffer)", async () => {
    const specs = Array.from({ length: 1500 }, (_, index) =>
      [`title: t${index}`, 'participants:', '  - { ref: a, name: A, email: not-an-address }', 'documents:', `  - { ref: d, file: missing-${index}.pdf }`, 'fields: []'].join('\n'),
    );
    writeFileSync(join(dir, 'many.yaml'), `${specs.join('\n---\n')}\n`);
    // A reader that starts late (`| (sleep; cat)`): the pipe fills, and the rest waits in esign until it drains.
    const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${esignBin}" --json batch validate many.yaml 2>&1 >/dev/null | (sleep 0.5; cat)`], {
      cwd: dir,
      env: { ...baseEnv(), ...emulator.env },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(piped.stdout.length).toBeGreaterThan(256 * 1024);
    expect((JSON.parse(piped.stdout) as { error: { code: string } }).error.code).toBe('BATCH_INVALID');
  });
});
