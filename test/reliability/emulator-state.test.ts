import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { runEsign, tempDir } from '../support/cli.js';
import { startEmulatorProcess, withEmulator, type EmulatorProcess } from '../support/emulator.js';
import { canMountTmpfs, mountTmpfs, remount, unmount } from '../support/tmpfs.js';

const key = 'rel_test_StateReliability0123456789';

describe('emulator --state under a crash', () => {
  it('a kill -9 in the middle of a save leaves the previous state file whole and loadable', async () => {
    const directory = tempDir('esign-state-kill-');
    const statePath = join(directory, 'emulator.json');
    const kept = await withEmulator(['--key', key, '--no-seed', '--state', statePath], async (first) =>
      expectStatus(await call(first, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Before the crash' } }), 201).body,
    );

    // 100,000 more drafts make the next save long enough to be caught in the act.
    const second = await startEmulatorProcess(['--key', key, '--no-seed', '--state', statePath, '--preload-drafts', '100000']);
    const temporary = (name: string) => name.startsWith('.emulator.json.') && name.endsWith('.tmp');
    const deadline = Date.now() + 30_000;
    while (!readdirSync(directory).some(temporary)) {
      if (Date.now() > deadline) throw new Error('no save started within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    second.child.kill('SIGKILL');
    await new Promise((resolve) => second.child.once('exit', resolve));
    // The save was under way (its temp file is there) and never reached the rename.
    expect(readdirSync(directory).some(temporary)).toBe(true);

    await withEmulator(['--key', key, '--no-seed', '--state', statePath], async (third) => {
      const listed = expectStatus(await call(third, 'GET', '/v4/api/envelopes/?limit=100'), 200).body;
      expect(listed.data.map((envelope: { id: string }) => envelope.id)).toEqual([kept.id]);
      expect(listed.nextCursor).toBeNull();
    });
  });

  it('a save of 100,000 envelopes, replayable answers included, loads back whole', async () => {
    const statePath = join(tempDir('esign-state-big-'), 'emulator.json');
    const replayed = { body: { title: 'Replayed' }, headers: { 'idempotency-key': 'state-reload-0001' } };
    const created = await withEmulator(['--key', key, '--no-seed', '--state', statePath, '--preload-drafts', '100000'], async (first) =>
      expectStatus(await call(first, 'POST', '/v4/api/envelopes/', replayed), 201).body,
    );
    await withEmulator(['--key', key, '--no-seed', '--state', statePath], async (second) => {
      expect(expectStatus(await call(second, 'GET', '/v4/api/account'), 200).body.usage.envelopesCreated).toBe(100_001);
      const again = expectStatus(await call(second, 'POST', '/v4/api/envelopes/', replayed), 201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(created);
      const page = expectStatus(await call(second, 'GET', '/v4/api/envelopes/?limit=2'), 200).body;
      expect(page.data[0].id).toBe(created.id);
      expect(page.data[1].title).toBe('Preloaded draft');
    });
  });
});

describe('emulator --state files it cannot use, and older ones', () => {
  const head = (format: string) => JSON.stringify({ format });
  it.each([
    ['a damaged record line', `${head('esign-emulator-state/3')}\n{"broken":\n`, ':2: not JSON'],
    ['a line that is not a record', `${head('esign-emulator-state/3')}\n["envelope",null]\n`, ":2: is not a record of this emulator's state"],
    ['a head that is not JSON', 'hello\n', ':1: not JSON'],
    ['JSON of something else', '{"name":"package"}\n', ': is not a state file of this emulator'],
    ['a newer format', `${head('esign-emulator-state/99')}\n`, ': was written by a newer esign (state format 99; this one reads up to 3)'],
    ['an empty file', '', ': is empty'],
  ])('refuses %s with exit 2, naming the file (and line), and leaves the file as it was', async (_case, content, problem) => {
    const statePath = join(tempDir('esign-state-refused-'), 'emulator.jsonl');
    writeFileSync(statePath, content);
    const result = await runEsign(['emulator', '--state', statePath, '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`STATE_FILE_INVALID: --state ${statePath}${problem}`);
    expect(result.stderr).toMatch(/hint: .*(move the file away|Move the file away)/);
    expect(result.stderr).not.toContain('bug in esign');
    expect(readFileSync(statePath, 'utf8')).toBe(content);
  });

  // sysfs refuses a new folder to everyone, root included: a place where a state file cannot go, on any Linux.
  it.skipIf(!existsSync('/sys/kernel'))('refuses a new file whose folder cannot be made, at start rather than at the first save (exit 2)', async () => {
    const statePath = '/sys/esign-state-test/emulator.jsonl';
    const result = await runEsign(['emulator', '--state', statePath, '--port', '0']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`--state ${statePath}: cannot be written: its folder /sys/esign-state-test: permission denied (EPERM).`);
  });

  it('refuses a directory with exit 2', async () => {
    const statePath = join(tempDir('esign-state-directory-'), 'emulator.jsonl');
    mkdirSync(statePath);
    const result = await runEsign(['emulator', '--state', statePath, '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--state ${statePath}: is a directory.`);
  });

  it("reads a format 2 file, whose envelopes keep their creation entry in their history, and writes format 3", async () => {
    const statePath = join(tempDir('esign-state-format-2-'), 'emulator.jsonl');
    const args = ['--key', key, '--no-seed', '--state', statePath];
    const { id, history } = await withEmulator(args, async (first) => {
      const { id } = expectStatus(await call(first, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Kept since format 2' } }), 201).body;
      expectStatus(await call(first, 'PATCH', `/v4/api/envelopes/${id}/settings`, { body: { title: 'Renamed' } }), 200);
      return { id, history: expectStatus(await call(first, 'GET', `/v4/api/envelopes/${id}/history`), 200).body };
    });
    // The same state as an esign of format 2 wrote it: the creation entry in the record's history, no created* fields.
    const [first, ...rest] = readFileSync(statePath, 'utf8').split('\n');
    const older = rest.map((text) => {
      if (!text.startsWith('["envelope"')) return text;
      const line = JSON.parse(text);
      const { createdBy: _by, createdTitle: _title, createdFolderId: _folder, createdDetails: _details, ...record } = line[1];
      return JSON.stringify(['envelope', { ...record, history: [history.data[0], ...record.history] }, ...line.slice(2)]);
    });
    expect(history.data[0].action).toBe('ENVELOPE_CREATED');
    expect(older.join('\n')).not.toContain('createdBy');
    writeFileSync(statePath, [JSON.stringify({ ...JSON.parse(first!), format: 'esign-emulator-state/2' }), ...older].join('\n'));

    await withEmulator(args, async (second) => {
      expect(expectStatus(await call(second, 'GET', `/v4/api/envelopes/${id}/history`), 200).body).toEqual(history);
      expectStatus(await call(second, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'After the upgrade' } }), 201);
    });
    expect(JSON.parse(readFileSync(statePath, 'utf8').split('\n')[0]!).format).toBe('esign-emulator-state/3');
  });
});

/*
 * Issue #21, item 7: "the emulator drops changes it cannot save to --state and says only 'Stopped by SIGTERM';
 * --state on a read-only filesystem reports ENOENT".
 */
describe('emulator --state it cannot write', () => {
  async function shown(emulator: EmulatorProcess, text: string): Promise<void> {
    for (const deadline = Date.now() + 20_000; !emulator.stderr.includes(text); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > deadline) throw new Error(`stderr never showed ${JSON.stringify(text)}: ${emulator.stderr}`);
    }
  }
  const stopped = (emulator: EmulatorProcess) =>
    new Promise<number | null>((resolve) => {
      emulator.child.once('exit', (code) => resolve(code));
      emulator.child.kill('SIGTERM');
    });

  it('a failed save is said at once on stderr, a save that works again too, and a stop that cannot save exits non-zero saying what is lost', { timeout: 60_000 }, async () => {
    const statePath = join(tempDir('esign-state-full-'), 'emulator.jsonl');
    // 12 KiB: the empty account's state fits, that of 60 more envelopes does not.
    const emulator = await startEmulatorProcess(['--key', key, '--no-seed', '--state', statePath], { fileSizeLimitKiB: 12 });
    try {
      expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Saved' } }), 201);
      for (let waited = 0; !existsSync(statePath) && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let index = 0; index < 60; index += 1) {
        expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: `Unsaved ${index} ${'x'.repeat(150)}` } }), 201);
      }
      // At once, while it keeps serving: which file, why, and what is at stake.
      await shown(emulator, `Cannot write --state ${statePath}: the file is larger than this process may write (ulimit -f) (EFBIG).`);
      expect(emulator.stderr).toMatch(/The changes since the last save \(\d{4}-.*\) are in memory only; each change tries to save again, and so does the stop\./);
      // Once for the run of failures, not once per retry.
      expect(emulator.stderr.split('Cannot write --state').length - 1).toBe(1);
      // Back under the limit: the next save works, and says so.
      expect((await emulator.fetch('/_emulator/reset', { method: 'POST' })).status).toBe(200);
      await shown(emulator, `--state ${statePath}: saved again; the changes above are no longer at risk.`);

      for (let index = 0; index < 60; index += 1) {
        expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: `Lost ${index} ${'x'.repeat(150)}` } }), 201);
      }
      expect(await stopped(emulator)).toBe(143);
      expect(emulator.stderr).toMatch(/Stopped by SIGTERM, without saving the state: Cannot write --state .*\(EFBIG\)\..* The changes since the last save \(\d{4}-.*\) are lost\./);
      // The file holds the last save that fit: on a slow machine a save can land after the first few of these creates
      // (a save follows a change by 50 ms), but never after the last, which the limit cannot take.
      expect(readFileSync(statePath, 'utf8')).not.toContain('Lost 59 ');
    } finally {
      await emulator.stop();
    }
  });

  describe.skipIf(!canMountTmpfs)('on a read-only file system (a tmpfs remounted read-only; root only)', () => {
    let readOnly: string;
    beforeAll(async () => {
      readOnly = mountTmpfs('256k');
      await withEmulator(['--key', key, '--no-seed', '--state', join(readOnly, 'existing.jsonl')], async (emulator) => {
        expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Kept' } }), 201);
      });
      remount(readOnly, 'ro');
    });
    afterAll(() => unmount(readOnly));

    it.each([
      ['a new file in a new folder', 'new/emulator.jsonl'],
      ['a new file', 'emulator.jsonl'],
      ['an existing file', 'existing.jsonl'],
    ])('%s: exit 2 saying read-only (EROFS), at start', async (_, name) => {
      const statePath = join(readOnly, name);
      const result = await runEsign(['emulator', '--port', '0', '--no-seed', '--state', statePath], { timeoutMs: 10_000 });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`--state ${statePath}: cannot be written: its folder ${dirname(statePath)}: the file system is read-only (EROFS).`);
    });
  });
});
