import { defineGroup } from '../../cli/command.js';
import list from './list.js';

export default defineGroup({
  name: 'invites',
  aliases: ['invite'],
  description: 'List the pending invitations to the team',
  commands: [list],
});
