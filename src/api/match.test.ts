import { describe, expect, it } from 'vitest';
import { matchOperation } from './match.js';

describe('matchOperation', () => {
  it('finds the operation and its path parameters', () => {
    expect(matchOperation('get', '/v4/api/envelopes/abc-123/history')).toEqual({
      operation: expect.objectContaining({ id: 'getEnvelopeHistory' }),
      params: { envelopeId: 'abc-123' },
    });
    expect(matchOperation('POST', '/v4/api/webhooks/w1/deliveries/d1/resend')?.params).toEqual({ webhookId: 'w1', deliveryId: 'd1' });
  });

  it('takes a collection with or without its trailing slash (contract: collection routes end with /)', () => {
    expect(matchOperation('GET', '/v4/api/folders')?.operation.id).toBe('listFolders');
    expect(matchOperation('GET', '/v4/api/folders/')?.operation.id).toBe('listFolders');
  });

  it('prefers a literal segment over a parameter', () => {
    expect(matchOperation('POST', '/v4/api/envelopes/send-now')?.operation.id).toBe('sendNow');
  });

  it('answers nothing for a path or method the table does not have', () => {
    expect(matchOperation('GET', '/v4/api/nope')).toBeUndefined();
    expect(matchOperation('DELETE', '/v4/api/me')).toBeUndefined();
    expect(matchOperation('GET', '/v4/api/envelopes/a/b/c/d')).toBeUndefined();
  });
});
