import { UsageError } from '../../core/errors.js';
import { webhookEventTypes } from '../../shared/values.js';
import { defineCommand } from '../../cli/command.js';
import { pickId, webhookPick } from '../pick.js';
import { checkEndpointUrl, parseEvents, renderWebhook, type WebhookBody } from './view.js';
import { visible } from '../../output/sanitize.js';

interface UpdateArgs {
  webhookId?: string;
  url?: string;
  events?: string[];
  active?: boolean;
  inactive?: boolean;
}

export default defineCommand<UpdateArgs>({
  name: 'update',
  description: "Change a webhook endpoint's URL, events, or switch it on (--active) or off (--inactive)",
  arguments: [{ name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false }],
  options: [
    { flags: '--url <url>', description: 'new HTTPS address' },
    { flags: '--events <list>', description: 'new comma-separated event kinds (replaces the list)', parse: parseEvents, completion: { words: webhookEventTypes, list: true } },
    { flags: '--active', description: 'switch deliveries on', conflicts: ['--inactive'] },
    { flags: '--inactive', description: 'switch deliveries off' },
  ],
  examples: ['esign webhooks update 8c2d… --inactive', 'esign webhooks update 8c2d… --events ENVELOPE_COMPLETED'],
  async handler(args, ctx) {
    const body: Record<string, unknown> = {};
    if (args.url !== undefined) body.url = checkEndpointUrl(args.url, '--url');
    if (args.events !== undefined) body.events = args.events;
    if (args.active || args.inactive) body.isActive = Boolean(args.active);
    if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', 'Pass --url, --events, --active or --inactive.');
    const webhookId = await pickId(ctx, args.webhookId, webhookPick);
    const { body: webhook } = await (await ctx.client()).call<WebhookBody>('updateWebhook', { params: { webhookId }, body });
    ctx.output.success(visible(`Webhook endpoint ${webhookId} updated (${Object.keys(body).join(', ')}).`));
    ctx.output.result(webhook, () => renderWebhook(webhook));
  },
});
