import { defineCommand } from '../../cli/command.js';
import { contactPick, pickId } from '../pick.js';
import { contactFieldOptions, renderContact, wholeContact, type ContactBody, type ContactFlags } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<ContactFlags & { contactId?: string }>({
  name: 'update',
  description: 'Replace a contact: fields left out (--phone, --company) are cleared; `patch` changes only what is given',
  arguments: [{ name: 'contactId', description: 'contact id (picked on a terminal when left out)', required: false }],
  options: contactFieldOptions,
  examples: ['esign contacts update 5d1e… --name "Ada King" --email ada@example.com'],
  async handler(args, ctx) {
    const body = wholeContact(args);
    const contactId = await pickId(ctx, args.contactId, contactPick);
    const { body: contact } = await (await ctx.client()).call<ContactBody>('updateContact', { params: { contactId }, body });
    ctx.output.success(visible(`Contact ${contactId} replaced.`));
    ctx.output.result(contact, () => renderContact(contact));
  },
});
