import { OutcomeError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { visible } from '../../output/sanitize.js';
import { deliveryArguments, pickDelivery } from '../pick.js';
import { renderDelivery, type DeliveryBody } from './view.js';

export default defineCommand<{ webhookId?: string; deliveryId?: string }>({
  name: 'resend',
  description: 'Deliver an event again, with the same webhook-id so the receiver can tell it is a repeat; exit 6 if the receiver does not accept it',
  arguments: deliveryArguments,
  examples: ['esign webhooks resend 8c2d… 51aa…', 'esign webhooks resend   # on a terminal: pick the endpoint, then the delivery'],
  async handler(args, ctx) {
    const params = await pickDelivery(ctx, args);
    const { body } = await (await ctx.client()).call<DeliveryBody>('resendWebhookDelivery', { params, body: {} });
    const last = body?.attempts?.at(-1);
    // The attempt is made before the answer (docs/emulator.md), so its status says whether the receiver took it.
    const answered = last ? visible(String(last.status ?? last.error ?? 'nothing')) : undefined;
    const accepted = typeof last?.status === 'number' && last.status >= 200 && last.status < 300;
    if (!last || accepted) ctx.output.success(`Delivery ${params.deliveryId} sent again${answered ? `: answered ${answered}` : ''}.`);
    ctx.output.result(body, () => (body ? renderDelivery(body) : undefined));
    if (last && !accepted) {
      throw new OutcomeError(
        `Delivery ${params.deliveryId} was sent again, but the receiver did not accept it: ${last.status === null || last.status === undefined ? `no answer (${visible(last.error ?? 'unknown')})` : `it answered ${last.status}`}; the delivery is ${visible(body.status ?? 'in an unknown state')}.`,
        'WEBHOOK_DELIVERY_FAILED',
        { webhookId: params.webhookId, deliveryId: params.deliveryId, status: body.status ?? null, attempt: last },
        `Fix the receiver at the endpoint's URL, then \`esign webhooks resend ${params.webhookId} ${params.deliveryId}\` again.`,
      );
    }
  },
});
