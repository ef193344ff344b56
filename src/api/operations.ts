/**
 * Every operation of the v4 contract, in one table shared by the CLI's client and the emulator's router.
 * Paths marked `stated` come from the contract; the rest are pinned in shared/spec/pins.md and listed in
 * docs/contract-assumptions.md.
 */
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
  /** Changes nothing: GETs, and the POSTs that only search or check (`--dry-run` lets these through). */
  readonly readOnly: boolean;
}

type Row = [resource: string, id: string, method: HttpMethod, path: string, flags?: string, scope?: string];

// Flags: I = requires Idempotency-Key, S = method and path stated by the contract, L = list (limit/cursor),
// R = a POST that changes nothing (a search or a check).
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
  ['documents', 'findAnchors', 'POST', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/anchors:find', 'SR', 'envelopes:read'],
  ['documents', 'getDocumentDownloadUrl', 'GET', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/download-url', '', 'envelopes:read'],
  ['documents', 'validateSealedDocument', 'POST', '/v4/api/documents/validate', 'R'],

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
  ['templates', 'findTemplateAnchors', 'POST', '/v4/api/templates/{templateId}/documents/{documentId}/anchors:find', 'SR', 'templates:read'],

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
  readOnly: method === 'GET' || flags.includes('R'),
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

/** Fills a path template; every value is percent-encoded so an id can never change the path's shape. */
export function expandPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
