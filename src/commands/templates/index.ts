import { defineGroup } from '../../cli/command.js';
import get from './get.js';
import list from './list.js';
import use from './use.js';

export default defineGroup({
  name: 'templates',
  aliases: ['template'],
  description: 'List templates and create envelopes from them',
  commands: [list, get, use],
});
