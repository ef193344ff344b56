/**
 * Every operation of the v4 contract, in one table shared by the CLI's client and the emulator's router.
 * Paths marked `stated` come from the contract; the rest are pinned in shared/spec/pins.md and listed in
 * docs/contract-assumptions.md.
 */
import { UsageError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation {
  readonly id: string;
  readonly resource: string;
  readonly method: HttpMethod;
  /** Path template with `{name}` parameters. */
  readonly path: string;
  readonly idempotent: boolean;
  readonly stated: boolean;
  readonly scope?: string;
  readonly paginated?: boolean;
}

type Row = [resource: string, id: string, method: HttpMethod, path: string, flags?: string, scope?: string];

// Flags: I = requires Idempotency-Key, S = method and path stated by the contract, L = list (limit/cursor).
const rows: Row[] = [
  ['account', 'getMe', 'GET', '/v4/api/me', 'S'],
  ['account', 'getAccount', 'GET', '/v4/api/account'],
  ['account', 'getEffectiveCapabilities', 'GET', '/v4/api/account/capabilities'],
  ['account', 'getCapabilityCatalog', 'GET', '/v4/api/capabilities'],
  ['account', 'listApiCalls', 'GET', '/v4/api/account/api-calls', 'L'],

  ['envelopes', 'createEnvelope', 'POST', '/v4/api/envelopes/', 'IS'],
  ['envelopes', 'listEnvelopes', 'GET', '/v4/api/envelopes/', 'L', 'envelopes:read'],
  ['envelopes', 'getEnvelope', 'GET', '/v4/api/envelopes/{envelopeId}', 'S', 'envelopes:read'],
  ['envelopes', 'updateEnvelopeSettings', 'PATCH', '/v4/api/envelopes/{envelopeId}/settings', 'S'],
  ['envelopes', 'deleteEnvelope', 'DELETE', '/v4/api/envelopes/{envelopeId}'],
  ['envelopes', 'sendEnvelope', 'POST', '/v4/api/envelopes/{envelopeId}/send', 'IS'],
  ['envelopes', 'sendNow', 'POST', '/v4/api/envelopes/send-now', 'IS'],
  ['envelopes', 'voidEnvelope', 'POST', '/v4/api/envelopes/{envelopeId}/void'],
  ['envelopes', 'getEnvelopeHistory', 'GET', '/v4/api/envelopes/{envelopeId}/history', 'L', 'envelopes:read'],
  ['envelopes', 'getEnvelopeDownload', 'GET', '/v4/api/envelopes/{envelopeId}/download', '', 'envelopes:read'],
  ['envelopes', 'moveEnvelope', 'POST', '/v4/api/envelopes/{envelopeId}/move'],

  ['participants', 'syncParticipants', 'PUT', '/v4/api/envelopes/{envelopeId}/participants', 'S'],
  ['participants', 'listParticipants', 'GET', '/v4/api/envelopes/{envelopeId}/participants', '', 'envelopes:read'],
  ['participants', 'correctParticipant', 'PATCH', '/v4/api/envelopes/{envelopeId}/participants/{participantId}', 'S'],
  ['participants', 'approveParticipant', 'POST', '/v4/api/envelopes/{envelopeId}/participants/{participantId}/approve'],
  ['participants', 'refuseParticipant', 'POST', '/v4/api/envelopes/{envelopeId}/participants/{participantId}/refuse'],
  ['participants', 'remindParticipant', 'POST', '/v4/api/envelopes/{envelopeId}/participants/{participantId}/remind'],

  ['documents', 'registerDocument', 'POST', '/v4/api/envelopes/{envelopeId}/documents', 'S'],
  ['documents', 'listDocuments', 'GET', '/v4/api/envelopes/{envelopeId}/documents', 'S', 'envelopes:read'],
  ['documents', 'putFields', 'PUT', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/fields', 'S'],
  ['documents', 'listFields', 'GET', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/fields', 'S', 'envelopes:read'],
  ['documents', 'confirmConversion', 'POST', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/confirm-conversion', 'S'],
  ['documents', 'findAnchors', 'POST', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/anchors:find', 'S', 'envelopes:read'],
  ['documents', 'getDocumentDownloadUrl', 'GET', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/download-url', '', 'envelopes:read'],
  ['documents', 'validateSealedDocument', 'POST', '/v4/api/documents/validate'],

  ['contacts', 'createContact', 'POST', '/v4/api/contacts/'],
  ['contacts', 'listContacts', 'GET', '/v4/api/contacts/', 'L'],
  ['contacts', 'getContact', 'GET', '/v4/api/contacts/{contactId}'],
  ['contacts', 'updateContact', 'PUT', '/v4/api/contacts/{contactId}'],
  ['contacts', 'patchContact', 'PATCH', '/v4/api/contacts/{contactId}'],
  ['contacts', 'deleteContact', 'DELETE', '/v4/api/contacts/{contactId}'],
  ['contacts', 'listContactEnvelopes', 'GET', '/v4/api/contacts/{contactId}/envelopes', 'L'],
  ['contacts', 'listContactLists', 'GET', '/v4/api/contact-lists/', 'L'],
  ['contacts', 'getContactList', 'GET', '/v4/api/contact-lists/{listId}'],

  ['team', 'listGroups', 'GET', '/v4/api/team/groups', 'L'],
  ['team', 'listMembers', 'GET', '/v4/api/team/members/', 'L'],

  ['folders', 'listFolders', 'GET', '/v4/api/folders/', 'L'],
  ['folders', 'createFolder', 'POST', '/v4/api/folders/'],
  ['folders', 'listFolderContent', 'GET', '/v4/api/folders/{folderId}/content', 'L'],
  ['folders', 'getFolderAccess', 'GET', '/v4/api/folders/{folderId}/access'],
  ['folders', 'renameFolder', 'PATCH', '/v4/api/folders/{folderId}'],
  ['folders', 'deleteFolder', 'DELETE', '/v4/api/folders/{folderId}'],
  ['folders', 'moveFolder', 'POST', '/v4/api/folders/{folderId}/move'],

  ['invites', 'listInvites', 'GET', '/v4/api/invites/', 'L'],

  ['webhooks', 'createWebhook', 'POST', '/v4/api/webhooks/', 'IS'],
  ['webhooks', 'listWebhooks', 'GET', '/v4/api/webhooks/', 'L'],
  ['webhooks', 'updateWebhook', 'PATCH', '/v4/api/webhooks/{webhookId}'],
  ['webhooks', 'deleteWebhook', 'DELETE', '/v4/api/webhooks/{webhookId}'],
  ['webhooks', 'listWebhookDeliveries', 'GET', '/v4/api/webhooks/{webhookId}/deliveries', 'L'],
  ['webhooks', 'getWebhookDelivery', 'GET', '/v4/api/webhooks/{webhookId}/deliveries/{deliveryId}'],
  ['webhooks', 'resendWebhookDelivery', 'POST', '/v4/api/webhooks/{webhookId}/deliveries/{deliveryId}/resend'],
  ['webhooks', 'rotateWebhookSecret', 'POST', '/v4/api/webhooks/{webhookId}/rotate-secret'],

  ['templates', 'listTemplates', 'GET', '/v4/api/templates/', 'L', 'templates:read'],
  ['templates', 'getTemplate', 'GET', '/v4/api/templates/{templateId}', '', 'templates:read'],
  ['templates', 'createEnvelopeFromTemplate', 'POST', '/v4/api/templates/{templateId}/envelopes', 'IS'],
  ['templates', 'findTemplateAnchors', 'POST', '/v4/api/templates/{templateId}/documents/{documentId}/anchors:find', 'S', 'templates:read'],

  ['reports', 'listVoidedEnvelopes', 'GET', '/v4/api/reports/voided-envelopes', 'L'],
  ['reports', 'getEnvelopeReport', 'GET', '/v4/api/reports/envelopes/{envelopeId}'],
  ['reports', 'getUsageByGroup', 'GET', '/v4/api/reports/usage-by-group'],

  ['legacy', 'createEnvelopeV2', 'POST', '/v2/envelopes/', 'S'],
];

export const operations: readonly Operation[] = rows.map(([resource, id, method, path, flags = '', scope]) => ({
  id,
  resource,
  method,
  path,
  idempotent: flags.includes('I'),
  stated: flags.includes('S'),
  paginated: flags.includes('L'),
  ...(scope ? { scope } : {}),
}));

const byId = new Map(operations.map((op) => [op.id, op]));

export function getOperation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

/** Names of the `{param}` placeholders in a path template, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * What no id may be or hold: empty, `.` or `..`, a separator (`/`, `\\`), the start of a query or fragment, a
 * percent-encoded character (`%2F`) or a control character. Percent-encoding alone would keep such an id inside its
 * segment, but a proxy or server that decodes it first would not.
 */
const unsafeId = /^\.{0,2}$|[/\\?#\u0000-\u001f\u007f-\u009f]|%[0-9A-Fa-f]{2}/;

/** Refuses an unsafe id before any request, naming the parameter (exit 2, nothing sent). */
export function assertPathParam(name: string, value: string | undefined): string {
  if (value === undefined || unsafeId.test(value)) {
    throw new UsageError(
      `Invalid ${name} ${JSON.stringify(value ?? '')}: an id cannot be empty, "." or "..", and cannot contain "/", "\\", "?", "#", a percent-encoded character or a control character.`,
      `Pass the ${name} exactly as esign printed it (for example in \`esign envelopes list\`).`,
      'INVALID_ID',
    );
  }
  return value;
}

/** Fills a path template; every value is checked, then percent-encoded, so an id can never change the path's shape. */
export function expandPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(assertPathParam(name, Object.hasOwn(params, name) ? params[name] : undefined)));
}
