import { defineGroup } from '../../cli/command.js';
import access from './access.js';
import contents from './contents.js';
import create from './create.js';
import remove from './delete.js';
import list from './list.js';
import move from './move.js';
import rename from './rename.js';

export default defineGroup({
  name: 'folders',
  aliases: ['folder'],
  description: 'List, create, rename, move and delete folders; see their contents and access',
  commands: [list, create, contents, access, rename, move, remove],
});
