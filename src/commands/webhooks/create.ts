import { UsageError } from '../../core/errors.js';
import { webhookEventTypes } from '../../shared/values.js';
import { defineCommand } from '../../cli/command.js';
import { printNewSecretOnce } from '../../output/secret.js';
import { checkEndpointUrl, parseEvents, renderWebhook, storeWebhookSecret, type WebhookBody } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ url?: string; events?: string[]; inactive?: boolean }>({
  name: 'create',
  description: 'Create a webhook endpoint; prints its signing secret once and stores it for `webhooks listen`',
  options: [
    { flags: '--url <url>', description: 'HTTPS address that receives the deliveries (http:// only to localhost)' },
    { flags: '--events <list>', description: 'comma-separated event kinds, e.g. ENVELOPE_COMPLETED,ENVELOPE_VOIDED', parse: parseEvents, completion: { words: webhookEventTypes, list: true } },
    { flags: '--inactive', description: 'create it switched off (no deliveries until `webhooks update --active`)' },
  ],
  examples: ['esign webhooks create --url https://hooks.example.com/esign --events ENVELOPE_COMPLETED,ENVELOPE_VOIDED'],
  async handler(args, ctx) {
    if (!args.url) throw new UsageError('--url is required.', 'Pass the HTTPS address that receives the deliveries.');
    if (!args.events) throw new UsageError('--events is required.', 'For example --events ENVELOPE_COMPLETED,ENVELOPE_VOIDED.');
    const body = { url: checkEndpointUrl(args.url, '--url'), events: args.events, isActive: !args.inactive };
    const { body: created } = await (await ctx.client()).call<WebhookBody & { secret?: string }>('createWebhook', { body });
    ctx.output.success(visible(`Webhook endpoint ${created.id} created.`));
    if (!created.secret) {
      ctx.output.result(created, () => renderWebhook(created));
      return;
    }
    const { secret, ...endpoint } = created;
    const { stored, failure } = await storeWebhookSecret(ctx, created.id, secret);
    printNewSecretOnce(ctx.output, secret, { ...created }, () => `${renderWebhook(endpoint)}\nSecret:     ${secret}`, stored);
    if (failure) throw failure;
  },
});
