import { defineCommand } from '../../cli/command.js';
import { renderDelivery, type DeliveryBody } from './view.js';

export default defineCommand<{ webhookId: string; deliveryId: string }>({
  name: 'delivery',
  description: 'Show one delivery: the request body, each attempt and the answers received',
  arguments: [
    { name: 'webhookId', description: 'webhook endpoint id' },
    { name: 'deliveryId', description: 'delivery id (from `webhooks deliveries`)' },
  ],
  examples: ['esign webhooks delivery 8c2d… 51aa…'],
  async handler(args, ctx) {
    const { body } = await (await ctx.client()).call<DeliveryBody>('getWebhookDelivery', { params: { webhookId: args.webhookId, deliveryId: args.deliveryId } });
    ctx.output.result(body, () => renderDelivery(body));
  },
});
