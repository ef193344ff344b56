import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { envelopeColumns, type EnvelopeBody } from '../../output/envelope-view.js';
import { ListWriter } from '../../output/list-output.js';
import { isShortId, resolveEnvelopeId, ShortIdNotFound } from '../../workflows/envelope-id.js';
import { envelopeMentions, participantsReader } from '../../workflows/envelope-search.js';
import { listFormat, listOptions, printList, type ListArgs } from '../list-command.js';

export default defineCommand<ListArgs & { text: string }>({
  name: 'find',
  aliases: ['search'],
  description: 'Find envelopes by title, participant name or e-mail, or id (a unique id prefix of 8+ characters names one)',
  arguments: [{ name: 'text', description: 'what to look for (any case)' }],
  options: listOptions,
  examples: ['esign envelopes find "NDA Acme"', 'esign env find ada@example.com --all', 'esign env find 3f6c1a2b'],
  async handler(args, ctx) {
    const text = args.text.trim();
    // Every envelope contains the empty text: an empty search is a mistake (an unset variable), not "list them all".
    if (!text) throw new UsageError('The search text is empty.', 'Give the text to look for, e.g. esign envelopes find "NDA Acme"; esign envelopes list --all lists every envelope.');
    const client = await ctx.client();
    const columns = envelopeColumns(ctx.output.style, Date.now());
    // An id prefix names one envelope, as git resolves a short hash; ambiguous is an error, none is a text search.
    if (isShortId(text)) {
      try {
        const envelopeId = await resolveEnvelopeId(client, text);
        const { body } = await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId } });
        const writer = new ListWriter<EnvelopeBody>(ctx.output, listFormat(ctx, args), columns, 'No envelopes.');
        await writer.add([body]);
        await writer.end();
        return;
      } catch (error) {
        if (!(error instanceof ShortIdNotFound)) throw error;
      }
    }
    const participantsOf = participantsReader(client);
    await printList<EnvelopeBody>(ctx, { operationId: 'listEnvelopes' }, args, {
      columns,
      noun: 'envelopes',
      filter: async (envelope) => envelopeMentions(envelope, await participantsOf(envelope), text),
    });
  },
});
