import { defineCommand } from '../../cli/command.js';
import { renderTable } from '../../output/table.js';
import { contactListPick, pickId } from '../pick.js';
import { contactColumns, type ContactBody } from './view.js';

interface ContactListBody {
  id?: string;
  name?: string;
  contacts?: ContactBody[];
}

export default defineCommand<{ listId?: string }>({
  name: 'list-get',
  description: 'Show a contact list with its contacts',
  arguments: [{ name: 'listId', description: 'contact list id (picked on a terminal when left out)', required: false }],
  examples: ['esign contacts list-get 9a0c…'],
  async handler(args, ctx) {
    const listId = await pickId(ctx, args.listId, contactListPick);
    const { body } = await (await ctx.client()).call<ContactListBody>('getContactList', { params: { listId } });
    const contacts = body.contacts ?? [];
    ctx.output.result(body, () => `${ctx.output.style.bold(body.name ?? '?')} · ${body.id ?? listId} · ${contacts.length} contact(s)\n${contacts.length ? renderTable(contacts, contactColumns, ctx.output.style) : 'No contacts.'}`);
  },
});
