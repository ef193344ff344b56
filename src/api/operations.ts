/**
 * Every operation of the v4 contract, in one table shared by the CLI's client and the emulator's router.
 * Paths marked `stated` come from the contract; the rest are pinned in shared/spec/pins.md and listed in
 * docs/contract-assumptions.md.
 */
import type { AnswerShape } from './answers.js';
import { UsageError } from '../core/errors.js';

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
  /** What a 2xx answers (src/api/answers.ts), checked by the client before a command reads it. */
  readonly answers: AnswerShape;
  /** A 204 or an empty body is a valid answer too. */
  readonly mayAnswerNothing: boolean;
  /** Changes nothing: GETs, and the POSTs that only search or check (`--dry-run` lets these through). */
  readonly readOnly: boolean;
  /** The status of success: 201 for a create, 204 for an operation that answers nothing, else 200. */
  readonly successStatus: 200 | 201 | 204;
}

type Row = [resource: string, id: string, method: HttpMethod, path: string, answers: AnswerShape | `${AnswerShape}?`, flags?: string, scope?: string];

// Answers: a shape of src/api/answers.ts; `?` = or no content. Flags: I = requires Idempotency-Key, S = method and
// path stated by the contract, L = a list esign offers page by page (--limit, --cursor; an envelope's participants and
// documents page too, but esign always reads them whole), R = a POST that changes nothing (a search or a check), C = answers
// 201 Created.
const rows: Row[] = [
  ['account', 'getMe', 'GET', '/v4/api/me', 'me', 'S'],
  ['account', 'getAccount', 'GET', '/v4/api/account', 'object'],
  ['account', 'getEffectiveCapabilities', 'GET', '/v4/api/account/capabilities', 'object'],
  ['account', 'getCapabilityCatalog', 'GET', '/v4/api/capabilities', 'object'],
  ['account', 'listApiCalls', 'GET', '/v4/api/account/api-calls', 'page', 'L'],

  ['envelopes', 'createEnvelope', 'POST', '/v4/api/envelopes/', 'envelope', 'ISC'],
  ['envelopes', 'listEnvelopes', 'GET', '/v4/api/envelopes/', 'envelopePage', 'L', 'envelopes:read'],
  ['envelopes', 'getEnvelope', 'GET', '/v4/api/envelopes/{envelopeId}', 'envelope', 'S', 'envelopes:read'],
  ['envelopes', 'updateEnvelopeSettings', 'PATCH', '/v4/api/envelopes/{envelopeId}/settings', 'envelope', 'S'],
  ['envelopes', 'deleteEnvelope', 'DELETE', '/v4/api/envelopes/{envelopeId}', 'none'],
  ['envelopes', 'sendEnvelope', 'POST', '/v4/api/envelopes/{envelopeId}/send', 'envelope', 'IS'],
  ['envelopes', 'sendNow', 'POST', '/v4/api/envelopes/send-now', 'envelope', 'ISC'],
  ['envelopes', 'voidEnvelope', 'POST', '/v4/api/envelopes/{envelopeId}/void', 'envelope'],
  ['envelopes', 'getEnvelopeHistory', 'GET', '/v4/api/envelopes/{envelopeId}/history', 'historyPage', 'L', 'envelopes:read'],
  ['envelopes', 'getEnvelopeDownload', 'GET', '/v4/api/envelopes/{envelopeId}/download', 'address', '', 'envelopes:read'],
  ['envelopes', 'moveEnvelope', 'POST', '/v4/api/envelopes/{envelopeId}/move', 'envelope?'],

  ['participants', 'syncParticipants', 'PUT', '/v4/api/envelopes/{envelopeId}/participants', 'participants', 'S'],
  ['participants', 'listParticipants', 'GET', '/v4/api/envelopes/{envelopeId}/participants', 'participantPage', '', 'envelopes:read'],
  ['participants', 'correctParticipant', 'PATCH', '/v4/api/envelopes/{envelopeId}/participants/{participantId}', 'none', 'S'],
  ['participants', 'approveParticipant', 'POST', '/v4/api/envelopes/{envelopeId}/participants/{participantId}/approve', 'object?'],
  ['participants', 'refuseParticipant', 'POST', '/v4/api/envelopes/{envelopeId}/participants/{participantId}/refuse', 'object?'],
  ['participants', 'remindParticipant', 'POST', '/v4/api/envelopes/{envelopeId}/participants/{participantId}/remind', 'object?'],

  ['documents', 'registerDocument', 'POST', '/v4/api/envelopes/{envelopeId}/documents', 'registeredDocument', 'SC'],
  ['documents', 'listDocuments', 'GET', '/v4/api/envelopes/{envelopeId}/documents', 'page', 'S', 'envelopes:read'],
  ['documents', 'putFields', 'PUT', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/fields', 'fieldCounts', 'S'],
  ['documents', 'listFields', 'GET', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/fields', 'fields', 'S', 'envelopes:read'],
  ['documents', 'confirmConversion', 'POST', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/confirm-conversion', 'object?', 'S'],
  ['documents', 'findAnchors', 'POST', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/anchors:find', 'anchorMatches', 'SR', 'envelopes:read'],
  ['documents', 'getDocumentDownloadUrl', 'GET', '/v4/api/envelopes/{envelopeId}/documents/{documentId}/download-url', 'address', '', 'envelopes:read'],
  ['documents', 'validateSealedDocument', 'POST', '/v4/api/documents/validate', 'validation', 'R'],

  ['contacts', 'createContact', 'POST', '/v4/api/contacts/', 'object', 'C'],
  ['contacts', 'listContacts', 'GET', '/v4/api/contacts/', 'page', 'L'],
  ['contacts', 'getContact', 'GET', '/v4/api/contacts/{contactId}', 'object'],
  ['contacts', 'updateContact', 'PUT', '/v4/api/contacts/{contactId}', 'object'],
  ['contacts', 'patchContact', 'PATCH', '/v4/api/contacts/{contactId}', 'object'],
  ['contacts', 'deleteContact', 'DELETE', '/v4/api/contacts/{contactId}', 'none'],
  ['contacts', 'listContactEnvelopes', 'GET', '/v4/api/contacts/{contactId}/envelopes', 'page', 'L'],
  ['contacts', 'listContactLists', 'GET', '/v4/api/contact-lists/', 'page', 'L'],
  ['contacts', 'getContactList', 'GET', '/v4/api/contact-lists/{listId}', 'object'],

  ['team', 'listGroups', 'GET', '/v4/api/team/groups', 'page', 'L'],
  ['team', 'listMembers', 'GET', '/v4/api/team/members/', 'page', 'L'],

  ['folders', 'listFolders', 'GET', '/v4/api/folders/', 'page', 'L'],
  ['folders', 'createFolder', 'POST', '/v4/api/folders/', 'object', 'C'],
  ['folders', 'listFolderContent', 'GET', '/v4/api/folders/{folderId}/content', 'page', 'L'],
  ['folders', 'getFolderAccess', 'GET', '/v4/api/folders/{folderId}/access', 'object'],
  ['folders', 'renameFolder', 'PATCH', '/v4/api/folders/{folderId}', 'object'],
  ['folders', 'deleteFolder', 'DELETE', '/v4/api/folders/{folderId}', 'none'],
  ['folders', 'moveFolder', 'POST', '/v4/api/folders/{folderId}/move', 'object'],

  ['invites', 'listInvites', 'GET', '/v4/api/invites/', 'page', 'L'],

  ['webhooks', 'createWebhook', 'POST', '/v4/api/webhooks/', 'object', 'ISC'],
  ['webhooks', 'listWebhooks', 'GET', '/v4/api/webhooks/', 'page', 'L'],
  ['webhooks', 'updateWebhook', 'PATCH', '/v4/api/webhooks/{webhookId}', 'object'],
  ['webhooks', 'deleteWebhook', 'DELETE', '/v4/api/webhooks/{webhookId}', 'none'],
  ['webhooks', 'listWebhookDeliveries', 'GET', '/v4/api/webhooks/{webhookId}/deliveries', 'page', 'L'],
  ['webhooks', 'getWebhookDelivery', 'GET', '/v4/api/webhooks/{webhookId}/deliveries/{deliveryId}', 'object'],
  ['webhooks', 'resendWebhookDelivery', 'POST', '/v4/api/webhooks/{webhookId}/deliveries/{deliveryId}/resend', 'object'],
  ['webhooks', 'rotateWebhookSecret', 'POST', '/v4/api/webhooks/{webhookId}/rotate-secret', 'object'],

  ['templates', 'listTemplates', 'GET', '/v4/api/templates/', 'templatePage', 'L', 'templates:read'],
  ['templates', 'getTemplate', 'GET', '/v4/api/templates/{templateId}', 'template', '', 'templates:read'],
  ['templates', 'createEnvelopeFromTemplate', 'POST', '/v4/api/templates/{templateId}/envelopes', 'envelope', 'ISC'],
  ['templates', 'findTemplateAnchors', 'POST', '/v4/api/templates/{templateId}/documents/{documentId}/anchors:find', 'anchorMatches', 'SR', 'templates:read'],

  ['reports', 'listVoidedEnvelopes', 'GET', '/v4/api/reports/voided-envelopes', 'page', 'L'],
  ['reports', 'getEnvelopeReport', 'GET', '/v4/api/reports/envelopes/{envelopeId}', 'object'],
  ['reports', 'getUsageByGroup', 'GET', '/v4/api/reports/usage-by-group', 'object'],

  ['legacy', 'createEnvelopeV2', 'POST', '/v2/envelopes/', 'object', 'SC'],
];

export const operations: readonly Operation[] = rows.map(([resource, id, method, path, answers, flags = '', scope]) => ({
  id,
  resource,
  method,
  path,
  answers: answers.replace(/\?$/, '') as AnswerShape,
  mayAnswerNothing: answers === 'none' || answers.endsWith('?'),
  idempotent: flags.includes('I'),
  stated: flags.includes('S'),
  paginated: flags.includes('L'),
  readOnly: method === 'GET' || flags.includes('R'),
  successStatus: answers === 'none' ? 204 : flags.includes('C') ? 201 : 200,
  ...(scope ? { scope } : {}),
}));

/**
 * The emulator's own control routes (pins.md, "Emulator control surface"), for `esign emulator sign|approve|refuse`:
 * not operations of the contract, so the emulator's router and every contract count leave them out.
 */
export const emulatorControlOperations: readonly Operation[] = (['sign', 'approve', 'refuse'] as const).map((action) => ({
  id: `emulator${action[0]!.toUpperCase()}${action.slice(1)}Participant`,
  resource: 'emulator',
  method: 'POST',
  path: `/_emulator/envelopes/{envelopeId}/participants/{participantId}/${action}`,
  idempotent: false,
  stated: false,
  answers: 'object',
  mayAnswerNothing: false,
  readOnly: false,
  successStatus: 200,
}));

const byId = new Map([...operations, ...emulatorControlOperations].map((op) => [op.id, op]));

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

/** Where esign prints each kind of id, for the hint of a refused one. */
const listingOf: Record<string, string> = {
  envelopeId: 'esign envelopes list',
  participantId: 'esign participants list <envelopeId>',
  documentId: 'esign documents list <envelopeId>',
  contactId: 'esign contacts list',
  listId: 'esign contacts lists',
  folderId: 'esign folders list',
  templateId: 'esign templates list',
  webhookId: 'esign webhooks list',
  deliveryId: 'esign webhooks deliveries <webhookId>',
};

/** What makes an id unsafe, as messages say it. */
export const UNSAFE_ID_RULE = 'an id cannot be empty, "." or "..", and cannot contain "/", "\\", "?", "#", a percent-encoded character or a control character';

/** Whether an id is one the API layer sends (checked where ids are read from files, before anything is sent). */
export function isSafeId(value: string): boolean {
  return !unsafeId.test(value);
}

/** Refuses an unsafe id before any request, naming the parameter (exit 2, nothing sent). */
export function assertPathParam(name: string, value: string | undefined): string {
  if (value === undefined || unsafeId.test(value)) {
    const listing = listingOf[name];
    throw new UsageError(
      `Invalid ${name} ${JSON.stringify(value ?? '')}: ${UNSAFE_ID_RULE}.`,
      `Pass the ${name} exactly as esign printed it${listing ? ` (for example in \`${listing}\`)` : ''}.`,
      'INVALID_ID',
    );
  }
  return value;
}

/** Fills a path template; every value is checked, then percent-encoded, so an id can never change the path's shape. */
export function expandPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(assertPathParam(name, Object.hasOwn(params, name) ? params[name] : undefined)));
}
