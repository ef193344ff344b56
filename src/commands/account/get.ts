import { defineCommand } from '../../cli/command.js';
import { renderRecord } from '../../output/record.js';

export default defineCommand({
  name: 'get',
  aliases: ['show'],
  description: 'Show the account the key belongs to: plan limits and usage',
  examples: ['esign account get', 'esign account get --json | jq .limits'],
  async handler(_args, ctx) {
    const { body } = await (await ctx.client()).call<Record<string, unknown>>('getAccount');
    ctx.output.result(body, () => renderRecord(body ?? {}));
  },
});
