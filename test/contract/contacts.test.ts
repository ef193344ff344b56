import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { createSentEnvelope } from '../support/envelope-flow.js';
import { useEmulator } from '../support/emulator.js';

const emulator = useEmulator();

async function createContact(body: Record<string, unknown>) {
  return expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body }), 201).body;
}

describe('contacts', () => {
  it('creates a contact (201) with name, email, an E.164 phone number and a company, and reads it back', async () => {
    const contact = await createContact({ name: 'Grace Hopper', email: 'grace@example.test', phoneNumber: '+14155550123', company: 'Navy' });
    expect(contact).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.test', phoneNumber: '+14155550123', company: 'Navy' });
    expect(contact.id).toEqual(expect.any(String));
    const read = expectStatus(await call(emulator, 'GET', `/v4/api/contacts/${contact.id}`), 200).body;
    expect(read).toEqual(contact);
  });

  it.each([
    ['name missing', { email: 'x@example.test' }, 'name'],
    ['email missing', { name: 'X' }, 'email'],
    ['email malformed', { name: 'X', email: 'not-an-email' }, 'email'],
    ['phone number not E.164', { name: 'X', email: 'x1@example.test', phoneNumber: '0412 345 678' }, 'phoneNumber'],
  ])('refuses a contact with %s: 400 VALIDATION_ERROR naming the field', async (_label, body, field) => {
    const answer = await call(emulator, 'POST', '/v4/api/contacts/', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
  });

  it('takes an address with `?` and `%` in its local part (WHATWG\'s valid e-mail address)', async () => {
    expect(await createContact({ name: 'Odd Local Part', email: '?x%y@ae.example' })).toMatchObject({ email: '?x%y@ae.example' });
  });

  it('refuses a second contact with the same e-mail (409 CONTACT_EMAIL_EXISTS)', async () => {
    const first = await createContact({ name: 'Dup One', email: 'dup@example.test' });
    const answer = await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Dup Two', email: 'DUP@example.test' } });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'CONTACT_EMAIL_EXISTS', details: { contactId: first.id } });
  });

  it('lists contacts with limit and cursor, and searches with q', async () => {
    for (const name of ['Search Alpha', 'Search Beta', 'Search Gamma']) await createContact({ name, email: `${name.replace(' ', '.').toLowerCase()}@example.test` });
    const first = expectStatus(await call(emulator, 'GET', '/v4/api/contacts/?q=search&limit=2'), 200).body;
    expect(first.data.map((contact: { name: string }) => contact.name)).toEqual(['Search Alpha', 'Search Beta']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = expectStatus(await call(emulator, 'GET', `/v4/api/contacts/?q=search&limit=2&cursor=${first.nextCursor}`), 200).body;
    expect(second).toEqual({ data: [expect.objectContaining({ name: 'Search Gamma' })], nextCursor: null });
    const none = expectStatus(await call(emulator, 'GET', '/v4/api/contacts/?q=nobody-matches-this'), 200).body;
    expect(none).toEqual({ data: [], nextCursor: null });
  });

  it('PUT replaces the whole contact: fields left out are cleared', async () => {
    const contact = await createContact({ name: 'Put Me', email: 'put@example.test', phoneNumber: '+442071234567', company: 'Old Co' });
    const replaced = expectStatus(await call(emulator, 'PUT', `/v4/api/contacts/${contact.id}`, { body: { name: 'Put Me Again', email: 'put2@example.test' } }), 200).body;
    expect(replaced).toMatchObject({ id: contact.id, name: 'Put Me Again', email: 'put2@example.test', phoneNumber: null, company: null, createdAt: contact.createdAt });
    // The list and the e-mail check see the contact as it is now.
    const listed = expectStatus(await call(emulator, 'GET', '/v4/api/contacts/?q=put'), 200).body.data;
    expect(listed.filter((each: { id: string }) => each.id === contact.id)).toEqual([replaced]);
    expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Takes the old address', email: 'put@example.test' } }), 201);
    const missing = await call(emulator, 'PUT', `/v4/api/contacts/${contact.id}`, { body: { name: 'No Email' } });
    expect(missing.status).toBe(400);
  });

  it('PATCH changes only the fields sent; null clears an optional one', async () => {
    const contact = await createContact({ name: 'Patch Me', email: 'patch@example.test', phoneNumber: '+33612345678', company: 'Keep Co' });
    const patched = expectStatus(await call(emulator, 'PATCH', `/v4/api/contacts/${contact.id}`, { body: { name: 'Patched', phoneNumber: null } }), 200).body;
    expect(patched).toMatchObject({ name: 'Patched', email: 'patch@example.test', phoneNumber: null, company: 'Keep Co' });
    const bad = await call(emulator, 'PATCH', `/v4/api/contacts/${contact.id}`, { body: { email: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('deletes a contact (204); it is then 404 RESOURCE_NOT_FOUND', async () => {
    const contact = await createContact({ name: 'Delete Me', email: 'delete@example.test' });
    const deleted = await call(emulator, 'DELETE', `/v4/api/contacts/${contact.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    const read = await call(emulator, 'GET', `/v4/api/contacts/${contact.id}`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('keeps one contact per e-mail through changes: a new address is taken, the old one and a deleted contact\'s are free again', async () => {
    const all = async (): Promise<string[]> => {
      const ids: string[] = [];
      for (let cursor: string | null = null; ; ) {
        const page: { data: { id: string }[]; nextCursor: string | null } = expectStatus(
          await call(emulator, 'GET', `/v4/api/contacts/?limit=100${cursor ? `&cursor=${cursor}` : ''}`),
          200,
        ).body;
        ids.push(...page.data.map((contact) => contact.id));
        if (!(cursor = page.nextCursor)) return ids;
      }
    };
    const moved = await createContact({ name: 'Moving', email: 'old.address@example.test' });
    const replaced = await createContact({ name: 'Replaced', email: 'put.old@example.test' });
    const leaving = await createContact({ name: 'Leaving', email: 'leaving@example.test' });
    expectStatus(await call(emulator, 'PATCH', `/v4/api/contacts/${moved.id}`, { body: { email: 'New.Address@example.test' } }), 200);
    expectStatus(await call(emulator, 'PUT', `/v4/api/contacts/${replaced.id}`, { body: { name: 'Replaced', email: 'put.new@example.test' } }), 200);
    expect((await call(emulator, 'DELETE', `/v4/api/contacts/${leaving.id}`)).status).toBe(204);
    for (const taken of ['new.address@example.test', 'PUT.NEW@example.test']) {
      expect((await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Copy', email: taken } })).body.error.code).toBe('CONTACT_EMAIL_EXISTS');
    }
    const listed = await all();
    expect(listed).toEqual(expect.arrayContaining([moved.id, replaced.id]));
    expect(listed).not.toContain(leaving.id);
    for (const free of ['old.address@example.test', 'put.old@example.test', 'leaving@example.test']) await createContact({ name: 'Again', email: free });
    expect((await all()).length).toBe(listed.length + 3);
  });

  it("lists a contact's envelopes: those with a participant of the contact's e-mail", async () => {
    const contact = await createContact({ name: 'Envelope Person', email: 'envelope.person@example.test' });
    const theirs = await createSentEnvelope(emulator, { title: 'Theirs', participants: [{ name: 'Envelope Person', email: 'Envelope.Person@example.test' }] });
    await createSentEnvelope(emulator, { title: 'Someone else', participants: [{ name: 'Other', email: 'other@example.test' }] });
    const listed = expectStatus(await call(emulator, 'GET', `/v4/api/contacts/${contact.id}/envelopes`), 200).body;
    expect(listed.data.map((envelope: { id: string }) => envelope.id)).toEqual([theirs.id]);
    expect(listed.data[0]).toMatchObject({ title: 'Theirs', status: 'SENT' });
  });

  it('lists contact lists and reads one with its contacts (the seeded "Customers" list)', async () => {
    const lists = expectStatus(await call(emulator, 'GET', '/v4/api/contact-lists/'), 200).body;
    const customers = lists.data.find((list: { name: string }) => list.name === 'Customers');
    expect(customers).toMatchObject({ contactCount: 1 });
    const read = expectStatus(await call(emulator, 'GET', `/v4/api/contact-lists/${customers.id}`), 200).body;
    expect(read.contacts).toEqual([expect.objectContaining({ name: 'Casey Customer', email: 'casey@example.test' })]);
    expect((await call(emulator, 'GET', '/v4/api/contact-lists/no-such-list')).status).toBe(404);
  });
});
