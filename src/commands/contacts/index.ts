import { defineGroup } from '../../cli/command.js';
import create from './create.js';
import remove from './delete.js';
import envelopes from './envelopes.js';
import get from './get.js';
import listGet from './list-get.js';
import list from './list.js';
import lists from './lists.js';
import patch from './patch.js';
import update from './update.js';

export default defineGroup({
  name: 'contacts',
  aliases: ['contact'],
  description: "Manage contacts, see a contact's envelopes, read contact lists",
  commands: [create, list, get, update, patch, remove, envelopes, lists, listGet],
});
