import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { useEmulator } from '../support/emulator.js';

const emulator = useEmulator();

describe('team and invites', () => {
  it('lists the groups of the team with their members', async () => {
    const groups = expectStatus(await call(emulator, 'GET', '/v4/api/team/groups'), 200).body;
    expect(groups).toEqual({ data: [expect.objectContaining({ name: 'Legal', memberCount: 2 })], nextCursor: null });
    expect(groups.data[0].memberIds).toHaveLength(2);
  });

  it('lists the members, the responsible user among them as OWNER; limit and cursor page through them', async () => {
    const me = expectStatus(await call(emulator, 'GET', '/v4/api/me'), 200).body;
    const first = expectStatus(await call(emulator, 'GET', '/v4/api/team/members/?limit=1'), 200).body;
    expect(first.data).toHaveLength(1);
    const second = expectStatus(await call(emulator, 'GET', `/v4/api/team/members/?limit=1&cursor=${first.nextCursor}`), 200).body;
    expect(second.nextCursor).toBeNull();
    const members = [...first.data, ...second.data];
    expect(members).toContainEqual(expect.objectContaining({ id: me.responsibleUser.id, email: me.responsibleUser.email, role: 'OWNER' }));
    expect(members).toContainEqual(expect.objectContaining({ email: 'sam@example.test', role: 'MEMBER' }));
  });

  it('filters members by groupId; an unknown group is 404 RESOURCE_NOT_FOUND', async () => {
    const group = expectStatus(await call(emulator, 'GET', '/v4/api/team/groups'), 200).body.data[0];
    const members = expectStatus(await call(emulator, 'GET', `/v4/api/team/members/?groupId=${group.id}`), 200).body;
    expect(members.data.map((member: { id: string }) => member.id).sort()).toEqual([...group.memberIds].sort());
    const unknown = await call(emulator, 'GET', '/v4/api/team/members/?groupId=nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('lists pending invites', async () => {
    const invites = expectStatus(await call(emulator, 'GET', '/v4/api/invites/'), 200).body;
    expect(invites.data).toEqual([expect.objectContaining({ email: 'new.hire@example.test', status: 'PENDING', role: 'MEMBER' })]);
  });

  it('refuses a limit outside 1-100 with 400 VALIDATION_ERROR', async () => {
    const answer = await call(emulator, 'GET', '/v4/api/invites/?limit=0');
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
  });
});
