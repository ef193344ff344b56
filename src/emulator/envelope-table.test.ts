import { describe, expect, it } from 'vitest';
import { EnvelopeTable } from './envelope-table.js';
import type { EnvelopeRecord, EnvelopeStatus, ParticipantRecord } from './records.js';

let nextSeq = 0;
function envelope(folderId = 'f1', status: EnvelopeStatus = 'DRAFT', deadline: string | null = null): EnvelopeRecord {
  const seq = nextSeq++;
  return {
    id: `e${seq}`,
    seq,
    title: 't',
    message: '',
    status,
    deadline,
    createdAt: '',
    updatedAt: '',
    folderId,
    sender: { id: 's', name: 's' },
    participants: [],
    documentIds: [],
    history: [],
  };
}

const ids = (items: readonly EnvelopeRecord[]) => items.map((item) => item.id);

describe('EnvelopeTable', () => {
  it('pages newest first, and a cursor continues where it left off while envelopes are created in front', () => {
    const table = new EnvelopeTable();
    const made = Array.from({ length: 3000 }, () => envelope());
    for (const each of made) table.add(each);
    const first = table.page({}, undefined, 100);
    expect(first.more).toBe(true);
    expect(ids(first.items)).toEqual(ids(made.slice(-100).reverse()));
    for (let index = 0; index < 500; index++) table.add(envelope());
    const second = table.page({}, table.positionOf(first.items.at(-1)!), 100);
    expect(ids(second.items)).toEqual(ids(made.slice(-200, -100).reverse()));
    // Walking every page visits each of the first 3,000 once, in order.
    const seen: EnvelopeRecord[] = [];
    for (let page = table.page({}, table.positionOf(first.items.at(-1)!), 97); ; ) {
      seen.push(...page.items);
      if (!page.more) break;
      page = table.page({}, table.positionOf(page.items.at(-1)!), 97);
    }
    expect(ids(seen)).toEqual(ids(made.slice(0, -100).reverse()));
  });

  it('keeps the status, folder and combined indexes right through status changes, moves and deletes', () => {
    const table = new EnvelopeTable();
    const [a, b, c] = [envelope('f1'), envelope('f2'), envelope('f1')];
    for (const each of [a!, b!, c!]) table.add(each);
    table.setStatus(a!, 'SENT');
    table.setFolder(c!, 'f2');
    expect(ids(table.page({ status: 'DRAFT' }, undefined, 10).items)).toEqual([c!.id, b!.id]);
    expect(ids(table.page({ folderId: 'f2' }, undefined, 10).items)).toEqual([c!.id, b!.id]);
    expect(ids(table.page({ folderId: 'f1', status: 'SENT' }, undefined, 10).items)).toEqual([a!.id]);
    expect(table.countIn('f1')).toBe(1);
    table.delete(b!);
    expect(table.get(b!.id)).toBeUndefined();
    expect(ids(table.page({ status: 'DRAFT' }, undefined, 10).items)).toEqual([c!.id]);
    // Moving back into a folder puts the envelope at its creation position, not at the front.
    table.setFolder(c!, 'f1');
    expect(ids(table.page({ folderId: 'f1' }, undefined, 10).items)).toEqual([c!.id, a!.id]);
  });

  it('lists voided envelopes by when they were voided, and yields each SENT envelope once when its deadline passes', () => {
    const table = new EnvelopeTable();
    const [early, late] = [envelope('f1', 'SENT', new Date(1000).toISOString()), envelope('f1', 'SENT', new Date(5000).toISOString())];
    table.add(early!);
    table.add(late!);
    expect(ids([...table.due(999)])).toEqual([]);
    expect(ids([...table.due(1000)])).toEqual([early!.id]);
    expect(ids([...table.due(1000)])).toEqual([]);
    late!.deadline = new Date(500).toISOString();
    table.deadlineChanged(late!);
    expect(ids([...table.due(600)])).toEqual([late!.id]);
    const [first, second] = [envelope('f1', 'VOIDED'), envelope('f1', 'VOIDED')];
    table.add(second!, 100);
    table.add(first!, 200);
    expect(ids(table.voidedPage(undefined, 10).items)).toEqual([first!.id, second!.id]);
  });

  it("lists a contact's envelopes by participant email, in any case, following replaced participants, corrected emails and deletions", () => {
    const table = new EnvelopeTable();
    const participant = (email: string): ParticipantRecord => ({ id: email, name: email, email, deliveryMethod: 'EMAIL', role: 'SIGNER', signingOrder: 1, status: 'PENDING', linkVersion: 1 });
    const withAda = (email: string) => ids(table.participantPage(email, undefined, 100).items);
    const [first, second, third] = [envelope(), envelope(), envelope()];
    for (const each of [first!, second!, third!]) table.add(each);
    table.setParticipants(first!, [participant('ada@example.com'), participant('ADA@example.com')]);
    table.setParticipants(third!, [participant('bob@example.com'), participant('Ada@Example.com')]);
    expect(withAda('ada@EXAMPLE.com')).toEqual([third!.id, first!.id]);
    // Listed after an older one, in creation order: a participant set later goes to its place, once.
    table.setParticipants(second!, [participant('ada@example.com')]);
    expect(withAda('ada@example.com')).toEqual([third!.id, second!.id, first!.id]);
    expect(ids(table.participantPage('ada@example.com', table.positionOf(second!), 100).items)).toEqual([first!.id]);
    table.setParticipants(first!, [participant('carol@example.com')]);
    table.setParticipantEmail(third!, third!.participants[1]!, 'ada@elsewhere.example');
    expect(withAda('ada@example.com')).toEqual([second!.id]);
    expect(withAda('ada@elsewhere.example')).toEqual([third!.id]);
    table.delete(second!);
    expect(withAda('ada@example.com')).toEqual([]);
    expect(withAda('carol@example.com')).toEqual([first!.id]);
  });
});
