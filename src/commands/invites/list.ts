import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';

interface InviteBody {
  id: string;
  email?: string;
  role?: string;
  status?: string;
  createdAt?: string;
}

export default defineListCommand<Record<string, never>, InviteBody>({
  name: 'list',
  aliases: ['ls'],
  description: 'List the invitations to join the team',
  operationId: 'listInvites',
  examples: ['esign invites list'],
  noun: 'invites',
  columns: [
    { header: 'ID', value: (invite) => invite.id },
    { header: 'EMAIL', value: (invite) => cell(invite.email) },
    { header: 'ROLE', value: (invite) => cell(invite.role) },
    { header: 'STATUS', value: (invite) => cell(invite.status) },
    { header: 'SENT', value: (invite) => cell(invite.createdAt) },
  ],
});
