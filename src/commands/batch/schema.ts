import { defineCommand } from '../../cli/command.js';

export default defineCommand<Record<string, never>>({
  name: 'schema',
  description: 'Print the JSON Schema of batch files and envelope specs (for editors: yaml-language-server)',
  examples: ['esign batch schema > esign-batch.schema.json'],
  async handler(_args, ctx) {
    const { batchJsonSchema } = await import('../../batch/check.js');
    ctx.output.data(JSON.stringify(await batchJsonSchema(), null, 2));
  },
});
