/*
 * Issue 23: support staff at 50, 80 and 120 columns. The real binary runs in tmux against an emulator holding the
 * account of test/support/support-desk.ts; each test reads what the screen shows.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../src/output/table.js';
import { readdirSync } from 'node:fs';
import { runEsign, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { deskPeople, deskTitles, seedSupportDesk, voidReason, type SupportDesk } from './support/support-desk.js';
import { terminalWith, tmuxBinary, type Terminal } from './support/terminal.js';

const emulator = useEmulator(['--processing-delay', '20']);
let desk: SupportDesk;

beforeAll(async () => {
  desk = await seedSupportDesk(emulator);
});

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const widths = [50, 80, 120] as const;

describe.skipIf(!tmuxBinary)('tables for support staff at 50, 80 and 120 columns (tmux)', () => {
  let terminal: Terminal | undefined;
  afterEach(() => terminal?.stop());

  /** The screen after `args` ran in a terminal `width` columns wide, wrapped lines joined: no line may be wider. */
  async function screenAt(width: number, args: readonly string[]): Promise<string> {
    terminal?.stop();
    terminal = terminalWith(emulator.env);
    terminal.run(args, undefined, width);
    await terminal.waitFor(/EXIT=\d+/);
    const screen = terminal.joinedScreen();
    expect(screen).toContain('EXIT=0');
    for (const line of screen.split('\n')) expect(displayWidth(line.trimEnd()), `${width} columns:\n${screen}`).toBeLessThanOrEqual(width);
    return screen;
  }

  /** Every word of `text` is on the screen (a wrapped cell puts them on several lines). */
  const expectWords = (screen: string, text: string) => {
    for (const word of text.split(' ')) expect(screen).toContain(word);
  };

  it.each(widths)('envelopes list at %i columns: short ids, status, the start of each title; left-out columns named', async (width) => {
    const screen = await screenAt(width, ['envelopes', 'list']);
    expect(screen).toMatch(new RegExp(`${desk.halfSigned.slice(0, 8)}\\s+SENT\\s+Mutual Non-Disclosure`));
    expect(screen).toMatch(new RegExp(`${desk.voided.slice(0, 8)}\\s+VOIDED\\s+Master Services`));
    expect(screen).toMatch(/1\/3/);
    expect(screen).not.toMatch(uuid);
    if (width >= 80) expect(screen).toContain('CREATED');
    if (width === 50) expect(screen).toMatch(/Hidden to fit 50 columns: DEADLINE, CREATED\s+\(--wide shows them\)\./);
    if (width === 120) expect(screen).toContain(deskTitles.halfSigned);
  });

  it.each(widths)('participants list at %i columns: every name, role and status (who has signed?)', async (width) => {
    const screen = await screenAt(width, ['participants', 'list', desk.halfSigned]);
    for (const person of deskPeople) expect(screen).toContain(person.name);
    expect(screen).toMatch(/SIGNED/);
    expect(screen.match(/NOTIFIED/g)).toHaveLength(2);
    expect(screen.match(/SIGNER/g)!.length).toBeGreaterThanOrEqual(3);
    expect(screen).toContain('← their turn');
    expect(screen).toContain('1/3 done');
    if (width === 120) expect(screen).toMatch(/Maria Gonzalez +maria@acme\.example +EMAIL +SIGNER +SIGNED/);
    // Narrower, one record per participant: nothing left out, nothing cut.
    else expect(screen).toMatch(/Name: +Maria Gonzalez\nContact: +maria@acme\.example\nDelivery: +EMAIL\nRole: +SIGNER\nStatus: +SIGNED/);
  });

  it.each(widths)('envelopes history at %i columns: the void reason and the participants by name, no UUIDs', async (width) => {
    const screen = await screenAt(width, ['envelopes', 'history', desk.voided]);
    expectWords(screen, voidReason);
    expect(screen).toContain('ENVELOPE_VOIDED');
    expect(screen).toContain('PARTICIPANTS_SYNCED');
    expectWords(screen, 'participants Jonathan Appleseed-Smith, Chen Wei');
    expect(screen).not.toMatch(/removed/);
    expect(screen.replace(/EXIT=0[\s\S]*/, '')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it.each(widths)('envelopes get at %i columns: title whole, status, participants with their status', async (width) => {
    const screen = await screenAt(width, ['envelopes', 'get', desk.halfSigned]);
    expectWords(screen, deskTitles.halfSigned);
    expect(screen).toMatch(/Status: +SENT/);
    for (const person of deskPeople) expect(screen).toContain(person.name);
    expect(screen).toMatch(/SIGNED/);
    expect(screen).toContain('contract.pdf');
  });

  it.each(widths)('webhooks deliveries at %i columns: event and status of each delivery', async (width) => {
    const screen = await screenAt(width, ['webhooks', 'deliveries', desk.webhookId]);
    expect(screen).toContain('ENVELOPE_VOIDED');
    expect(screen).toContain('SUCCEEDED');
    expect(screen).toContain('204');
    if (width === 80) expect(screen).toMatch(/Hidden to fit 80 columns: ATTEMPTS, CREATED\s+\(--wide shows them\)\./);
  });

  it.each(widths)('contacts list at %i columns: names and e-mail addresses whole', async (width) => {
    const screen = await screenAt(width, ['contacts', 'list']);
    for (const person of deskPeople) {
      expectWords(screen, person.name);
      expect(screen).toContain(person.email);
    }
  });

  it('a download of an envelope not COMPLETED asks on a terminal, and the saved name says unsigned', async () => {
    const dir = tempDir('esign-download-');
    terminal = terminalWith(emulator.env);
    terminal.run(['envelopes', 'download', desk.halfSigned, '--out', 'nda.zip'], dir, 80);
    await terminal.waitFor(/Download the unsigned copy\?/);
    const question = terminal.joinedScreen();
    expect(question).toContain('is SENT, not COMPLETED');
    expect(question).toContain('Still to sign: Jonathan Appleseed-Smith <jonathan.appleseed@globex.example>, Chen Wei <chen.wei@initech.example>.');
    terminal.type('y');
    terminal.keys('Enter');
    expect(await terminal.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    expect(readdirSync(dir)).toEqual(['nda.unsigned.zip']);
  });

  it('--wide at 50 columns: every column and whole ids, rows left to the terminal to wrap', async () => {
    terminal = terminalWith(emulator.env);
    terminal.run(['envelopes', 'list', '--wide'], undefined, 50);
    await terminal.waitFor(/EXIT=\d+/);
    const screen = terminal.joinedScreen();
    expect(screen).toContain(desk.halfSigned);
    expect(screen).toContain(deskTitles.halfSigned);
    expect(screen).toMatch(/DEADLINE +CREATED/);
    expect(screen).not.toContain('Hidden to fit');
  });
});

describe('a short id from a table names the participant', () => {
  it('participants remind takes the 8-character prefix shown for a participant', async () => {
    const participants = JSON.parse((await runEsign(['participants', 'list', desk.halfSigned, '--json'], { env: emulator.env })).stdout).data;
    const jonathan = participants.find((participant: { name: string }) => participant.name === 'Jonathan Appleseed-Smith');
    const result = await runEsign(['participants', 'remind', desk.halfSigned, jonathan.id.slice(0, 8)], { env: emulator.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${jonathan.id.slice(0, 8)} is participant ${jonathan.id} (Jonathan Appleseed-Smith <jonathan.appleseed@globex.example>)`);
    const unknown = await runEsign(['participants', 'remind', desk.halfSigned, '00000000'], { env: emulator.env });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('No participant id starts with 00000000.');
  });
});
