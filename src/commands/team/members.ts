import { cell } from '../../output/record.js';
import { resolveGroup } from '../../workflows/team-group.js';
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
  options: [{ flags: '--group <groupId|name>', description: 'only the members of this group (its id or name)' }],
  examples: ['esign team members', 'esign team members --group Legal'],
  noun: 'members',
  columns: [
    { header: 'ID', value: (member) => member.id },
    { header: 'NAME', value: (member) => cell(member.name) },
    { header: 'EMAIL', value: (member) => cell(member.email) },
    { header: 'ROLE', value: (member) => cell(member.role) },
  ],
  source: async (args, ctx) => ({ query: { groupId: args.group === undefined ? undefined : await resolveGroup(await ctx.client(), args.group) } }),
});
