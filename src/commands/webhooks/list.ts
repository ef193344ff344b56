import { defineListCommand } from '../list-command.js';
import { webhookColumns, type WebhookBody } from './view.js';

export default defineListCommand<Record<string, never>, WebhookBody>({
  name: 'list',
  aliases: ['ls'],
  description: 'List webhook endpoints (their secrets are never shown again)',
  operationId: 'listWebhooks',
  examples: ['esign webhooks list', 'esign webhooks list --json'],
  noun: 'webhook endpoints',
  columns: webhookColumns,
});
