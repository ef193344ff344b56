import { anchorSearchResult, ANCHORS_FIND_DEFAULT_OCCURRENCE, describeInvalidSearches, type AnchorSearch } from '../../pdf/anchors.js';
import { assertAnchorSearchPossible, loadSearchableText, withSearchSlot } from '../anchor-gate.js';
import type { RouteContext, RouteResult, RouteTable } from '../context.js';
import { fail } from '../errors.js';
import type { DocumentRecord } from '../records.js';
import { lazySchema, parseBody, type RequestBodies, withKnownProperties, type KnownProperties } from '../validate.js';
import { findEnvelopeDocument } from './documents.js';

/** Searches in one anchors:find call; the contract names no ceiling, this one keeps a call bounded. */
const MAX_SEARCHES = 100;

/** A search item, as the contract describes it; the anchor module checks the values. */
const SEARCH_PROPERTIES: KnownProperties = { key: true, text: true, occurrence: true, caseSensitive: true, matchWholeWord: true, offset: { x: true, y: true } };

const findSchema = lazySchema((z) =>
  z.strictObject({ searches: z.array(withKnownProperties(z.record(z.string(), z.unknown()), SEARCH_PROPERTIES)).min(1).max(MAX_SEARCHES) }),
);

/** Found positions to a hundredth of a point: the contract calls the size approximate and the text's top-left is not finer. */

/** Read-only: the environment's switch, readiness, size, one search per document, then `{pages, truncated, matches}`. */
async function find(ctx: RouteContext, document: DocumentRecord): Promise<RouteResult> {
  const { searches } = parseBody(await findSchema(), ctx.body);
  const problems = describeInvalidSearches(searches);
  if (problems.length > 0) {
    throw fail.validation(`Invalid searches: ${problems.join('; ')}.`, { issues: problems.map((message) => ({ path: 'searches', message })) });
  }
  assertAnchorSearchPossible(ctx.options, document);
  const withDefaults = searches.map((search) => ({ ...search, occurrence: search.occurrence ?? ANCHORS_FIND_DEFAULT_OCCURRENCE }) as AnchorSearch);
  return withSearchSlot(document.documentId, async () => {
    const text = await loadSearchableText(ctx.store, ctx.options, document);
    return { status: 200, body: anchorSearchResult(text, withDefaults) };
  });
}

export const routes: RouteTable = {
  findAnchors: (ctx) => find(ctx, findEnvelopeDocument(ctx).document),

  findTemplateAnchors: (ctx) => {
    const { templateId, documentId } = ctx.params as { templateId: string; documentId: string };
    const template = ctx.store.state.templates[templateId];
    if (!template) throw fail.notFound('Template', templateId);
    const document = template.documentIds.includes(documentId) ? ctx.store.state.documents.get(documentId) : undefined;
    if (!document) throw fail.notFound('Document', documentId);
    return find(ctx, document);
  },
};

export const requestBodies: RequestBodies = {
  findAnchors: { schema: findSchema },
  findTemplateAnchors: { schema: findSchema },
};
