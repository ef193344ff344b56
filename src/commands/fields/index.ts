import { defineGroup } from '../../cli/command.js';
import check from './check.js';
import list from './list.js';
import preview from './preview.js';
import put from './put.js';

export default defineGroup({
  name: 'fields',
  aliases: ['field'],
  description: 'Place fields on a document (by position or anchor text), list them, check and preview them offline',
  commands: [put, list, check, preview],
});
