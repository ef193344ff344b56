import { defineCommand } from '../../cli/command.js';
import { visible } from '../../output/sanitize.js';
import { deliveryArguments, pickDelivery } from '../pick.js';
import { renderDelivery, type DeliveryBody } from './view.js';

export default defineCommand<{ webhookId?: string; deliveryId?: string }>({
  name: 'resend',
  description: 'Deliver an event again, with the same webhook-id so the receiver can tell it is a repeat',
  arguments: deliveryArguments,
  examples: ['esign webhooks resend 8c2d… 51aa…', 'esign webhooks resend   # on a terminal: pick the endpoint, then the delivery'],
  async handler(args, ctx) {
    const params = await pickDelivery(ctx, args);
    const { body } = await (await ctx.client()).call<DeliveryBody>('resendWebhookDelivery', { params, body: {} });
    const last = body?.attempts?.at(-1);
    ctx.output.success(`Delivery ${params.deliveryId} sent again${last ? `: answered ${visible(String(last.status ?? last.error ?? 'nothing'))}` : ''}.`);
    ctx.output.result(body, () => (body ? renderDelivery(body) : undefined));
  },
});
