import { defineListCommand } from '../list-command.js';
import { pickId, webhookPick } from '../pick.js';
import { deliveryColumns, type DeliveryBody } from './view.js';

const statuses = ['PENDING', 'SUCCEEDED', 'FAILED'];

function parseStatus(value: string): string {
  const status = value.toUpperCase();
  if (!statuses.includes(status)) throw new Error(`expected one of ${statuses.map((s) => s.toLowerCase()).join(', ')}.`);
  return status;
}

export default defineListCommand<{ webhookId?: string; status?: string }, DeliveryBody>({
  name: 'deliveries',
  description: "List an endpoint's deliveries, newest first (--status failed for the ones to look at)",
  operationId: 'listWebhookDeliveries',
  arguments: [{ name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false }],
  options: [{ flags: '--status <status>', description: `only this status (${statuses.map((s) => s.toLowerCase()).join(', ')})`, parse: parseStatus }],
  examples: ['esign webhooks deliveries 8c2d…', 'esign webhooks deliveries 8c2d… --status failed --all'],
  noun: 'deliveries',
  columns: deliveryColumns,
  source: async (args, ctx) => ({ params: { webhookId: await pickId(ctx, args.webhookId, webhookPick) } }),
  // The pinned list takes no status filter, so it is applied here, page by page.
  filter: (args) => (args.status ? (delivery) => delivery.status === args.status : undefined),
});
