import { describe, expect, it } from 'vitest';
import { identityOf } from './identity.js';

describe('identityOf: what --quiet prints', () => {
  it("answers a record's id, whichever name the service gives it (pins.md: `id` or `<resource>Id`)", () => {
    expect(identityOf({ id: 'e1', folderId: 'f1', title: 'NDA' })).toEqual(['e1']);
    expect(identityOf({ envelopeId: 'e1', folderId: 'f1' })).toEqual(['e1']);
    expect(identityOf({ envelopeId: 'e1', participantId: 'p1', status: 'APPROVED' })).toEqual(['p1']);
    expect(identityOf({ contactId: 'c1', deleted: true })).toEqual(['c1']);
  });

  it('answers one id per item of a list, a bare array or a page', () => {
    expect(identityOf([{ id: 'a' }, { id: 'b' }])).toEqual(['a', 'b']);
    expect(identityOf({ data: [{ id: 'a' }, { documentId: 'd' }, { title: 'no id' }], nextCursor: 'x' })).toEqual(['a', 'd']);
  });

  it('answers nothing for a result without an identity', () => {
    expect(identityOf({ valid: true })).toEqual([]);
    expect(identityOf(undefined)).toEqual([]);
    expect(identityOf('text')).toEqual([]);
    expect(identityOf({ id: '' })).toEqual([]);
  });
});
