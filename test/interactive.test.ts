/*
 * Prompts in a real pseudo-terminal (test/support/terminal.ts): tmux runs the built binary with no CI variable, the
 * test reads the screen and types.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { createDraft, createSentEnvelope, readyDraft, type SentEnvelope } from './support/envelope-flow.js';
import { useEmulator, type EmulatorProcess } from './support/emulator.js';
import { tempDir } from './support/cli.js';
import { simplePdf } from './support/pdfs.js';
import { terminalWith, tmuxBinary, type Terminal } from './support/terminal.js';

if (!tmuxBinary) process.stderr.write('test/interactive.test.ts skipped: tmux is not installed, so no pseudo-terminal can be driven.\n');

async function sign(emulator: EmulatorProcess, envelopeId: string, participantId: string): Promise<void> {
  const answer = await emulator.fetch(`/_emulator/envelopes/${envelopeId}/participants/${participantId}/sign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(answer.status).toBe(200);
}

async function envelopeState(emulator: EmulatorProcess, envelopeId: string) {
  return expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}`), 200).body;
}

describe.skipIf(!tmuxBinary)('in a terminal (tmux)', () => {
  const sandbox = useEmulator();
  let terminal: Terminal | undefined;

  afterAll(async () => {
    terminal?.stop();
  });

  function open(emulator: EmulatorProcess, extra: Record<string, string | undefined> = {}): Terminal {
    terminal?.stop();
    terminal = terminalWith(emulator.env, extra);
    return terminal;
  }

  it('status colours on a terminal, none with NO_COLOR', async () => {
    const envelope = await createSentEnvelope(sandbox, { title: 'Coloured' });
    const coloured = open(sandbox, { NO_COLOR: undefined });
    coloured.run(['envelopes', 'get', envelope.id]);
    await coloured.waitFor(/EXIT=0/);
    expect(coloured.screen(true)).toContain('\u001b[36mSENT');
    const plain = open(sandbox, { NO_COLOR: '1' });
    plain.run(['envelopes', 'get', envelope.id]);
    await plain.waitFor(/EXIT=0/);
    expect(plain.screen(true)).toMatch(/Status:\s+SENT/);
    expect(plain.screen(true)).not.toContain('\u001b[36m');
  });

  it('participants correct without an id: picks one, those who signed are disabled', async () => {
    const envelope: SentEnvelope = await createSentEnvelope(sandbox, {
      participants: [
        { name: 'Ada Signed', email: 'ada@example.test' },
        { name: 'Bob Waiting', email: 'bob@example.test' },
        { name: 'Cy Waiting', email: 'cy@example.test' },
      ],
    });
    const [ada, bob, cy] = envelope.participantIds as [string, string, string];
    await sign(sandbox, envelope.id, ada);

    const tty = open(sandbox);
    tty.run(['participants', 'correct', envelope.id, '--email', 'cy.new@example.test']);
    const menu = await tty.waitFor(/Which participant do you want to correct\?[\s\S]*Cy Waiting/);
    expect(menu).toMatch(/Ada Signed <ada@example\.test> · SIGNER\s+signed/);
    expect(menu).toMatch(/❯ Bob Waiting/);
    tty.keys('Down');
    await tty.waitFor(/❯ Cy Waiting/);
    tty.keys('Enter');
    const done = await tty.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=0');
    expect(done).toContain("counts toward the account's message limit");

    const participants = (await envelopeState(sandbox, envelope.id)).participants as { id: string; email: string }[];
    expect(participants.find((p) => p.id === cy)!.email).toBe('cy.new@example.test');
    expect(participants.find((p) => p.id === bob)!.email).toBe('bob@example.test');
  });

  it('envelopes void shows the envelope and asks; yes voids it', async () => {
    const envelope = await createSentEnvelope(sandbox, { title: 'Void me' });
    const tty = open(sandbox);
    tty.run(['envelopes', 'void', envelope.id, '--reason', 'Wrong version']);
    const question = await tty.waitFor(/Void envelope .*\? \(y\/N\)/);
    expect(question).toContain('About to void this envelope; this cannot be undone');
    expect(question).toMatch(/Void me · .* · SENT/);
    expect(question).toMatch(/Ada Signer <ada@example\.test> · SIGNER · NOTIFIED/);
    tty.type('y');
    tty.keys('Enter');
    expect(await tty.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    expect(await envelopeState(sandbox, envelope.id)).toMatchObject({ status: 'VOIDED', cancellationReason: 'Wrong version' });
  });

  it('the line after a prompt is whole: envelopes delete answered yes prints "Envelope … deleted." on its own line', async () => {
    const draft = await createDraft(sandbox, { title: 'Delete me' });
    const tty = open(sandbox);
    tty.run(['envelopes', 'delete', draft.id], undefined, 120);
    await tty.waitFor(/Delete envelope .*\? \(y\/N\)/);
    tty.type('y');
    tty.keys('Enter');
    const done = await tty.waitFor(/EXIT=\d+/);
    expect(done).toMatch(new RegExp(`^Envelope ${draft.id} deleted\\.$`, 'm'));
    expect(done).toMatch(/^EXIT=0$/m);
  });

  it.each([
    ['answered no', 'Enter', 'EXIT=2', 'Cancelled; nothing was changed.'],
    ['stopped by Ctrl-C, as Ctrl-C stops anything', 'C-c', 'EXIT=130', 'Stopped at the question by Ctrl-C; nothing was changed.'],
  ])('envelopes void, %s: nothing changes', async (_, key, exit, says) => {
    const envelope = await createSentEnvelope(sandbox);
    const tty = open(sandbox);
    tty.run(['envelopes', 'void', envelope.id, '--reason', 'Wrong version']);
    await tty.waitFor(/Void envelope .*\? \(y\/N\)/);
    tty.keys(key);
    const done = await tty.waitFor(/EXIT=\d+/);
    expect(done).toContain(says);
    expect(done).toContain(exit);
    expect((await envelopeState(sandbox, envelope.id)).status).toBe('SENT');
  });

  it('Ctrl-C typed while a spinner turns (envelopes wait) stops the wait: exit 130, with the command that waits again', async () => {
    const envelope = await createSentEnvelope(sandbox);
    const tty = open(sandbox);
    tty.run(['envelopes', 'wait', envelope.id, '--until', 'COMPLETED']);
    await tty.waitFor(/Waiting for envelope/);
    tty.keys('C-c');
    const done = await tty.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=130');
    expect(done).toContain(`esign envelopes wait ${envelope.id} --until COMPLETED`);
  });

  it('a terminal that reports 0 columns (an unsized pty, as in CI) gets plain lines: upload, send and a timed-out wait all end', async () => {
    const directory = tempDir('esign-unsized-');
    writeFileSync(join(directory, 'nda.pdf'), await simplePdf({ pages: [['Please sign.']] }));
    const draft = await readyDraft(sandbox, [{ name: 'Ada Signer', email: 'ada@example.test' }]);
    const upload = open(sandbox);
    upload.run(['documents', 'upload', draft.id, 'nda.pdf'], directory, 0);
    expect(await upload.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    expect(upload.screen()).toMatch(/nda\.pdf/);
    const sending = open(sandbox);
    sending.run(['send', draft.id], directory, 0);
    expect(await sending.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    const waiting = open(sandbox);
    waiting.run(['envelopes', 'wait', draft.id, '--until', 'COMPLETED', '--wait-timeout', '2s'], directory, 0);
    const waited = await waiting.waitFor(/EXIT=\d+/);
    expect(waited).toContain('EXIT=7');
    expect(waited).toContain('WAIT_TIMEOUT');
  });

  it('colours each stream only where it is a terminal: a table sent to a file has none, the message on the terminal keeps them', async () => {
    const envelope = await createSentEnvelope(sandbox, { title: 'To a file' });
    const directory = tempDir('esign-colour-');
    const tty = open(sandbox, { NO_COLOR: undefined });
    tty.run(['envelopes', 'get', envelope.id], directory, 200, 'out.txt');
    await tty.waitFor(/EXIT=0/);
    const saved = readFileSync(join(directory, 'out.txt'), 'utf8');
    expect(saved).toMatch(/Status:\s+SENT/);
    expect(saved).not.toContain('\u001b[');
    const failed = open(sandbox, { NO_COLOR: undefined });
    failed.run(['envelopes', 'get', 'no-such-envelope'], directory, 200, 'none.txt');
    await failed.waitFor(/EXIT=4/);
    expect(failed.screen(true)).toContain('\u001b[31m✗');
  });

  describe('live mode', () => {
    const production = useEmulator(['--environment', 'production']);

    it('void in live mode: the envelope id must be typed, a wrong one is refused', async () => {
      const envelope = await createSentEnvelope(production, { title: 'Live contract' });
      const tty = open(production);
      tty.run(['--live', 'envelopes', 'void', envelope.id, '--reason', 'Customer cancelled']);
      const prompt = await tty.waitFor(/Live envelope: type its id to void it/);
      expect(prompt).toContain('live · production');
      tty.type('not-the-id');
      tty.keys('Enter');
      await tty.waitFor(/That is not the envelope id/);
      expect((await envelopeState(production, envelope.id)).status).toBe('SENT');
      for (let i = 0; i < 'not-the-id'.length; i++) tty.keys('BSpace');
      tty.type(envelope.id);
      tty.keys('Enter');
      expect(await tty.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
      expect((await envelopeState(production, envelope.id)).status).toBe('VOIDED');
    });
  });
});
