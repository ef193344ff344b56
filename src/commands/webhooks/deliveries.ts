import { webhookDeliveryStatuses } from '../../shared/values.js';
import { defineListCommand } from '../list-command.js';
import { pickId, webhookPick } from '../pick.js';
import { deliveryColumns, type DeliveryBody } from './view.js';

const statuses: readonly string[] = webhookDeliveryStatuses;
const lowerCaseStatuses = statuses.map((status) => status.toLowerCase());

function parseStatus(value: string): string {
  const status = value.toUpperCase();
  if (!statuses.includes(status)) throw new Error(`expected one of ${lowerCaseStatuses.join(', ')}.`);
  return status;
}

export default defineListCommand<{ webhookId?: string; status?: string }, DeliveryBody>({
  name: 'deliveries',
  description: "List an endpoint's deliveries, newest first (--status failed for the ones to look at)",
  operationId: 'listWebhookDeliveries',
  arguments: [{ name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false }],
  options: [{ flags: '--status <status>', description: `only this status (${lowerCaseStatuses.join(', ')})`, parse: parseStatus, completion: { words: lowerCaseStatuses } }],
  examples: ['esign webhooks deliveries 8c2d…', 'esign webhooks deliveries 8c2d… --status failed --all'],
  noun: 'deliveries',
  columns: deliveryColumns,
  source: async (args, ctx) => ({ params: { webhookId: await pickId(ctx, args.webhookId, webhookPick) } }),
  // The pinned list takes no status filter, so it is applied here, page by page.
  filter: (args) => (args.status ? (delivery) => delivery.status === args.status : undefined),
});
