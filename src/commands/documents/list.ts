import { defineCommand } from '../../cli/command.js';
import { documentColumns, renderDocuments, type DocumentBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { listAllDocuments, readDocumentInfo, stuckDraftWayOut, type DocumentInfo } from '../../workflows/upload.js';
import { terminalJson, visible } from '../../output/sanitize.js';
import type { Context } from '../../cli/command.js';
import { asksForOnePage, listFormat, printList, wholeListOptions, type ListArgs } from '../list-command.js';

export default defineCommand<ListArgs & { envelopeId: string }>({
  name: 'list',
  aliases: ['ls'],
  description: "List an envelope's documents with their processing status and page count",
  arguments: [envelopeIdArgument],
  options: wholeListOptions,
  examples: ['esign documents list 3f6c…', 'esign doc ls 3f6c… --json', 'esign doc ls 3f6c… --jsonl'],
  async handler(args, ctx) {
    if (asksForOnePage(args)) {
      const shown: DocumentInfo[] = [];
      await printList<DocumentBody>(ctx, { operationId: 'listDocuments', params: { envelopeId: args.envelopeId } }, args, {
        columns: documentColumns(ctx.output.style),
        noun: 'documents',
        prepare: async (rows) => void shown.push(...rows.map(readDocumentInfo)),
      });
      warnIfStuck(ctx, args.envelopeId, shown);
      return;
    }
    const format = listFormat(ctx, args);
    const documents = await listAllDocuments(await ctx.client(), args.envelopeId);
    if (format === 'jsonl') for (const document of documents) await ctx.output.line(terminalJson(document));
    // --all prints one JSON array of every row, as every list does; without it, the answer's own shape.
    else ctx.output.result(args.all ? documents : { data: documents, nextCursor: null }, () => renderDocuments(documents, ctx.output.style));
    warnIfStuck(ctx, args.envelopeId, documents);
  },
});

/** A document that will never be READY keeps the draft from being sent: said on stderr beside the list. */
function warnIfStuck(ctx: Context, envelopeId: string, documents: readonly DocumentInfo[]): void {
  const stuck = documents.filter((document) => document.status === 'AWAITING_UPLOAD' || document.status === 'FAILED');
  if (stuck.length > 0) {
    const names = stuck.map((document) => `${document.fileName || document.documentId} is ${document.status}`).join('; ');
    ctx.output.warn(visible(`${names}: the envelope cannot be sent while it has ${stuck.length === 1 ? 'this document' : 'these documents'}. ${stuckDraftWayOut(envelopeId)}`));
  }
}
