import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { readEnvelopeSpec } from './envelope-spec.js';

describe('readEnvelopeSpec (envelopes send-now --file)', () => {
  it('refuses an API key written in the spec, at its place and without printing it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'esign-spec-')), 'spec.yaml');
    writeFileSync(file, 'title: ok\nparticipants:\n  - { ref: a, name: "A", email: a@example.test, phoneNumber: "zz_live_BBBBBBBBBBBBBBBB" }\n');
    const error = await readEnvelopeSpec(file, Readable.from([])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(`${file}:3:62: holds text shaped like an API key; an API key is never sent as envelope data (participants[0].phoneNumber)`);
  });
});
