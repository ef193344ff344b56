import type { RouteContext, RouteTable } from '../context.js';
import { Derived } from '../derived.js';
import { fail } from '../errors.js';
import { expireDueEnvelopes } from '../lifecycle.js';
import { cursorPosition, pageLimit, paginate, positionCursor } from '../pagination.js';
import { newId, nowIso, type State, type Store } from '../store.js';
import type { ContactRecord } from '../records.js';
import { lazySchema, parseBody, type RequestBodies, type Zod } from '../validate.js';
import { envelopeView } from '../views.js';
import { EMAIL_MAX_LENGTH, emailPattern } from '../../shared/email.js';
import { e164Pattern } from '../../shared/phone.js';

const contactShape = (z: Zod) =>
  z.strictObject({
    name: z.string().trim().min(1).max(255),
    email: z.string().max(EMAIL_MAX_LENGTH).regex(emailPattern, 'must be an e-mail address'),
    phoneNumber: z.string().regex(e164Pattern, 'must be in E.164 form, e.g. +14155550123').nullish(),
    company: z.string().trim().max(255).nullish(),
  });

/** POST and PUT carry the whole contact; `phoneNumber` and `company` absent or null mean none. */
const contactSchema = lazySchema(contactShape);
/** PATCH: only the fields sent change; null clears `phoneNumber` or `company`. */
const contactPatchSchema = lazySchema((z) => contactShape(z).partial());

function contactView(contact: ContactRecord) {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phoneNumber: contact.phoneNumber ?? null,
    company: contact.company ?? null,
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
  };
}

/** The contacts in creation order, and by e-mail (lowercase). A change is made to the record itself, which both hold. */
interface ContactIndex {
  ordered: ContactRecord[];
  byEmail: Map<string, ContactRecord>;
}

/** So that a page of contacts and the e-mail check cost the same at 100,000 contacts as at ten. */
const contactIndexes = new Derived((contacts: State['contacts']): ContactIndex => {
  const ordered = Object.values(contacts);
  return { ordered, byEmail: new Map(ordered.map((contact) => [contact.email.toLowerCase(), contact])) };
});

function contactIndex(state: State): ContactIndex {
  return contactIndexes.of(state.contacts);
}

function findContact({ store, params }: RouteContext): ContactRecord {
  const contact = store.state.contacts[params.contactId!];
  if (!contact) throw fail.notFound('Contact', params.contactId!);
  return contact;
}

/** One contact per e-mail address (case-insensitive), so an import can be repeated without duplicates. */
function assertEmailFree(state: State, email: string, exceptId?: string): void {
  const taken = contactIndex(state).byEmail.get(email.toLowerCase());
  if (taken && taken.id !== exceptId) throw fail.conflict('CONTACT_EMAIL_EXISTS', `A contact with e-mail ${email} already exists.`, { contactId: taken.id });
}

async function wholeContact(body: unknown): Promise<Pick<ContactRecord, 'name' | 'email' | 'phoneNumber' | 'company'>> {
  const { name, email, phoneNumber, company } = parseBody(await contactSchema(), body);
  return { name, email, ...(phoneNumber ? { phoneNumber } : {}), ...(company ? { company } : {}) };
}

function addContact(state: State, fields: Pick<ContactRecord, 'name' | 'email' | 'phoneNumber' | 'company'>): ContactRecord {
  const now = nowIso();
  const contact: ContactRecord = { id: newId(), ...fields, createdAt: now, updatedAt: now };
  const index = contactIndex(state);
  state.contacts[contact.id] = contact;
  index.ordered.push(contact);
  index.byEmail.set(contact.email.toLowerCase(), contact);
  return contact;
}

/** `count` contacts made as createContact makes them, without requests: how the bench fills a long contact list. */
export function preloadContacts(store: Store, count: number): void {
  for (let index = 1; index <= count; index++) addContact(store.state, { name: `Preloaded contact ${index}`, email: `contact-${index}@preload.example`, company: 'Bench Ltd' });
  store.changed();
}

function changeEmail(state: State, contact: ContactRecord, email: string): void {
  const { byEmail } = contactIndex(state);
  byEmail.delete(contact.email.toLowerCase());
  contact.email = email;
  byEmail.set(email.toLowerCase(), contact);
}

