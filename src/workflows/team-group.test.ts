import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client.js';
import { resolveGroup } from './team-group.js';

const groups = [
  { id: '0f0e7a52-1c1d-4c39-9a53-5b1b1d5e7a01', name: 'Legal' },
  { id: '0f0e7a52-1c1d-4c39-9a53-5b1b1d5e7a02', name: 'legal' },
  { id: '0f0e7a52-1c1d-4c39-9a53-5b1b1d5e7a03', name: 'Sales' },
  { id: '0f0e7a52-1c1d-4c39-9a53-5b1b1d5e7a04', name: 'Sales' },
];
const client = {
  async *paginate() {
    yield* groups;
  },
} as unknown as ApiClient;

describe('resolveGroup', () => {
  it('takes an id in any case, then the exact name, then the name in another case', async () => {
    expect(await resolveGroup(client, groups[2]!.id.toUpperCase())).toBe(groups[2]!.id);
    expect(await resolveGroup(client, 'Legal')).toBe(groups[0]!.id);
    expect(await resolveGroup(client, 'legal')).toBe(groups[1]!.id);
  });

  it('refuses several groups of that name, and a name no group has (exit 2)', async () => {
    await expect(resolveGroup(client, 'Sales')).rejects.toMatchObject({ code: 'GROUP_AMBIGUOUS', exitCode: 2, message: expect.stringContaining(groups[3]!.id) });
    await expect(resolveGroup(client, 'LEGAL')).rejects.toMatchObject({ code: 'GROUP_AMBIGUOUS' });
    await expect(resolveGroup(client, 'Nope')).rejects.toMatchObject({ code: 'GROUP_NOT_FOUND', exitCode: 2 });
  });
});
