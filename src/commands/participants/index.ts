import { defineGroup } from '../../cli/command.js';
import approve from './approve.js';
import correct from './correct.js';
import list from './list.js';
import refuse from './refuse.js';
import remind from './remind.js';
import set from './set.js';

export default defineGroup({
  name: 'participants',
  aliases: ['part'],
  description: "Set, list and correct an envelope's participants; approve, refuse, remind",
  commands: [set, list, correct, approve, refuse, remind],
});
