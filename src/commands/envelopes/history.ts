import { defineCommand } from '../../cli/command.js';
import { renderHistory, type HistoryEntryBody } from '../../output/envelope-view.js';

export default defineCommand<{ envelopeId: string }>({
  name: 'history',
  description: "Show an envelope's history: who did what, when (API actions name the integration)",
  arguments: [{ name: 'envelopeId', description: 'envelope id' }],
  examples: ['esign envelopes history 3f6c…', 'esign env history 3f6c… --json'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const entries: HistoryEntryBody[] = [];
    for await (const entry of client.paginate<HistoryEntryBody>('getEnvelopeHistory', { params: { envelopeId: args.envelopeId }, query: { limit: 100 } })) {
      entries.push(entry);
    }
    ctx.output.result({ data: entries }, () => renderHistory(entries, ctx.output.style));
  },
});
