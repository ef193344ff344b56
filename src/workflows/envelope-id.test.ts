import { describe, expect, it } from 'vitest';
import { everyCommand } from '../../test/support/commands.js';
import { envelopeIdDescription, isShortId } from './envelope-id.js';

describe('short envelope ids', () => {
  it('looks up 8 or more id characters that are not a whole id, as git resolves short hashes', () => {
    expect(isShortId('3f6c1a2b')).toBe(true);
    expect(isShortId('3f6c1a2b-9d')).toBe(true);
    expect(isShortId('3f6c1a2')).toBe(false);
    expect(isShortId('3f6c1a2b-9d4e-4f00-8a11-0123456789ab')).toBe(false);
    expect(isShortId('not-an-id')).toBe(false);
  });
});

describe('envelope-id arguments', () => {
  it('every one says in its help that a unique prefix is accepted (the hook resolves them all)', async () => {
    const described = (await everyCommand()).flatMap(({ path, spec }) =>
      (spec.arguments ?? []).filter((argument) => /^envelopeIds?$/.test(argument.name)).map((argument) => [path, argument.description.includes(envelopeIdDescription)] as const),
    );
    expect(described.length).toBeGreaterThan(20);
    expect(described.filter(([, says]) => !says)).toEqual([]);
  });
});
