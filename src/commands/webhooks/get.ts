import { defineCommand } from '../../cli/command.js';
import { pickId, webhookPick } from '../pick.js';
import { findWebhook } from './find.js';
import { renderWebhook } from './view.js';

export default defineCommand<{ webhookId?: string }>({
  name: 'get',
  aliases: ['show'],
  description: 'Show a webhook endpoint (found in the list: the API has no single read)',
  arguments: [{ name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false }],
  examples: ['esign webhooks get 8c2d…'],
  async handler(args, ctx) {
    const webhookId = await pickId(ctx, args.webhookId, webhookPick);
    const webhook = await findWebhook(await ctx.client(), webhookId);
    ctx.output.result(webhook, () => renderWebhook(webhook));
  },
});
