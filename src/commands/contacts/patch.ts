import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { contactPick, pickId } from '../pick.js';
import { contactFieldOptions, contactFields, renderContact, type ContactBody, type ContactFlags } from './view.js';
import { visible } from '../../output/sanitize.js';

interface PatchArgs extends ContactFlags {
  contactId?: string;
  clearPhone?: boolean;
  clearCompany?: boolean;
}

export default defineCommand<PatchArgs>({
  name: 'patch',
  description: 'Change some fields of a contact, leaving the others as they are',
  arguments: [{ name: 'contactId', description: 'contact id (picked on a terminal when left out)', required: false }],
  options: [
    ...contactFieldOptions,
    { flags: '--clear-phone', description: 'remove the phone number', conflicts: ['--phone'] },
    { flags: '--clear-company', description: 'remove the company', conflicts: ['--company'] },
  ],
  examples: ['esign contacts patch 5d1e… --company "Acme SA"', 'esign contacts patch 5d1e… --clear-phone'],
  async handler(args, ctx) {
    const body: Record<string, string | null> = contactFields(args);
    if (args.clearPhone) body.phoneNumber = null;
    if (args.clearCompany) body.company = null;
    if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', 'Pass --name, --email, --phone, --company, --clear-phone or --clear-company.');
    const contactId = await pickId(ctx, args.contactId, contactPick);
    const { body: contact } = await (await ctx.client()).call<ContactBody>('patchContact', { params: { contactId }, body });
    ctx.output.success(visible(`Contact ${contactId} changed (${Object.keys(body).join(', ')}).`));
    ctx.output.result(contact, () => renderContact(contact));
  },
});
