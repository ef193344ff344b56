import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { checkEmail, needsPhone, parseNameAndEmail, participantsFromFlags, readParticipantsFile, readTemplateParticipantsFile } from './participants.js';

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'esign-participants-')), name);
  writeFileSync(path, text);
  return path;
}

const noStdin = Readable.from([]);

async function usageError(promise: Promise<unknown>): Promise<UsageError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('participants file', () => {
  it('reads `participants:` with defaults EMAIL and SIGNER', async () => {
    const path = file('p.yaml', 'participants:\n  - name: Ada\n    email: ada@example.com\n  - name: Bob\n    email: bob@example.com\n    deliveryMethod: sms\n    phoneNumber: "+33612345678"\n    role: approver\n    signingOrder: 2\n');
    expect(await readParticipantsFile(path, noStdin)).toEqual([
      { name: 'Ada', email: 'ada@example.com', deliveryMethod: 'EMAIL', role: 'SIGNER' },
      { name: 'Bob', email: 'bob@example.com', deliveryMethod: 'SMS', phoneNumber: '+33612345678', role: 'APPROVER', signingOrder: 2 },
    ]);
  });

  it('reads a bare JSON list', async () => {
    const path = file('p.json', '[{"name": "Ada", "email": "ada@example.com"}]');
    expect(await readParticipantsFile(path, noStdin)).toHaveLength(1);
  });

  it('"SMS and WHATSAPP need phoneNumber (E.164)": points at file:line:column', async () => {
    const path = file('p.yaml', 'participants:\n  - name: Ada\n    email: ada@example.com\n    deliveryMethod: WHATSAPP\n');
    const error = await usageError(readParticipantsFile(path, noStdin));
    expect(error.message).toContain(`${path}:4:21: participants[0].deliveryMethod: phoneNumber (E.164) is required when deliveryMethod is WHATSAPP`);
  });

  it('refuses a phone number that is not E.164, and tells to quote an unquoted one', async () => {
    const bad = await usageError(readParticipantsFile(file('p.yaml', '- name: Ada\n  email: ada@example.com\n  phoneNumber: "06 12 34 56 78"\n'), noStdin));
    expect(bad.message).toMatch(/:3:16: \[0\]\.phoneNumber: phoneNumber must be in E\.164 form/);
    const unquoted = await usageError(readParticipantsFile(file('p.yaml', '- name: Ada\n  email: ada@example.com\n  phoneNumber: +33612345678\n'), noStdin));
    expect(unquoted.message).toMatch(/must be quoted/);
    // The emulator's rule too: fewer than 7 digits after the + is no phone number.
    const short = await usageError(readParticipantsFile(file('p.yaml', '- name: Ada\n  email: ada@example.com\n  phoneNumber: "+3361"\n'), noStdin));
    expect(short.message).toMatch(/phoneNumber must be in E\.164 form/);
  });

  it('reports every problem at once, and unknown keys (typos)', async () => {
    const path = file('p.yaml', 'participants:\n  - name: ""\n    emial: ada@example.com\n  - name: Bob\n    email: not-an-email\n    role: OWNER\n');
    const error = await usageError(readParticipantsFile(path, noStdin));
    expect(error.message).toContain('name must not be empty');
    expect(error.message).toMatch(/emial/);
    expect(error.message).toContain('email is not an e-mail address');
    expect(error.message).toContain('role must be one of SIGNER, APPROVER');
  });

  it('needs at least one participant', async () => {
    const error = await usageError(readParticipantsFile(file('p.yaml', 'participants: []\n'), noStdin));
    expect(error.message).toContain('at least one participant is needed');
  });

  it('template participants: exactly one of templateParticipantId or templateRole; role is the template\'s', async () => {
    const { participants } = await readTemplateParticipantsFile(file('t.yaml', '- templateRole: Client\n  name: Ada\n  email: ada@example.com\n'), noStdin);
    expect(participants).toEqual([{ templateRole: 'Client', name: 'Ada', email: 'ada@example.com', deliveryMethod: 'EMAIL' }]);
    const neither = await usageError(readTemplateParticipantsFile(file('t.yaml', '- name: Ada\n  email: ada@example.com\n'), noStdin));
    expect(neither.message).toContain('give exactly one of templateParticipantId or templateRole');
    const role = await usageError(readTemplateParticipantsFile(file('t.yaml', '- templateRole: Client\n  role: SIGNER\n  name: Ada\n  email: ada@example.com\n'), noStdin));
    expect(role.message).toMatch(/role/);
  });
});

describe('--add flags', () => {
  it('reads "Name <email>"', () => {
    expect(parseNameAndEmail('Ada Lovelace <ada@example.com>', '--add')).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(() => parseNameAndEmail('ada@example.com', '--add')).toThrow(/expected "Name <email>"/);
    expect(() => parseNameAndEmail('   <ada@example.com>', '--add')).toThrow(/expected "Name <email>"/);
  });

  it('takes the addresses the emulator takes (WHATWG\'s rule, src/shared/email.ts) and no others', () => {
    expect(parseNameAndEmail('Odd <?x%y@ae.example>', '--add').email).toBe('?x%y@ae.example');
    expect(checkEmail('root@localhost', '--email')).toBe('root@localhost');
    expect(() => checkEmail('ada@exa_mple.com', '--email')).toThrow(/not an e-mail address/);
  });

  it('SMS without --phone is refused before sending', () => {
    expect(() => participantsFromFlags({ add: ['Ada <ada@example.com>'], delivery: 'SMS' })).toThrow(/needs --phone/);
    expect(() => participantsFromFlags({ add: ['Ada <ada@example.com>'], delivery: 'SMS', phone: '0612345678' })).toThrow(/not an E\.164/);
  });

  it('--phone belongs to a single participant', () => {
    expect(() => participantsFromFlags({ add: ['A <a@example.com>', 'B <b@example.com>'], phone: '+33612345678' })).toThrow(/single --add/);
  });

  it('builds the request items', () => {
    expect(participantsFromFlags({ add: ['Ada <ada@example.com>'], delivery: 'whatsapp', phone: '+33612345678', role: 'approver' })).toEqual([
      { name: 'Ada', email: 'ada@example.com', phoneNumber: '+33612345678', deliveryMethod: 'WHATSAPP', role: 'APPROVER' },
    ]);
    expect(needsPhone('EMAIL')).toBe(false);
  });
});
