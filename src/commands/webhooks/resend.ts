import { defineCommand } from '../../cli/command.js';
import { renderDelivery, type DeliveryBody } from './view.js';

export default defineCommand<{ webhookId: string; deliveryId: string }>({
  name: 'resend',
  description: 'Deliver an event again, with the same webhook-id so the receiver can tell it is a repeat',
  arguments: [
    { name: 'webhookId', description: 'webhook endpoint id' },
    { name: 'deliveryId', description: 'delivery id (from `webhooks deliveries`)' },
  ],
  examples: ['esign webhooks resend 8c2d… 51aa…'],
  async handler(args, ctx) {
    const { body } = await (await ctx.client()).call<DeliveryBody>('resendWebhookDelivery', { params: { webhookId: args.webhookId, deliveryId: args.deliveryId }, body: {} });
    const last = body?.attempts?.at(-1);
    ctx.output.success(`Delivery ${args.deliveryId} sent again${last ? `: answered ${last.status ?? last.error ?? 'nothing'}` : ''}.`);
    ctx.output.result(body, () => (body ? renderDelivery(body) : undefined));
  },
});
