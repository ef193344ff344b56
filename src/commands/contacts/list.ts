import { defineListCommand } from '../list-command.js';
import { contactColumns, type ContactBody } from './view.js';
import { parseSearchText } from '../../input/search-text.js';

export default defineListCommand<{ search?: string }, ContactBody>({
  name: 'list',
  aliases: ['ls'],
  description: 'List contacts (one page; --all follows every page, streaming)',
  operationId: 'listContacts',
  options: [{ flags: '--search <text>', description: 'only contacts whose name, e-mail or company contains this', parse: parseSearchText }],
  examples: ['esign contacts list', 'esign contacts list --search acme', 'esign contacts list --all --jsonl > contacts.jsonl'],
  noun: 'contacts',
  columns: contactColumns,
  source: (args) => ({ query: { q: args.search } }),
});
