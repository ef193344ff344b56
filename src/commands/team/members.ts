import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';

interface MemberBody {
  id: string;
  name?: string;
  email?: string;
  role?: string;
  permissions?: string[];
}

export default defineListCommand<{ group?: string }, MemberBody>({
  name: 'members',
  description: 'List the team members (of one group with --group)',
  operationId: 'listMembers',
  options: [{ flags: '--group <groupId>', description: 'only the members of this group' }],
  examples: ['esign team members', 'esign team members --group 7e1a…'],
  noun: 'members',
  columns: [
    { header: 'ID', value: (member) => member.id },
    { header: 'NAME', value: (member) => cell(member.name) },
    { header: 'EMAIL', value: (member) => cell(member.email) },
    { header: 'ROLE', value: (member) => cell(member.role) },
  ],
  source: (args) => ({ query: { groupId: args.group } }),
});
