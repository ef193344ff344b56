import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isValidIdempotencyKey } from '../api/idempotency.js';
import { OpenedFile } from '../files/opened-file.js';
import type { EnvelopeSpec } from './envelope-spec.js';
import { canonicalJson, envelopeSpecIdempotencyKey } from './spec-key.js';

const dir = mkdtempSync(join(tmpdir(), 'esign-spec-key-'));
const pdf = join(dir, 'nda.pdf');
writeFileSync(pdf, '%PDF-1.7 first version');

const spec: EnvelopeSpec = {
  title: 'NDA',
  participants: [{ ref: 'alice', name: 'Alice', email: 'alice@example.com', deliveryMethod: 'EMAIL', role: 'SIGNER' }],
  documents: [{ ref: 'nda', file: 'nda.pdf' }],
  fields: [],
};
const files = [{ ref: 'nda', fileName: 'nda.pdf', contentType: 'application/pdf', file: await OpenedFile.open(pdf) }];

describe('canonicalJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });
});

describe('envelopeSpecIdempotencyKey', () => {
  it('is the same for the same spec and files, whatever the key order, and a valid Idempotency-Key', async () => {
    const key = await envelopeSpecIdempotencyKey({ spec, files });
    const reordered = { fields: [], documents: spec.documents, participants: spec.participants, title: 'NDA' } as EnvelopeSpec;
    expect(await envelopeSpecIdempotencyKey({ spec: reordered, files })).toBe(key);
    expect(isValidIdempotencyKey(key)).toBe(true);
  });

  it('changes when a line of the spec or a byte of a file changes', async () => {
    const key = await envelopeSpecIdempotencyKey({ spec, files });
    expect(await envelopeSpecIdempotencyKey({ spec: { ...spec, title: 'NDA 2' }, files })).not.toBe(key);
    const other = join(dir, 'other.pdf');
    writeFileSync(other, '%PDF-1.7 second version');
    expect(await envelopeSpecIdempotencyKey({ spec, files: [{ ...files[0]!, file: await OpenedFile.open(other) }] })).not.toBe(key);
  });
});

describe('envelopeSpecIdempotencyKey with a run id', () => {
  it('is the same for the same run id, another for another run id, and without one the key of before run ids', async () => {
    const withoutRunId = await envelopeSpecIdempotencyKey({ spec, files });
    const first = await envelopeSpecIdempotencyKey({ spec, files }, '1234');
    expect(await envelopeSpecIdempotencyKey({ spec, files }, '1234')).toBe(first);
    expect(await envelopeSpecIdempotencyKey({ spec, files }, '1235')).not.toBe(first);
    expect(first).not.toBe(withoutRunId);
    // Without a run id, the key a spec got before run ids existed: a re-run still finds the envelope it created.
    const { uuidV5 } = await import('../shared/uuid.js');
    const sha256 = (await import('node:crypto')).createHash('sha256').update('%PDF-1.7 first version').digest('hex');
    const before = uuidV5(canonicalJson({ spec, files: [{ ref: 'nda', fileName: 'nda.pdf', contentType: 'application/pdf', sha256 }] }), 'c3a4f1de-5b57-4c1e-9d4f-0f5e2c8a7b61');
    expect(withoutRunId).toBe(before);
  });
});
