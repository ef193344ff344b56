import { defineCommand } from '../../cli/command.js';
import { confirmIrreversible } from '../confirm-action.js';
import { pickId, webhookPick } from '../pick.js';
import { findWebhook } from './find.js';
import { forgetWebhookSecret, renderWebhook } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ webhookId?: string }>({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete a webhook endpoint and its deliveries (asks for confirmation; --yes without a terminal)',
  arguments: [{ name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false }],
  examples: ['esign webhooks delete 8c2d…', 'esign webhooks delete 8c2d… --yes'],
  async handler(args, ctx) {
    const webhookId = await pickId(ctx, args.webhookId, webhookPick);
    const client = await ctx.client();
    await confirmIrreversible(ctx, { action: 'delete', noun: 'webhook endpoint', id: webhookId, summary: async () => renderWebhook(await findWebhook(client, webhookId)) });
    await client.call('deleteWebhook', { params: { webhookId } });
    await forgetWebhookSecret(webhookId);
    ctx.output.success(visible(`Webhook endpoint ${webhookId} deleted, with its stored signing secret.`));
    ctx.output.result({ webhookId, deleted: true }, () => undefined);
  },
});
