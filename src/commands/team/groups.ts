import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';

interface GroupBody {
  id: string;
  name?: string;
  memberCount?: number;
}

export default defineListCommand<Record<string, never>, GroupBody>({
  name: 'groups',
  description: 'List the team groups',
  operationId: 'listGroups',
  examples: ['esign team groups'],
  noun: 'groups',
  columns: [
    { header: 'ID', value: (group) => group.id },
    { header: 'NAME', value: (group) => cell(group.name) },
    { header: 'MEMBERS', value: (group) => cell(group.memberCount) },
  ],
});
