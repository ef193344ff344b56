import type { RouteTable } from '../context.js';
import { cursorPosition, pageLimit, paginate, positionCursor } from '../pagination.js';

const catalog = [
  { id: 'ANCHOR_SEARCH', description: 'Place fields by searching text in the document' },
  { id: 'SEND_NOW', description: 'Create and send an envelope in one call' },
  { id: 'TEMPLATES', description: 'Create envelopes from templates' },
  { id: 'WEBHOOKS', description: 'Receive signed event deliveries' },
  { id: 'SMS_DELIVERY', description: 'Invite participants by SMS' },
  { id: 'WHATSAPP_DELIVERY', description: 'Invite participants by WhatsApp' },
  { id: 'BULK_SEND', description: 'Send one envelope to many recipients' },
];

export const routes: RouteTable = {
  getMe: ({ store, options }) => {
    const { account, integration, responsibleUser } = store.state;
    return {
      status: 200,
      body: {
        environment: options.environment,
        account: { id: account.id, name: account.name },
        integration,
        responsibleUser,
        scopes: ['envelopes:read', 'envelopes:write', 'templates:read', 'webhooks:write', 'contacts:write', 'folders:write'],
      },
    };
  },
  getAccount: ({ store, options }) => ({
    status: 200,
    body: {
      ...store.state.account,
      environment: options.environment,
      limits: { messageLimit: options.messageLimit, envelopeQuota: options.envelopeQuota ?? null, maxDocumentBytes: options.maxDocumentBytes },
      usage: { messagesSent: store.state.messagesSent, envelopesCreated: store.state.envelopesCreated },
    },
  }),
  getEffectiveCapabilities: ({ store, options, query }) => {
    const enabled = store.state.capabilities.filter((id) => id !== 'ANCHOR_SEARCH' || options.anchorSearch).map((id) => ({ id, enabled: true }));
    return { status: 200, body: paginate(enabled, query) };
  },
  getCapabilityCatalog: ({ query }) => ({ status: 200, body: paginate(catalog, query) }),
  listApiCalls: ({ store, query, principal }) => {
    const limit = pageLimit(query);
    const page = store.state.apiCalls.madeWith(principal.prefix, limit, cursorPosition(query)?.seq);
    return { status: 200, body: { data: page.calls, nextCursor: page.more ? positionCursor({ primary: page.last, seq: page.last }) : null } };
  },
};
