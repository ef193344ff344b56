import type { RouteTable } from '../context.js';
import { fail } from '../errors.js';
import { paginate } from '../pagination.js';

/** Team and invites are read-only: the seed (src/emulator/seed.ts) is all there is. */
export const routes: RouteTable = {
  listGroups: ({ store, query }) => {
    const page = paginate(Object.values(store.state.groups), query);
    return { status: 200, body: { data: page.data.map((group) => ({ ...group, memberCount: group.memberIds.length })), nextCursor: page.nextCursor } };
  },

  listMembers: ({ store, query }) => {
    const { groupId } = query;
    if (groupId !== undefined && !store.state.groups[groupId]) throw fail.notFound('Group', groupId);
    const members = Object.values(store.state.members).filter((member) => groupId === undefined || member.groupIds.includes(groupId));
    return { status: 200, body: paginate(members, query) };
  },

  listInvites: ({ store, query }) => ({ status: 200, body: paginate(Object.values(store.state.invites), query) }),
};
