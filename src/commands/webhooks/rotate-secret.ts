import { defineCommand } from '../../cli/command.js';
import { printNewSecretOnce } from '../../output/secret.js';
import { pickId, webhookPick } from '../pick.js';
import { storeWebhookSecret } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ webhookId?: string }>({
  name: 'rotate-secret',
  description: "Replace an endpoint's signing secret (used from the next delivery attempt on); prints it once and stores it",
  arguments: [{ name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false }],
  examples: ['esign webhooks rotate-secret 8c2d…'],
  async handler(args, ctx) {
    const webhookId = await pickId(ctx, args.webhookId, webhookPick);
    const { body } = await (await ctx.client()).call<{ secret?: string }>('rotateWebhookSecret', { params: { webhookId }, body: {} });
    ctx.output.success(visible(`Signing secret of ${webhookId} replaced; receivers must use the new one from the next attempt on.`));
    const secret = body?.secret;
    if (!secret) {
      ctx.output.result({ webhookId, rotated: true }, () => undefined);
      return;
    }
    const { stored, failure } = await storeWebhookSecret(ctx, webhookId, secret);
    printNewSecretOnce(ctx.output, secret, { webhookId, secret }, () => `Secret: ${secret}`, stored);
    if (failure) throw failure;
  },
});
