import { defineCommand } from '../../cli/command.js';
import { deliveryArguments, pickDelivery } from '../pick.js';
import { renderDelivery, type DeliveryBody } from './view.js';

export default defineCommand<{ webhookId?: string; deliveryId?: string }>({
  name: 'delivery',
  description: 'Show one delivery: the request body, each attempt and the answers received',
  arguments: deliveryArguments,
  examples: ['esign webhooks delivery 8c2d… 51aa…', 'esign webhooks delivery 8c2d…   # on a terminal: pick the delivery'],
  async handler(args, ctx) {
    const params = await pickDelivery(ctx, args);
    const { body } = await (await ctx.client()).call<DeliveryBody>('getWebhookDelivery', { params });
    ctx.output.result(body, () => renderDelivery(body));
  },
});
