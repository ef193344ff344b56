import { defineCommand } from '../../cli/command.js';
import { contactFieldOptions, renderContact, wholeContact, type ContactBody, type ContactFlags } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<ContactFlags>({
  name: 'create',
  description: 'Create a contact (409 CONTACT_EMAIL_EXISTS if one has that e-mail)',
  options: contactFieldOptions,
  examples: ['esign contacts create --name "Ada Lovelace" --email ada@example.com --company "Analytical Ltd"'],
  async handler(args, ctx) {
    const body = wholeContact(args);
    const { body: contact } = await (await ctx.client()).call<ContactBody>('createContact', { body });
    ctx.output.success(visible(`Contact ${contact.id} created.`));
    ctx.output.result(contact, () => renderContact(contact));
  },
});
