import { defineGroup } from '../../cli/command.js';
import add from './add.js';
import list from './list.js';
import prune from './prune.js';
import remove from './remove.js';
import set from './set.js';
import show from './show.js';
import use from './use.js';

export default defineGroup({
  name: 'profiles',
  aliases: ['profile'],
  description: 'Manage profiles: named pairs of test and live keys with their base URLs',
  commands: [add, list, show, use, set, remove, prune],
});
