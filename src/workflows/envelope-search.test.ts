import { describe, expect, it } from 'vitest';
import { envelopeMatches, envelopeMentions } from './envelope-search.js';

const envelope = { id: '3f6c1a2b-0000-4000-8000-000000000001', title: 'NDA Acme', status: 'SENT', createdAt: '2026-03-01T10:00:00Z', folder: { id: 'f1', name: 'Sales' } };
const participants = [{ name: 'Ada Lovelace', email: 'ada@example.com' }];

describe('envelope search criteria', () => {
  it('keeps an envelope that meets every criterion given', () => {
    expect(envelopeMatches(envelope, participants, { title: 'acme', participant: 'ADA@', status: 'SENT', folderId: 'f1' })).toBe(true);
    expect(envelopeMatches(envelope, participants, { createdAfter: Date.parse('2026-03-01'), createdBefore: Date.parse('2026-03-02') })).toBe(true);
  });

  it('drops it when any one fails', () => {
    expect(envelopeMatches(envelope, participants, { title: 'globex' })).toBe(false);
    expect(envelopeMatches(envelope, participants, { participant: 'alan' })).toBe(false);
    expect(envelopeMatches(envelope, participants, { createdAfter: Date.parse('2026-03-02') })).toBe(false);
    expect(envelopeMatches(envelope, participants, { createdBefore: Date.parse('2026-03-01T10:00:00Z') })).toBe(false);
    expect(envelopeMatches(envelope, participants, { folderId: 'f2' })).toBe(false);
  });

  it('find looks in the title, the participants and the id', () => {
    expect(envelopeMentions(envelope, participants, 'nda')).toBe(true);
    expect(envelopeMentions(envelope, participants, 'lovelace')).toBe(true);
    expect(envelopeMentions(envelope, participants, '3f6c1a2b')).toBe(true);
    expect(envelopeMentions(envelope, participants, 'turing')).toBe(false);
  });
});
