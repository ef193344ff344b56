import { envelopeColumns, type EnvelopeBody } from '../../output/envelope-view.js';
import { defineListCommand } from '../list-command.js';
import { contactPick, pickId } from '../pick.js';

export default defineListCommand<{ contactId?: string }, EnvelopeBody>({
  name: 'envelopes',
  description: 'List the envelopes a contact takes part in, newest first',
  operationId: 'listContactEnvelopes',
  arguments: [{ name: 'contactId', description: 'contact id (picked on a terminal when left out)', required: false }],
  examples: ['esign contacts envelopes 5d1e…', 'esign contacts envelopes 5d1e… --all --json'],
  noun: 'envelopes',
  columns: (ctx) => envelopeColumns(ctx.output.style, Date.now()),
  source: async (args, ctx) => ({ params: { contactId: await pickId(ctx, args.contactId, contactPick) } }),
});
