import { defineCommand } from '../../cli/command.js';
import { renderDocuments } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { listAllDocuments, stuckDraftWayOut } from '../../workflows/upload.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string }>({
  name: 'list',
  aliases: ['ls'],
  description: "List an envelope's documents with their processing status and page count",
  arguments: [envelopeIdArgument],
  examples: ['esign documents list 3f6c…', 'esign doc ls 3f6c… --json'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const documents = await listAllDocuments(client, args.envelopeId);
    ctx.output.result({ data: documents, nextCursor: null }, () => renderDocuments(documents, ctx.output.style));
    const stuck = documents.filter((document) => document.status === 'AWAITING_UPLOAD' || document.status === 'FAILED');
    if (stuck.length > 0) {
      const names = stuck.map((document) => `${document.fileName || document.documentId} is ${document.status}`).join('; ');
      ctx.output.warn(visible(`${names}: the envelope cannot be sent while it has ${stuck.length === 1 ? 'this document' : 'these documents'}. ${stuckDraftWayOut(args.envelopeId)}`));
    }
  },
});