function contactListView(state: State, list: State['contactLists'][string]) {
  return { id: list.id, name: list.name, contactCount: list.contactIds.filter((id) => state.contacts[id]).length, createdAt: list.createdAt };
}

export const routes: RouteTable = {
  createContact: async ({ store, body }) => {
    const fields = await wholeContact(body);
    assertEmailFree(store.state, fields.email);
    const contact = addContact(store.state, fields);
    store.changed();
    return { status: 201, body: contactView(contact) };
  },

  listContacts: ({ store, query }) => {
    const needle = query.q?.trim().toLowerCase();
    const { ordered } = contactIndex(store.state);
    // A search reads every contact; the plain list is a slice.
    const contacts = needle ? ordered.filter((contact) => [contact.name, contact.email, contact.company ?? ''].some((text) => text.toLowerCase().includes(needle))) : ordered;
    const page = paginate(contacts, query);
    return { status: 200, body: { data: page.data.map(contactView), nextCursor: page.nextCursor } };
  },

  getContact: (ctx) => ({ status: 200, body: contactView(findContact(ctx)) }),

  updateContact: async (ctx) => {
    const contact = findContact(ctx);
    const { name, email, phoneNumber, company } = await wholeContact(ctx.body);
    assertEmailFree(ctx.store.state, email, contact.id);
    contact.name = name;
    changeEmail(ctx.store.state, contact, email);
    if (phoneNumber) contact.phoneNumber = phoneNumber;
    else delete contact.phoneNumber;
    if (company) contact.company = company;
    else delete contact.company;
    contact.updatedAt = nowIso();
    ctx.store.changed();
    return { status: 200, body: contactView(contact) };
  },

  patchContact: async (ctx) => {
    const contact = findContact(ctx);
    const { name, email, phoneNumber, company } = parseBody(await contactPatchSchema(), ctx.body);
    if (email !== undefined) assertEmailFree(ctx.store.state, email, contact.id);
    if (name !== undefined) contact.name = name;
    if (email !== undefined) changeEmail(ctx.store.state, contact, email);
    if (phoneNumber === null) delete contact.phoneNumber;
    else if (phoneNumber !== undefined) contact.phoneNumber = phoneNumber;
    if (company === null || company === '') delete contact.company;
    else if (company !== undefined) contact.company = company;
    contact.updatedAt = nowIso();
    ctx.store.changed();
    return { status: 200, body: contactView(contact) };
  },

  deleteContact: (ctx) => {
    const contact = findContact(ctx);
    const { state } = ctx.store;
    delete state.contacts[contact.id];
    // Rare enough to rebuild the index on its next use rather than close the gap in its order.
    contactIndexes.forget(state.contacts);
    for (const list of Object.values(state.contactLists)) list.contactIds = list.contactIds.filter((id) => id !== contact.id);
    ctx.store.changed();
    return { status: 204 };
  },

  listContactEnvelopes: (ctx) => {
    const { email } = findContact(ctx);
    const { state } = ctx.store;
    const limit = pageLimit(ctx.query);
    expireDueEnvelopes(ctx);
    // The contact's own list, newest first from the cursor on: a page costs the same whatever the other envelopes are.
    const page = state.envelopes.participantPage(email, cursorPosition(ctx.query), limit);
    const last = page.items.at(-1);
    return {
      status: 200,
      body: { data: page.items.map((envelope) => envelopeView(state, envelope)), nextCursor: page.more && last ? positionCursor(state.envelopes.positionOf(last)) : null },
    };
  },

  listContactLists: ({ store, query }) => {
    const page = paginate(Object.values(store.state.contactLists), query);
    return { status: 200, body: { data: page.data.map((list) => contactListView(store.state, list)), nextCursor: page.nextCursor } };
  },

  getContactList: ({ store, params }) => {
    const list = store.state.contactLists[params.listId!];
    if (!list) throw fail.notFound('Contact list', params.listId!);
    const contacts = list.contactIds.map((id) => store.state.contacts[id]).filter((contact) => contact !== undefined);
    return { status: 200, body: { ...contactListView(store.state, list), contacts: contacts.map(contactView) } };
  },
};

export const requestBodies: RequestBodies = {
  createContact: { schema: contactSchema },
  updateContact: { schema: contactSchema },
  patchContact: { schema: contactPatchSchema },
};
