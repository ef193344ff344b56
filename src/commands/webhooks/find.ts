import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../core/errors.js';
import type { WebhookBody } from './view.js';

/** The contract has no read of one endpoint: it is found in the list. */
export async function findWebhook(client: ApiClient, webhookId: string): Promise<WebhookBody> {
  for await (const webhook of client.paginate<WebhookBody>('listWebhooks', { query: { limit: 100 } })) {
    if (webhook.id === webhookId) return webhook;
  }
  throw new ApiError(404, 'RESOURCE_NOT_FOUND', `No webhook endpoint ${webhookId}.`);
}
