import { describe, expect, it } from 'vitest';
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
    expect(expandPath(op.path, { envelopeId: '../me?x=1' })).toBe('/v4/api/envelopes/..%2Fme%3Fx%3D1');
    expect(() => expandPath(op.path, {})).toThrow(/envelopeId/);
  });
});
