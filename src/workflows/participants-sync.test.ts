import { describe, expect, it } from 'vitest';
import type { ParticipantInput } from '../input/participants.js';
import { keepExistingIds } from './participants-sync.js';

const person = (name: string, email: string, role: 'SIGNER' | 'APPROVER' = 'SIGNER'): ParticipantInput => ({ name, email, deliveryMethod: 'EMAIL', role });

describe('keepExistingIds', () => {
  const existing = [
    { id: 'p-ada', name: 'Ada', email: 'ada@example.test', role: 'SIGNER' },
    { id: 'p-bob', name: 'Bob', email: 'bob@example.test', role: 'SIGNER' },
  ];

  it('gives an entry the id of the participant with the same e-mail, in any case, and removes nobody', () => {
    const sync = keepExistingIds([person('Ada King', 'ADA@Example.test'), person('Bob', 'bob@example.test')], existing);
    expect(sync.participants.map((participant) => participant.id)).toEqual(['p-ada', 'p-bob']);
    expect(sync.participants[0]!.name).toBe('Ada King');
    expect(sync.removed).toEqual([]);
  });

  it('a new address is a new participant, and whoever is left out is removed', () => {
    const sync = keepExistingIds([person('Ada', 'ada@new.example.test'), person('Bob', 'bob@example.test')], existing);
    expect(sync.participants.map((participant) => participant.id)).toEqual([undefined, 'p-bob']);
    expect(sync.removed.map((participant) => participant.id)).toEqual(['p-ada']);
  });

  it('an id given in the file is kept and not matched again; one address twice matches by role, each id once', () => {
    const twice = [
      { id: 'p-1', email: 'pat@example.test', role: 'APPROVER' },
      { id: 'p-2', email: 'pat@example.test', role: 'SIGNER' },
    ];
    const sync = keepExistingIds([person('Pat', 'pat@example.test'), person('Pat', 'pat@example.test', 'APPROVER'), person('Pat', 'pat@example.test')], twice);
    expect(sync.participants.map((participant) => participant.id)).toEqual(['p-2', 'p-1', undefined]);
    const explicit = keepExistingIds([{ ...person('Ada', 'bob@example.test'), id: 'p-bob' }, person('Bob', 'bob@example.test')], existing);
    expect(explicit.participants.map((participant) => participant.id)).toEqual(['p-bob', undefined]);
    expect(explicit.removed.map((participant) => participant.id)).toEqual(['p-ada']);
  });
});
