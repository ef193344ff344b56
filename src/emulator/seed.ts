import { emptyState, newId, nowIso, type State } from './store.js';

/** The account a fresh emulator starts with: a responsible user, two folders, a team, a contact in a contact list. Templates are added by the template module. */
export function seedState(): State {
  const state = emptyState();
  const createdAt = nowIso();
  for (const name of ['Sales', 'HR']) {
    const id = newId();
    state.folders[id] = { id, name, parentId: null, createdAt };
  }
  const owner = { id: state.responsibleUser.id, name: state.responsibleUser.name, email: state.responsibleUser.email, role: 'OWNER', groupIds: [] as string[], permissions: ['API_CREDENTIALS_MANAGE'] };
  const member = { id: newId(), name: 'Sam Member', email: 'sam@example.test', role: 'MEMBER', groupIds: [] as string[], permissions: [] };
  const groupId = newId();
  owner.groupIds.push(groupId);
  member.groupIds.push(groupId);
  state.members[owner.id] = owner;
  state.members[member.id] = member;
  state.groups[groupId] = { id: groupId, name: 'Legal', memberIds: [owner.id, member.id] };
  const contactId = newId();
  state.contacts[contactId] = { id: contactId, name: 'Casey Customer', email: 'casey@example.test', company: 'Customer Ltd', createdAt, updatedAt: createdAt };
  const listId = newId();
  state.contactLists[listId] = { id: listId, name: 'Customers', contactIds: [contactId], createdAt };
  const inviteId = newId();
  state.invites[inviteId] = { id: inviteId, email: 'new.hire@example.test', role: 'MEMBER', status: 'PENDING', createdAt };
  return state;
}
