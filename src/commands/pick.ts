import { UsageError } from '../core/errors.js';
import type { ArgumentSpec, Context } from '../cli/command.js';
import { visible } from '../output/sanitize.js';

export interface PickSpec<T> {
  /** `folder`, `contact`, `webhook endpoint`, `contact list` */
  noun: string;
  /** `<folderId>` */
  argument: string;
  /** Where the ids are listed, for the error without a terminal. */
  listCommand: string;
  operationId: string;
  /** Path parameters of the list (a delivery is listed under its endpoint). */
  params?: Record<string, string>;
  idOf(item: T): string;
  label(item: T): string;
}

/** The most a picker offers: a longer list is better searched by id. */
const pickerRows = 200;

/**
 * The id the person gave, or on an interactive terminal one they pick from the list; without a terminal the id is
 * required, and that is said before anything is sent.
 */
export async function pickId<T>(ctx: Context, given: string | undefined, spec: PickSpec<T>): Promise<string> {
  if (given) return given;
  if (!ctx.prompts.canAsk) {
    throw new UsageError(
      `Missing the ${spec.noun}: ${spec.argument} is required without an interactive terminal.`,
      `Pass it; \`${spec.listCommand}\` shows the ids.`,
      `${spec.noun.toUpperCase().replace(/ /g, '_')}_REQUIRED`,
    );
  }
  const client = await ctx.client();
  const items: T[] = [];
  for await (const item of client.paginate<T>(spec.operationId, { ...(spec.params ? { params: spec.params } : {}), query: { limit: 100 }, max: pickerRows })) items.push(item);
  if (items.length === 0) throw new UsageError(`There is no ${spec.noun} to pick.`, `\`${spec.listCommand}\` lists them.`);
  return ctx.prompts.select(
    `Which ${spec.noun}?`,
    // Names and URLs come from the server: shown with their control characters made visible.
    items.map((item) => ({ name: visible(`${spec.label(item)} · ${spec.idOf(item)}`), value: spec.idOf(item) })),
    spec.argument,
  );
}

interface Folder {
  id: string;
  name?: string;
  path?: string;
}
interface Contact {
  id: string;
  name?: string;
  email?: string;
}
interface Webhook {
  id: string;
  url?: string;
  events?: string[];
}
interface Delivery {
  id: string;
  eventType?: string;
  status?: string;
  createdAt?: string;
}

export const folderPick: PickSpec<Folder> = {
  noun: 'folder',
  argument: '<folderId>',
  listCommand: 'esign folders list',
  operationId: 'listFolders',
  idOf: (folder) => folder.id,
  label: (folder) => folder.path ?? folder.name ?? '?',
};

export const contactPick: PickSpec<Contact> = {
  noun: 'contact',
  argument: '<contactId>',
  listCommand: 'esign contacts list',
  operationId: 'listContacts',
  idOf: (contact) => contact.id,
  label: (contact) => `${contact.name ?? '?'} <${contact.email ?? '?'}>`,
};

export const contactListPick: PickSpec<Folder> = {
  noun: 'contact list',
  argument: '<listId>',
  listCommand: 'esign contacts lists',
  operationId: 'listContactLists',
  idOf: (list) => list.id,
  label: (list) => list.name ?? '?',
};

export const webhookPick: PickSpec<Webhook> = {
  noun: 'webhook endpoint',
  argument: '<webhookId>',
  listCommand: 'esign webhooks list',
  operationId: 'listWebhooks',
  idOf: (webhook) => webhook.id,
  label: (webhook) => `${webhook.url ?? '?'} (${(webhook.events ?? []).join(', ')})`,
};

/** A delivery of one endpoint, newest first as the list answers. */
function deliveryPick(webhookId: string): PickSpec<Delivery> {
  return {
    noun: 'delivery',
    argument: '<deliveryId>',
    listCommand: `esign webhooks deliveries ${webhookId}`,
    operationId: 'listWebhookDeliveries',
    params: { webhookId },
    idOf: (delivery) => delivery.id,
    label: (delivery) => `${delivery.eventType ?? '?'} ${delivery.status ?? '?'} ${delivery.createdAt ?? ''}`.trimEnd(),
  };
}

/** `<webhookId> <deliveryId>`, each picked on a terminal when left out. */
export const deliveryArguments: readonly ArgumentSpec[] = [
  { name: 'webhookId', description: 'webhook endpoint id (picked on a terminal when left out)', required: false },
  { name: 'deliveryId', description: 'delivery id, from `webhooks deliveries` (picked on a terminal when left out)', required: false },
];

/** The endpoint, then one of its deliveries: each given, or picked on an interactive terminal. */
export async function pickDelivery(ctx: Context, given: { webhookId?: string; deliveryId?: string }): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await pickId(ctx, given.webhookId, webhookPick);
  return { webhookId, deliveryId: await pickId(ctx, given.deliveryId, deliveryPick(webhookId)) };
}
