import { defineCommand } from '../../cli/command.js';
import { contactPick, pickId } from '../pick.js';
import { renderContact, type ContactBody } from './view.js';

export default defineCommand<{ contactId?: string }>({
  name: 'get',
  aliases: ['show'],
  description: 'Show a contact (asks which one on a terminal)',
  arguments: [{ name: 'contactId', description: 'contact id (picked on a terminal when left out)', required: false }],
  examples: ['esign contacts get 5d1e…'],
  async handler(args, ctx) {
    const contactId = await pickId(ctx, args.contactId, contactPick);
    const { body } = await (await ctx.client()).call<ContactBody>('getContact', { params: { contactId } });
    ctx.output.result(body, () => renderContact(body));
  },
});
