import { defineCommand } from '../../cli/command.js';
import { confirmIrreversible } from '../confirm-action.js';
import { contactPick, pickId } from '../pick.js';
import { renderContact, type ContactBody } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ contactId?: string }>({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete a contact, also from its contact lists (asks for confirmation; --yes without a terminal)',
  arguments: [{ name: 'contactId', description: 'contact id (picked on a terminal when left out)', required: false }],
  examples: ['esign contacts delete 5d1e…', 'esign contacts delete 5d1e… --yes'],
  async handler(args, ctx) {
    const contactId = await pickId(ctx, args.contactId, contactPick);
    const client = await ctx.client();
    await confirmIrreversible(ctx, {
      action: 'delete',
      noun: 'contact',
      id: contactId,
      summary: async () => renderContact((await client.call<ContactBody>('getContact', { params: { contactId } })).body),
    });
    await client.call('deleteContact', { params: { contactId } });
    ctx.output.success(visible(`Contact ${contactId} deleted.`));
    ctx.output.result({ contactId, deleted: true }, () => undefined);
  },
});
