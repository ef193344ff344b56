import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { expandPath, getOperation, operations, pathParams } from './operations.js';

describe('operation table', () => {
  it('names every operation of the contract and pins.md once', () => {
    const ids = operations.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(65);
    const routes = operations.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
  it('keeps the trailing slash on collection routes (contract: /envelopes/, /folders/, /members/, /invites/, /webhooks/)', () => {
    for (const id of ['createEnvelope', 'listFolders', 'listMembers', 'listInvites', 'createWebhook']) expect(getOperation(id).path.endsWith('/')).toBe(true);
  });
  it('marks the POSTs that require an Idempotency-Key', () => {
    const idempotent = operations.filter((op) => op.idempotent).map((op) => op.id).sort();
    expect(idempotent).toEqual(['createEnvelope', 'createEnvelopeFromTemplate', 'createWebhook', 'sendEnvelope', 'sendNow']);
  });
  it('percent-encodes path parameters so an id cannot change the path', () => {
    const op = getOperation('getEnvelope');
    expect(pathParams(op.path)).toEqual(['envelopeId']);
    expect(expandPath(op.path, { envelopeId: 'env 1:a+b' })).toBe('/v4/api/envelopes/env%201%3Aa%2Bb');
  });
  it('refuses, naming the parameter, an id that is empty, a dot segment, or holds a separator, query, fragment, encoded character or control', () => {
    const op = getOperation('getEnvelope');
    for (const envelopeId of ['', '.', '..', 'a/b', '../me', 'a\\b', 'a?x=1', 'a#b', 'a%2Fb', '%2e%2E', 'a\u0000b', 'a\nb', 'a\u001b[2J', 'a\u0085b']) {
      expect(() => expandPath(op.path, { envelopeId }), JSON.stringify(envelopeId)).toThrow(UsageError);
      expect(() => expandPath(op.path, { envelopeId }), JSON.stringify(envelopeId)).toThrow(/^Invalid envelopeId /);
    }
    expect(() => expandPath(op.path, {})).toThrow(/envelopeId/);
    expect(() => expandPath(op.path, Object.create({ envelopeId: 'inherited' }) as Record<string, string>)).toThrow(/envelopeId/);
  });
});
