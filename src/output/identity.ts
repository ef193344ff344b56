/*
 * What `--quiet` prints: a result's identity, one id per line, so `id=$(esign env create --title X -q)` works. Every
 * command's result is read the same way here; a command whose identity lies elsewhere passes its own reader.
 */

/** A result's ids, in the order they are printed. */
export type Identity = (data: unknown) => readonly string[];

/**
 * Where a record's id may be (pins.md: an id may come as `id` or `<resource>Id`), most specific first: a participant
 * or a document names its envelope too, an envelope may name its folder or template.
 */
const idFields = ['id', 'participantId', 'documentId', 'deliveryId', 'envelopeId', 'contactId', 'webhookId', 'templateId', 'folderId', 'listId'] as const;

function recordId(record: unknown): string[] {
  if (!record || typeof record !== 'object') return [];
  const fields = record as Record<string, unknown>;
  for (const name of idFields) {
    const value = fields[name];
    if (typeof value === 'string' && value !== '') return [value];
  }
  return [];
}

/** A list (a bare array or a page `{data: [...]}`) answers each item's id; a record its own; anything else none. */
export const identityOf: Identity = (data) => {
  if (Array.isArray(data)) return data.flatMap(recordId);
  const items = (data as { data?: unknown } | null | undefined)?.data;
  if (Array.isArray(items)) return items.flatMap(recordId);
  return recordId(data);
};
