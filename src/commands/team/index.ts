import { defineGroup } from '../../cli/command.js';
import groups from './groups.js';
import members from './members.js';

export default defineGroup({
  name: 'team',
  description: 'List the team: groups and members',
  commands: [groups, members],
});
