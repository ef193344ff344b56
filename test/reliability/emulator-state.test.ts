import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { tempDir } from '../support/cli.js';
import { startEmulatorProcess, withEmulator } from '../support/emulator.js';

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
