import { defineCommand } from '../../cli/command.js';
import { renderRecord } from '../../output/record.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';

export default defineCommand<{ envelopeId: string }>({
  name: 'envelope',
  description: "Show an envelope's report: timestamps, participants' progress, documents, history and messages counted",
  arguments: [envelopeIdArgument],
  examples: ['esign reports envelope 3f6c…', 'esign reports envelope 3f6c… --json | jq .timestamps'],
  async handler(args, ctx) {
    const { body } = await (await ctx.client()).call<Record<string, unknown>>('getEnvelopeReport', { params: { envelopeId: args.envelopeId } });
    ctx.output.result(body, () => renderRecord(body ?? {}));
  },
});
